/// Scores tracker output against ground truth with the HOTA metrics (Luiten et al., IJCV
/// 2020) exactly as TrackEval (`trackeval/metrics/hota.py`) computes them for a MOTChallenge
/// sequence read the MOT15 way (no class filtering).
///
/// - Ground-truth boxes whose confidence column truncates to 0 (MOTChallenge's "ignore" flag,
///   TrackEval's `zero_marked`) are left out; every tracker box counts.
/// - The similarity of two boxes is their IoU. Each pair of ids gets a global alignment
///   score, a Jaccard index over frames: the frames in which the two could match (each
///   weighted by their IoU, normalised against the other boxes' IoUs) over the frames in which
///   either is present.
/// - In every frame the pairs maximizing Σ alignment × IoU are found (Hungarian); at each α
///   in ``alphas`` the pairs with IoU ≥ α are the true positives, and every other box is a
///   miss or a false positive.
/// - AssA at α averages, over the true positives, the association IoU of their pair of ids:
///   TPA / (TPA + FNA + FPA), where TPA is the frames the pair matches at α and FNA, FPA are
///   the other frames of the ground-truth id and of the track.
///
/// The IoUs are computed once per frame and shared by every α.
public struct HOTAEvaluator: Sendable {
    /// The localisation thresholds α: 0.05, 0.10, …, 0.95, bit for bit the values of
    /// TrackEval's `np.arange(0.05, 0.99, 0.05)`.
    public static let alphas: [Double] = (0..<19).map { 0.05 + Double($0) * 0.05 }

    /// Creates an evaluator.
    public init() {}

    /// Scores `hypotheses` against `groundTruth`. Frames are matched by number; ids are only
    /// compared for equality. With no ground truth or no tracker boxes every score is 0 and
    /// LocA is 1, as in TrackEval.
    public func evaluate(groundTruth: [MOTRecord], hypotheses: [MOTRecord]) -> HOTAMetrics {
        counts(groundTruth: groundTruth, hypotheses: hypotheses).metrics
    }

    /// The counts the scores of `hypotheses` against `groundTruth` are derived from; the counts
    /// of several sequences add up to their combined scores.
    public func counts(groundTruth: [MOTRecord], hypotheses: [MOTRecord]) -> HOTACounts {
        let truth = groundTruth.filter { $0.confidence.rounded(.towardZero) != 0 }
        let sequence = MOTSequence(truth: truth, hypotheses: hypotheses)
        let alignment = sequence.alignmentScores()
        let alphas = Self.alphas
        var counts = HOTACounts()
        counts.truthBoxes = sequence.truthBoxes
        counts.trackBoxes = sequence.trackBoxes
        // matchCounts[pair * alphas.count + a]: the frames the pair matches at alphas[a].
        var matchCounts = [Int](repeating: 0, count: sequence.pairs.count * alphas.count)
        for frame in sequence.frames {
            var scores = CostMatrix(rows: frame.truths.count, columns: frame.tracks.count)
            for (cell, pair) in frame.pairs.enumerated() where pair >= 0 {
                scores.values[cell] = -alignment[pair] * frame.similarity.values[cell]
            }
            // With no overlapping pair (or no box on one side) nothing can match at any α.
            guard scores.values.contains(where: { $0 < 0 }) else { continue }
            for (row, column) in LinearAssignment.minimumCostAssignment(scores) {
                let similarity = frame.similarity[row, column]
                let pair = frame.pairs[row * frame.tracks.count + column]
                for a in alphas.indices where similarity >= alphas[a] - epsilon {
                    counts.alphas[a].truePositives += 1
                    counts.alphas[a].similaritySum += similarity
                    matchCounts[pair * alphas.count + a] += 1
                }
            }
        }
        for a in alphas.indices {
            for (index, pair) in sequence.pairs.enumerated() {
                let matches = Double(matchCounts[index * alphas.count + a])
                guard matches > 0 else { continue }
                let truthFrames = Double(sequence.truthFrames[pair.truth])
                let trackFrames = Double(sequence.trackFrames[pair.track])
                // Each of the pair's `matches` true positives scores the pair's association.
                counts.alphas[a].associationAccuracy +=
                    matches * matches / max(1, truthFrames + trackFrames - matches)
                counts.alphas[a].associationRecall += matches * matches / max(1, truthFrames)
                counts.alphas[a].associationPrecision += matches * matches / max(1, trackFrames)
            }
        }
        return counts
    }
}

/// What HOTA's scores are derived from, per α: summed over sequences, these give the scores
/// of the sequences together exactly as TrackEval's `combine_sequences` does (detection counts
/// added, association and localisation averaged weighted by true positives). A run longer than
/// its HOTA window (five minutes) is scored this way in consecutive windows, so its memory does
/// not grow with its length.
public struct HOTACounts: Sendable, Hashable {
    /// The counts at one α.
    public struct AtAlpha: Sendable, Hashable {
        /// Matched pairs (true positives).
        public var truePositives = 0
        /// The IoUs of the true positives, summed.
        public var similaritySum = 0.0
        /// Each true positive's pair's association IoU, TPA / (TPA + FNA + FPA), summed.
        public var associationAccuracy = 0.0
        /// Each true positive's pair's TPA / (TPA + FNA), summed.
        public var associationRecall = 0.0
        /// Each true positive's pair's TPA / (TPA + FPA), summed.
        public var associationPrecision = 0.0
    }

    /// The counts at each of ``HOTAEvaluator/alphas``.
    public var alphas = [AtAlpha](repeating: AtAlpha(), count: HOTAEvaluator.alphas.count)
    /// Scored ground-truth boxes.
    public var truthBoxes = 0
    /// Tracker boxes.
    public var trackBoxes = 0

    /// No boxes at all.
    public init() {}

    /// Adds another sequence's counts.
    public static func += (counts: inout HOTACounts, other: HOTACounts) {
        counts.truthBoxes += other.truthBoxes
        counts.trackBoxes += other.trackBoxes
        for a in counts.alphas.indices {
            counts.alphas[a].truePositives += other.alphas[a].truePositives
            counts.alphas[a].similaritySum += other.alphas[a].similaritySum
            counts.alphas[a].associationAccuracy += other.alphas[a].associationAccuracy
            counts.alphas[a].associationRecall += other.alphas[a].associationRecall
            counts.alphas[a].associationPrecision += other.alphas[a].associationPrecision
        }
    }

    /// The two counts together.
    public static func + (lhs: HOTACounts, rhs: HOTACounts) -> HOTACounts {
        var sum = lhs
        sum += rhs
        return sum
    }

    /// The scores: each averaged over the α thresholds.
    public var metrics: HOTAMetrics {
        let perAlpha = alphas.map { counts in
            AlphaScores(
                truePositives: Double(counts.truePositives), truthBoxes: Double(truthBoxes),
                trackBoxes: Double(trackBoxes),
                associationSums: (
                    counts.associationAccuracy, counts.associationRecall,
                    counts.associationPrecision
                ), similaritySum: counts.similaritySum)
        }
        func mean(_ score: KeyPath<AlphaScores, Double>) -> Double {
            perAlpha.reduce(0) { $0 + $1[keyPath: score] } / Double(perAlpha.count)
        }
        return HOTAMetrics(
            hota: mean(\.hota), detA: mean(\.detA), assA: mean(\.assA), detRe: mean(\.detRe),
            detPr: mean(\.detPr), assRe: mean(\.assRe), assPr: mean(\.assPr), locA: mean(\.locA),
            hota0: perAlpha[0].hota, locA0: perAlpha[0].locA)
    }
}

/// TrackEval's tolerance in its comparisons, `np.finfo('float').eps`.
private let epsilon = Double.ulpOfOne

/// A pair of a ground-truth id and a track id, both as contiguous indices.
private struct Pair: Hashable {
    var truth: Int
    var track: Int
}

/// One frame's boxes as contiguous id indices, with their IoUs.
private struct Frame {
    /// The ground-truth id index of each ground-truth box.
    var truths: [Int] = []
    /// The track id index of each tracker box.
    var tracks: [Int] = []
    /// IoU of every ground-truth box (row) with every tracker box (column).
    var similarity = CostMatrix(rows: 0, columns: 0)
    /// The index into ``MOTSequence/pairs`` of every cell of ``similarity``; −1 where the IoU
    /// is 0 (such a pair can never match).
    var pairs: [Int] = []
}

/// A sequence split into frames, with ids remapped to contiguous indices as TrackEval's
/// MOTChallenge loader does.
private struct MOTSequence {
    /// The frames with at least one box, in order.
    var frames: [Frame] = []
    /// The frames each ground-truth id is in, by id index.
    var truthFrames: [Int] = []
    /// The frames each track id is in, by id index.
    var trackFrames: [Int] = []
    /// The id pairs that overlap (IoU > 0) in at least one frame.
    var pairs: [Pair] = []
    /// Ground-truth boxes in all frames.
    var truthBoxes = 0
    /// Tracker boxes in all frames.
    var trackBoxes = 0

    /// Groups the boxes by frame, remaps the ids and computes every frame's IoUs.
    init(truth: [MOTRecord], hypotheses: [MOTRecord]) {
        var boxes: [Int: (truths: [MOTRecord], tracks: [MOTRecord])] = [:]
        for record in truth { boxes[record.frame, default: ([], [])].truths.append(record) }
        for record in hypotheses { boxes[record.frame, default: ([], [])].tracks.append(record) }
        var truthIndex: [Int: Int] = [:]
        var trackIndex: [Int: Int] = [:]
        var pairIndex: [Pair: Int] = [:]
        frames.reserveCapacity(boxes.count)
        // In frame order, so that sums (and so the last bits of the scores) do not depend on
        // the dictionary's per-process order.
        for (_, (truths, tracks)) in boxes.sorted(by: { $0.key < $1.key }) {
            var frame = Frame()
            frame.truths = truths.map { Self.count($0.id, in: &truthIndex, &truthFrames) }
            frame.tracks = tracks.map { Self.count($0.id, in: &trackIndex, &trackFrames) }
            frame.similarity = CostMatrix(rows: truths.count, columns: tracks.count)
            frame.pairs = [Int](repeating: -1, count: truths.count * tracks.count)
            for (row, truthRecord) in truths.enumerated() {
                for (column, trackRecord) in tracks.enumerated() {
                    let similarity = Self.intersectionOverUnion(truthRecord.box, trackRecord.box)
                    guard similarity > 0 else { continue }
                    frame.similarity[row, column] = similarity
                    let pair = Pair(truth: frame.truths[row], track: frame.tracks[column])
                    let index = pairIndex[pair] ?? pairs.count
                    if index == pairs.count {
                        pairIndex[pair] = index
                        pairs.append(pair)
                    }
                    frame.pairs[row * tracks.count + column] = index
                }
            }
            truthBoxes += truths.count
            trackBoxes += tracks.count
            frames.append(frame)
        }
    }

    /// The global alignment score of every pair in ``pairs``: Σ S / (frames of the
    /// ground-truth id + frames of the track − Σ S), summing over frames the pair's IoU
    /// normalised as a Jaccard index against the row and column it is in,
    /// S = IoU / (Σ row IoUs + Σ column IoUs − IoU).
    func alignmentScores() -> [Double] {
        var potential = [Double](repeating: 0, count: pairs.count)
        for frame in frames {
            let similarity = frame.similarity
            var rowSums = [Double](repeating: 0, count: similarity.rows)
            var columnSums = [Double](repeating: 0, count: similarity.columns)
            for row in 0..<similarity.rows {
                for column in 0..<similarity.columns {
                    rowSums[row] += similarity[row, column]
                    columnSums[column] += similarity[row, column]
                }
            }
            for (cell, pair) in frame.pairs.enumerated() where pair >= 0 {
                let row = cell / similarity.columns
                let column = cell % similarity.columns
                let value = similarity.values[cell]
                let denominator = rowSums[row] + columnSums[column] - value
                if denominator > epsilon { potential[pair] += value / denominator }
            }
        }
        return zip(pairs, potential).map { pair, potential in
            let present = Double(truthFrames[pair.truth] + trackFrames[pair.track])
            return potential / (present - potential)
        }
    }

    /// The contiguous index of `id` (the next free one when it is new), after counting one
    /// more frame for it in `frames`.
    private static func count(_ id: Int, in indices: inout [Int: Int], _ frames: inout [Int])
        -> Int
    {
        let index = indices[id] ?? frames.count
        if index == frames.count {
            indices[id] = index
            frames.append(0)
        }
        frames[index] += 1
        return index
    }

    /// IoU as TrackEval's `_calculate_box_ious` computes it for `xywh` boxes: areas from the
    /// corners (not width × height, which can differ in the last bit) and 0 when either area
    /// or the union is at most machine epsilon.
    private static func intersectionOverUnion(_ a: BoundingBox, _ b: BoundingBox) -> Double {
        let areaA = (a.maxX - a.minX) * (a.maxY - a.minY)
        let areaB = (b.maxX - b.minX) * (b.maxY - b.minY)
        let intersection = a.intersectionArea(with: b)
        let union = areaA + areaB - intersection
        guard areaA > epsilon, areaB > epsilon, union > epsilon else { return 0 }
        return intersection / union
    }
}

/// The scores at one α, from its counts as TrackEval's `_compute_final_fields` derives them.
private struct AlphaScores {
    /// Detection accuracy, TP / (TP + FN + FP).
    var detA: Double
    /// Detection recall, TP / (TP + FN).
    var detRe: Double
    /// Detection precision, TP / (TP + FP).
    var detPr: Double
    /// Association accuracy, the mean over true positives of their pair's association IoU.
    var assA: Double
    /// Association recall, the mean over true positives of their pair's TPA / (TPA + FNA).
    var assRe: Double
    /// Association precision, the mean over true positives of their pair's TPA / (TPA + FPA).
    var assPr: Double
    /// Localisation accuracy, the mean IoU of the true positives; 1 when there are none.
    var locA: Double

    /// √(DetA · AssA).
    var hota: Double { (detA * assA).squareRoot() }

    /// Derives the scores from the counts; `associationSums` are the three association
    /// scores summed over the true positives.
    init(
        truePositives: Double, truthBoxes: Double, trackBoxes: Double,
        associationSums: (accuracy: Double, recall: Double, precision: Double),
        similaritySum: Double
    ) {
        detRe = truePositives / max(1, truthBoxes)
        detPr = truePositives / max(1, trackBoxes)
        detA = truePositives / max(1, truthBoxes + trackBoxes - truePositives)
        let divisor = max(1, truePositives)
        assA = associationSums.accuracy / divisor
        assRe = associationSums.recall / divisor
        assPr = associationSums.precision / divisor
        locA = max(1e-10, similaritySum) / max(1e-10, truePositives)
    }
}
