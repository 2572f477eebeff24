import Tracking

/// A run's tracking quality against its ground truth, kept as the frames pass so that what it
/// holds does not grow with the run's length: identity and CLEAR-MOT scores accumulate frame by
/// frame (``MOTAccumulator``: it grows with the identities seen, not with frames), HOTA is the
/// whole run's — as TrackEval scores a sequence — for a run up to ``hotaWindow`` long, and adds
/// up over consecutive windows of that length beyond it (TrackEval's way of combining
/// sequences), and only the frames of the open window (and of the last
/// ``TrackingQuality/recentWindow`` seconds, for the recent figures) are kept.
///
/// HOTA needs its windows long: its association counts whole identities, and a window's edge
/// forgets every switch across it. Scored in 30 s windows, the tracks of a 79 s run on
/// `vtest.avi` got AssA 0.516 where TrackEval gives the same tracks 0.401.
struct RunQuality {
    /// The longest stretch HOTA is scored over whole: five minutes, longer than every
    /// MOTChallenge sequence, and at most 9,000 frames' records kept at 30 frames a second.
    static let hotaWindow = Duration.seconds(300)

    /// One scored frame.
    private struct ScoredFrame {
        /// The frame's number in its records.
        var number: Int
        /// Seconds since the run's first frame.
        var seconds: Double
        var truths: [MOTRecord]
        var tracks: [MOTRecord]
    }

    private var identities = MOTAccumulator()
    /// The HOTA counts of the windows closed so far.
    private var closedWindows = HOTACounts()
    /// When the open HOTA window started, seconds since the run's first frame.
    private var windowStart = 0.0
    /// The frames of the open HOTA window and of the last ``TrackingQuality/recentWindow``
    /// seconds, oldest first from ``firstKept``.
    private var frames: [ScoredFrame] = []
    private var firstKept = 0

    /// Frames held (at most twice the last window's: they are compacted in halves).
    var keptFrames: Int { frames.count }

    /// Whether any frame had a ground-truth box.
    private(set) var isScored = false

    /// Scores a frame `seconds` after the run's first: `truths` is its ground truth (`nil`
    /// when none is known), `tracks` what the tracker reported.
    mutating func add(number: Int, seconds: Double, truths: [MOTRecord]?, tracks: [MOTRecord]) {
        guard var truths else { return }
        // Ground truth marked 0 (MOTChallenge's "ignore") is left out here, once: the frames
        // kept for HOTA are rebuilt without their marks.
        truths.removeAll { $0.confidence.rounded(.towardZero) == 0 }
        // Scored once there is a ground-truth box (a file's frames may all lie elsewhere).
        isScored = isScored || !truths.isEmpty
        identities.add(truths: truths, tracks: tracks)
        if seconds - windowStart >= Self.hotaWindow.seconds {
            closedWindows += hotaCounts(from: windowStart)
            windowStart = seconds
        }
        frames.append(ScoredFrame(number: number, seconds: seconds, truths: truths, tracks: tracks))
        let keptFrom = min(windowStart, seconds - TrackingQuality.recentWindow.seconds)
        while frames[firstKept].seconds < keptFrom { firstKept += 1 }
        if firstKept > frames.count / 2 {
            frames.removeFirst(firstKept)
            firstKept = 0
        }
    }

    /// Whole-run identity, accuracy and HOTA, and the recent figures; `nil` before any frame
    /// with ground truth.
    func quality() -> TrackingQuality? {
        guard isScored, let last = frames.last else { return nil }
        let whole = identities.metrics
        let hota = (closedWindows + hotaCounts(from: windowStart)).metrics
        let recent = recentIdentity()
        return TrackingQuality(
            duration: .seconds(last.seconds), idf1: whole.idf1, mota: whole.mota,
            identitySwitches: whole.idsw, hota: hota.hota, detA: hota.detA, assA: hota.assA,
            recentIDF1: recent?.idf1 ?? whole.idf1, recentDuration: .seconds(recent?.seconds ?? 0))
    }

    /// Identity F1 and HOTA over the last ``TrackingQuality/recentWindow`` seconds, and the
    /// seconds they cover; `nil` without ground truth.
    func recentIdentity() -> (idf1: Double, hota: Double, seconds: Double)? {
        guard isScored, let last = frames.last else { return nil }
        let recent = records(from: last.seconds - TrackingQuality.recentWindow.seconds)
        let metrics = MOTEvaluator().evaluate(groundTruth: recent.truths, hypotheses: recent.tracks)
        let hota = HOTAEvaluator().evaluate(groundTruth: recent.truths, hypotheses: recent.tracks)
        return (metrics.idf1, hota.hota, last.seconds - recent.since)
    }

    /// The HOTA counts of the kept frames from `seconds` on.
    private func hotaCounts(from seconds: Double) -> HOTACounts {
        let window = records(from: seconds)
        return HOTAEvaluator().counts(groundTruth: window.truths, hypotheses: window.tracks)
    }

    /// The ground truth and the tracks of the kept frames from `seconds` on, numbered as
    /// recorded, and when the first of those frames was.
    private func records(from seconds: Double)
        -> (truths: [MOTRecord], tracks: [MOTRecord], since: Double)
    {
        var truths: [MOTRecord] = []
        var tracks: [MOTRecord] = []
        var since: Double?
        for frame in frames[firstKept...] where frame.seconds >= seconds {
            since = since ?? frame.seconds
            truths += frame.truths.map { MOTRecord(frame: frame.number, id: $0.id, box: $0.box) }
            tracks += frame.tracks
        }
        return (truths, tracks, since ?? seconds)
    }
}
