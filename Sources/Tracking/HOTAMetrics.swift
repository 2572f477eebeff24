/// HOTA scores of a tracker output against ground truth (Luiten et al., IJCV 2020), as
/// TrackEval's summary reports them.
///
/// Every score except ``hota0`` and ``locA0`` is the mean over the localisation thresholds
/// α = 0.05, 0.10, …, 0.95 (``HOTAEvaluator/alphas``) of the score at that α; in particular
/// ``hota`` is the mean of √(DetA_α · AssA_α), not √(``detA`` · ``assA``). All are in 0...1.
public struct HOTAMetrics: Sendable, Hashable, Codable {
    /// Higher-order tracking accuracy: the mean over α of √(DetA_α · AssA_α).
    public var hota: Double
    /// Detection accuracy: the mean over α of TP / (TP + FN + FP).
    public var detA: Double
    /// Association accuracy: the mean over α of the mean, over true positives, of the
    /// association IoU of the pair of ids they match (TPA / (TPA + FNA + FPA)).
    public var assA: Double
    /// Detection recall: the mean over α of TP / (TP + FN).
    public var detRe: Double
    /// Detection precision: the mean over α of TP / (TP + FP).
    public var detPr: Double
    /// Association recall: the mean over α, and over true positives, of TPA / (TPA + FNA).
    public var assRe: Double
    /// Association precision: the mean over α, and over true positives, of TPA / (TPA + FPA).
    public var assPr: Double
    /// Localisation accuracy: the mean over α of the mean IoU of the true positives (1 at an α
    /// with no true positives, as in TrackEval).
    public var locA: Double
    /// HOTA at the lowest threshold, α = 0.05 (TrackEval's `HOTA(0)`).
    public var hota0: Double
    /// LocA at the lowest threshold, α = 0.05 (TrackEval's `LocA(0)`).
    public var locA0: Double
}
