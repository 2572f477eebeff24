import Capture
import Dock
import Governor
import Tracking

/// The tracking half of the pipeline: detector (every `stride`-th frame, at `scale`) →
/// tracker → subject → framing → pan/tilt command; and the records needed to grade it against
/// the scene's ground truth.
struct TrackingStage {
    /// What one frame produced.
    struct Step {
        var outcome: SubjectFollower<PipelineDetector>.Outcome
        var framingError: Double
        var ranDetector: Bool
    }

    private(set) var follower: SubjectFollower<PipelineDetector>
    private(set) var inference: InferenceSetting
    private(set) var framesProcessed = 0
    private(set) var detectorCalls = 0
    private(set) var framingErrorSum = 0.0
    /// Ground truth and tracks, frames numbered 1… in processing order (MOTChallenge style).
    private(set) var groundTruth: [MOTRecord] = []
    private(set) var hypotheses: [MOTRecord] = []
    private var sinceInference = 0
    /// Per processed frame: its record number and seconds since the first frame.
    private var frameTimes: [(number: Int, seconds: Double)] = []
    private var trackIDs = Set<Int>()

    init(inference: InferenceSetting, framesPerSecond: Double, detector: DetectorKind = .blob)
        throws
    {
        self.inference = inference
        follower = SubjectFollower(
            detector: try PipelineDetector(detector, scale: inference.scale),
            tracker: try MultiObjectTracker(configuration: TrackerConfiguration()),
            selector: SubjectSelector(patience: Int(framesPerSecond / 2)))
    }

    /// Applies a new stride and scale from the next frame on.
    mutating func apply(_ setting: InferenceSetting) {
        inference = setting
        follower.detector.scale = setting.scale
    }

    /// Processes one frame seen from `pose`, `interval` seconds after the previous one;
    /// `people` is the frame's ground truth (pixel boxes), when known. Records are numbered by
    /// the frame's index in its source when it has one (a video: frame 1 is its first), so
    /// they line up with the source's own ground truth; otherwise in processing order.
    mutating func process(_ frame: Frame, pose: CameraPose, interval: Double, people: [MOTRecord]?)
        -> Step
    {
        let gray = GrayFrame(width: frame.width, height: frame.height, pixels: frame.luma)
        let runDetector = sinceInference == 0
        sinceInference = (sinceInference + 1) % max(1, inference.stride)
        if runDetector { detectorCalls += 1 }
        let outcome = follower.process(
            gray, pose: pose, runDetector: runDetector, frameInterval: max(interval, 1e-3))
        framesProcessed += 1
        let number = frame.sourceIndex.map { $0 + 1 } ?? framesProcessed
        var error = FramingError.missed
        if let people {
            for person in people {
                groundTruth.append(MOTRecord(frame: number, id: person.id, box: person.box))
            }
            error = FramingError.measure(
                framing: outcome.framing, subject: outcome.subjects.first,
                people: people.map(\.box),
                width: Double(frame.width), height: Double(frame.height))
        }
        let elapsed = frameTimes.last.map { $0.seconds + interval } ?? 0
        frameTimes.append((number, elapsed))
        for track in outcome.tracks {
            trackIDs.insert(track.id.rawValue)
            hypotheses.append(
                MOTRecord(
                    frame: number, id: track.id.rawValue, box: track.box,
                    confidence: track.confidence))
        }
        framingErrorSum += error
        return Step(outcome: outcome, framingError: error, ranDetector: runDetector)
    }

    /// Identity, accuracy and HOTA of the tracks so far against the ground truth; `nil`
    /// without any.
    func quality() -> TrackingQuality? {
        guard !groundTruth.isEmpty else { return nil }
        let whole = MOTEvaluator().evaluate(groundTruth: groundTruth, hypotheses: hypotheses)
        let hota = HOTAEvaluator().evaluate(groundTruth: groundTruth, hypotheses: hypotheses)
        let recent = recentIdentity()
        return TrackingQuality(
            seconds: frameTimes.last?.seconds ?? 0, idf1: whole.idf1, mota: whole.mota,
            identitySwitches: whole.idsw, hota: hota.hota, detA: hota.detA, assA: hota.assA,
            recentIDF1: recent?.idf1 ?? whole.idf1, recentSeconds: recent?.seconds ?? 0)
    }

    /// Identity F1 and HOTA over the last ``TrackingQuality/recentWindow`` seconds, and the
    /// seconds they cover; `nil` without ground truth.
    func recentIdentity() -> (idf1: Double, hota: Double, seconds: Double)? {
        guard !groundTruth.isEmpty, let last = frameTimes.last else { return nil }
        let from = last.seconds - TrackingQuality.recentWindow
        guard let first = frameTimes.first(where: { $0.seconds >= from }) else { return nil }
        let truth = groundTruth.records(fromFrame: first.number)
        let tracks = hypotheses.records(fromFrame: first.number)
        let metrics = MOTEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        let hota = HOTAEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        return (metrics.idf1, hota.hota, last.seconds - first.seconds)
    }

    /// Distinct track identities given out so far.
    var trackCount: Int { trackIDs.count }

    /// Seconds from the first processed frame to the last.
    var seconds: Double { frameTimes.last?.seconds ?? 0 }

    /// Mean framing error per processed frame, picture units.
    var meanFramingError: Double {
        framesProcessed > 0 ? framingErrorSum / Double(framesProcessed) : FramingError.missed
    }
}

extension Array where Element == MOTRecord {
    /// The records of frame `number` and later (records are appended in frame order, so
    /// they are a suffix).
    fileprivate func records(fromFrame number: Int) -> [MOTRecord] {
        Array(self[(firstIndex { $0.frame >= number } ?? endIndex)...])
    }
}
