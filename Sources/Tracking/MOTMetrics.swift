/// CLEAR-MOT and identity scores of a tracker output against ground truth.
///
/// Counts follow py-motmetrics (and the MOTChallenge devkit). ``motp`` is the mean IoU of the
/// matched pairs (higher is better, as MOTChallenge reports it); py-motmetrics reports the
/// mean distance `1 − IoU` instead.
public struct MOTMetrics: Sendable, Hashable, Codable {
    /// Multiple-object tracking accuracy, 1 − (FN + FP + IDSW) / ground-truth boxes; ≤ 1.
    public var mota: Double
    /// Multiple-object tracking precision: the mean IoU of matched pairs, 0...1.
    public var motp: Double
    /// Identity F1: 2·IDTP / (2·IDTP + IDFP + IDFN), 0...1.
    public var idf1: Double
    /// Identity precision, IDTP / (IDTP + IDFP).
    public var idp: Double
    /// Identity recall, IDTP / (IDTP + IDFN).
    public var idr: Double
    /// Identity switches: a ground-truth object matched to a different track than before.
    public var idsw: Int
    /// False positives: tracker boxes matched to nothing.
    public var fp: Int
    /// False negatives: ground-truth boxes matched to nothing.
    public var fn: Int
    /// Mostly tracked: ground-truth objects matched in at least 80% of their frames.
    public var mt: Int
    /// Mostly lost: ground-truth objects matched in less than 20% of their frames.
    public var ml: Int
    /// Ground-truth boxes in all frames.
    public var groundTruthCount: Int
    /// Distinct ground-truth objects.
    public var objectCount: Int
    /// Matched pairs (including switches).
    public var matchCount: Int
}
