import Capture
import Dock
import Governor
import Tracking
import Units

/// The tracking half of the pipeline: detector (every `stride`-th frame, at `scale`) →
/// tracker → subject → framing → pan/tilt command; graded against the footage's ground truth
/// as it goes (``RunQuality``), so that it holds no more for a day's run than for a minute's.
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
    /// The tracks graded against the ground truth, frame by frame.
    private var grades = RunQuality()
    private var sinceInference = 0
    /// Seconds from the first processed frame to the last.
    private(set) var seconds = 0.0
    private var trackIDs = Set<Int>()
    /// The time at each rung of the ladder the stage ran at, in the order first run at.
    private(set) var rungs: [RunRung] = []
    /// Where the detector's boxes and the tracks go, frame by frame; nil keeps none.
    private let records: RunRecords?

    init(
        inference: InferenceSetting, frameRate: FrameRate, detector: DetectorKind = .blob,
        personModel: PersonModel? = nil, records: RunRecords? = nil
    ) throws {
        self.inference = inference
        self.records = records
        follower = SubjectFollower(
            detector: try PipelineDetector(
                detector, scale: inference.scale, regions: inference.regions,
                personModel: personModel),
            tracker: try MultiObjectTracker(configuration: detector.trackerConfiguration),
            selector: SubjectSelector(patience: Int(frameRate.framesPerSecond / 2)))
    }

    /// Applies a new stride, scale and region budget from the next frame on.
    mutating func apply(_ setting: InferenceSetting) {
        inference = setting
        follower.detector.apply(setting)
    }

    /// The detector's network runs so far (several a frame when it looks at regions); its
    /// calls for a detector without a network.
    var networkCalls: Int { follower.detector.networkCalls ?? detectorCalls }

    /// Processes one frame seen from `pose`, `interval` seconds after the previous one;
    /// `people` is the frame's ground truth (pixel boxes), when known. Records are numbered by
    /// the frame's index in its source when it has one (a video: frame 1 is its first), so
    /// they line up with the source's own ground truth; otherwise in processing order.
    mutating func process(_ frame: Frame, pose: CameraPose, interval: Double, people: [MOTRecord]?)
        -> Step
    {
        let gray = GrayFrame(
            width: frame.width, height: frame.height, pixels: frame.luma, chroma: frame.chroma)
        let runDetector = sinceInference == 0
        sinceInference = (sinceInference + 1) % max(1, inference.stride)
        if runDetector { detectorCalls += 1 }
        let callsBefore = follower.detector.networkCalls
        let outcome = follower.process(
            gray, pose: pose, runDetector: runDetector, frameInterval: max(interval, 1e-3))
        framesProcessed += 1
        rungs.record(
            inference, interval: .seconds(framesProcessed == 1 ? 0 : interval),
            ranDetector: runDetector,
            networkCalls: follower.detector.networkCalls.map { $0 - (callsBefore ?? 0) })
        let number = frame.sourceIndex.map { $0 + 1 } ?? framesProcessed
        var error = FramingError.missed
        if let people {
            error = FramingError.measure(
                framing: outcome.framing, subject: outcome.subjects.first,
                people: people.map(\.box),
                width: Double(frame.width), height: Double(frame.height))
        }
        seconds = framesProcessed == 1 ? 0 : seconds + interval
        var tracks: [MOTRecord] = []
        tracks.reserveCapacity(outcome.tracks.count)
        for track in outcome.tracks {
            trackIDs.insert(track.id.rawValue)
            tracks.append(
                MOTRecord(
                    frame: number, id: track.id.rawValue, box: track.box,
                    confidence: track.confidence))
        }
        grades.add(number: number, seconds: seconds, truths: people, tracks: tracks)
        if let records {
            records.detections.append(
                outcome.detections.map {
                    MOTRecord(frame: number, id: -1, box: $0.box, confidence: $0.confidence)
                })
            records.tracks.append(tracks)
        }
        framingErrorSum += error
        return Step(outcome: outcome, framingError: error, ranDetector: runDetector)
    }

    /// Identity, accuracy and HOTA of the tracks so far against the ground truth; `nil`
    /// without any.
    func quality() -> TrackingQuality? { grades.quality() }

    /// Identity F1 and HOTA over the last ``TrackingQuality/recentWindow`` seconds, and the
    /// seconds they cover; `nil` without ground truth.
    func recentIdentity() -> (idf1: Double, hota: Double, seconds: Double)? {
        grades.recentIdentity()
    }

    /// Distinct track identities given out so far.
    var trackCount: Int { trackIDs.count }

    /// Mean framing error per processed frame, picture units.
    var meanFramingError: Double {
        framesProcessed > 0 ? framingErrorSum / Double(framesProcessed) : FramingError.missed
    }
}
