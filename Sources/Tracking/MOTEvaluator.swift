/// Scores tracker output against ground truth with CLEAR-MOT and identity matching at an IoU
/// threshold (0.5 by default), the way py-motmetrics does.
///
/// Per frame, a ground-truth object keeps the track it was last matched to when that track is
/// still within the threshold; the remaining pairs are matched optimally (most pairs first,
/// then the smallest total distance `1 − IoU`). The identity scores come from a global
/// optimal assignment of ground-truth ids to track ids over the whole sequence.
public struct MOTEvaluator: Sendable {
    /// The minimum IoU for a pair to count as a match, 0...1.
    public var minimumIoU: Double

    /// Creates an evaluator.
    public init(minimumIoU: Double = 0.5) {
        self.minimumIoU = minimumIoU
    }

    /// Scores `hypotheses` against `groundTruth`. Frames are matched by number.
    public func evaluate(groundTruth: [MOTRecord], hypotheses: [MOTRecord]) -> MOTMetrics {
        var truthByFrame: [Int: [MOTRecord]] = [:]
        var hypothesesByFrame: [Int: [MOTRecord]] = [:]
        for record in groundTruth { truthByFrame[record.frame, default: []].append(record) }
        for record in hypotheses { hypothesesByFrame[record.frame, default: []].append(record) }
        var accumulator = MOTAccumulator(minimumIoU: minimumIoU)
        for frame in Set(truthByFrame.keys).union(hypothesesByFrame.keys).sorted() {
            accumulator.add(
                truths: truthByFrame[frame] ?? [], tracks: hypothesesByFrame[frame] ?? [])
        }
        return accumulator.metrics
    }
}

/// ``MOTEvaluator``'s scoring one frame at a time, for a sequence that is still running: what
/// it keeps grows with the identities seen (and the pairs of them that overlapped), not with
/// the frames, so a day-long run can be scored as it goes.
public struct MOTAccumulator: Sendable {
    /// The minimum IoU for a pair to count as a match, 0...1.
    public let minimumIoU: Double

    private var lastMatch: [Int: Int] = [:]  // ground-truth id -> track id
    private var matchedFrames: [Int: Int] = [:]  // ground-truth id -> frames matched
    private var objectFrames: [Int: Int] = [:]  // ground-truth id -> frames present
    private var hypothesisCount = 0
    private var pairFrames: [Pair: Int] = [:]  // frames a pair is within the threshold
    private var fp = 0
    private var fn = 0
    private var idsw = 0
    private var matches = 0
    private var distanceSum = 0.0

    /// An empty sequence, matching at `minimumIoU`.
    public init(minimumIoU: Double = 0.5) {
        self.minimumIoU = minimumIoU
    }

    /// Scores the next frame: its ground-truth boxes and its tracks (frames in order; the
    /// records' frame numbers are not read). Ground-truth boxes whose confidence column
    /// truncates to 0 (MOTChallenge's "ignore" flag) are left out, as ``HOTAEvaluator`` leaves
    /// them out and as MOTChallenge's evaluation reads its ground truth (py-motmetrics'
    /// `min_confidence=1`, TrackEval's `zero_marked`).
    public mutating func add(truths: [MOTRecord], tracks: [MOTRecord]) {
        let truths = truths.filter { $0.confidence.rounded(.towardZero) != 0 }
        let maximumDistance = 1 - minimumIoU
        for truth in truths { objectFrames[truth.id, default: 0] += 1 }
        hypothesisCount += tracks.count
        // Distances; NaN where the pair is beyond the threshold.
        var distances = CostMatrix(rows: truths.count, columns: tracks.count)
        for (i, truth) in truths.enumerated() {
            for (j, track) in tracks.enumerated() {
                let distance = 1 - truth.box.intersectionOverUnion(with: track.box)
                if distance <= maximumDistance {
                    distances[i, j] = distance
                    pairFrames[Pair(truth: truth.id, track: track.id), default: 0] += 1
                } else {
                    distances[i, j] = .nan
                }
            }
        }
        var truthMatched = [Bool](repeating: false, count: truths.count)
        var trackMatched = [Bool](repeating: false, count: tracks.count)
        func record(_ i: Int, _ j: Int) {
            truthMatched[i] = true
            trackMatched[j] = true
            matches += 1
            distanceSum += distances[i, j]
            matchedFrames[truths[i].id, default: 0] += 1
            lastMatch[truths[i].id] = tracks[j].id
        }
        // 1. Keep last correspondences that are still within the threshold.
        for (i, truth) in truths.enumerated() {
            guard let previous = lastMatch[truth.id],
                let j = tracks.indices.first(where: {
                    !trackMatched[$0] && tracks[$0].id == previous
                }),
                !distances[i, j].isNaN
            else { continue }
            record(i, j)
        }
        // 2. Optimal matching of the rest: most pairs first, then least total distance.
        let rows = truths.indices.filter { !truthMatched[$0] }
        let columns = tracks.indices.filter { !trackMatched[$0] }
        if !rows.isEmpty && !columns.isEmpty {
            let bonus = Double(min(rows.count, columns.count)) * 2 + 1
            var costs = CostMatrix(rows: rows.count, columns: columns.count)
            var anyValid = false
            for (r, i) in rows.enumerated() {
                for (c, j) in columns.enumerated() where !distances[i, j].isNaN {
                    costs[r, c] = distances[i, j] - bonus
                    anyValid = true
                }
            }
            if anyValid {
                for (r, c) in LinearAssignment.minimumCostAssignment(costs) {
                    let i = rows[r]
                    let j = columns[c]
                    guard !distances[i, j].isNaN else { continue }
                    if let previous = lastMatch[truths[i].id], previous != tracks[j].id {
                        idsw += 1
                    }
                    record(i, j)
                }
            }
        }
        fn += truthMatched.lazy.filter { !$0 }.count
        fp += trackMatched.lazy.filter { !$0 }.count
    }

    /// The scores of the frames added so far.
    public var metrics: MOTMetrics {
        let groundTruthCount = objectFrames.values.reduce(0, +)
        let identityTruePositives = identityMatches(pairFrames: pairFrames)
        let idfn = groundTruthCount - identityTruePositives
        let idfp = hypothesisCount - identityTruePositives
        var mt = 0
        var ml = 0
        for (id, present) in objectFrames {
            let ratio = Double(matchedFrames[id] ?? 0) / Double(present)
            if ratio >= 0.8 { mt += 1 }
            if ratio < 0.2 { ml += 1 }
        }
        func ratio(_ numerator: Int, _ denominator: Int) -> Double {
            denominator == 0 ? 0 : Double(numerator) / Double(denominator)
        }
        return MOTMetrics(
            mota: groundTruthCount == 0
                ? 0 : 1 - Double(fn + fp + idsw) / Double(groundTruthCount),
            motp: matches == 0 ? 0 : 1 - distanceSum / Double(matches),
            idf1: ratio(2 * identityTruePositives, 2 * identityTruePositives + idfp + idfn),
            idp: ratio(identityTruePositives, identityTruePositives + idfp),
            idr: ratio(identityTruePositives, identityTruePositives + idfn),
            idsw: idsw, fp: fp, fn: fn, mt: mt, ml: ml, groundTruthCount: groundTruthCount,
            objectCount: objectFrames.count, matchCount: matches)
    }

    private struct Pair: Hashable {
        var truth: Int
        var track: Int
    }

    /// The largest number of frames in which ground-truth and track ids agree, over one-to-one
    /// id assignments (IDTP).
    ///
    /// Ids that never overlap cannot gain from being paired, so the assignment splits into the
    /// connected components of the overlap graph, each solved exactly on its own small matrix:
    /// memory and time grow with the pairs that overlap, not with truth ids × track ids (a file
    /// of 20,000 ids once needed 3 GB).
    private func identityMatches(pairFrames: [Pair: Int]) -> Int {
        var truthNodes: [Int: Int] = [:]
        var trackNodes: [Int: Int] = [:]
        var sets = DisjointSets()
        func node(_ id: Int, in nodes: inout [Int: Int]) -> Int {
            if let known = nodes[id] { return known }
            let added = sets.add()
            nodes[id] = added
            return added
        }
        for pair in pairFrames.keys {
            sets.union(node(pair.truth, in: &truthNodes), node(pair.track, in: &trackNodes))
        }
        var components: [Int: [(pair: Pair, frames: Int)]] = [:]
        for (pair, frames) in pairFrames {
            components[sets.root(truthNodes[pair.truth]!), default: []].append((pair, frames))
        }
        var total = 0
        for edges in components.values {
            let truthIDs = Array(Set(edges.map(\.pair.truth))).sorted()
            let trackIDs = Array(Set(edges.map(\.pair.track))).sorted()
            let truthIndex = Dictionary(
                uniqueKeysWithValues: truthIDs.enumerated().map { ($1, $0) })
            let trackIndex = Dictionary(
                uniqueKeysWithValues: trackIDs.enumerated().map { ($1, $0) })
            var costs = CostMatrix(rows: truthIDs.count, columns: trackIDs.count)
            for (pair, frames) in edges {
                costs[truthIndex[pair.truth]!, trackIndex[pair.track]!] = -Double(frames)
            }
            var matched = 0.0
            for (i, j) in LinearAssignment.minimumCostAssignment(costs) { matched -= costs[i, j] }
            total += Int(matched.rounded())
        }
        return total
    }
}
