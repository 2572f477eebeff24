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
        var outcome: SubjectFollower<BlobDetector>.Outcome
        var framingError: Double
        var ranDetector: Bool
    }

    private(set) var follower: SubjectFollower<BlobDetector>
    private(set) var inference: InferenceSetting
    private(set) var framesProcessed = 0
    private(set) var detectorCalls = 0
    private(set) var framingErrorSum = 0.0
    /// Ground truth and tracks, frames numbered 1… in processing order (MOTChallenge style).
    private(set) var groundTruth: [MOTRecord] = []
    private(set) var hypotheses: [MOTRecord] = []
    private var sinceInference = 0

    init(inference: InferenceSetting, framesPerSecond: Double) throws(TrackerConfigurationError) {
        self.inference = inference
        follower = SubjectFollower(
            detector: BlobDetector(scale: inference.scale),
            tracker: try MultiObjectTracker(configuration: TrackerConfiguration()),
            selector: SubjectSelector(patience: Int(framesPerSecond / 2)))
    }

    /// Applies a new stride and scale from the next frame on.
    mutating func apply(_ setting: InferenceSetting) {
        inference = setting
        follower.detector.scale = setting.scale
    }

    /// Processes one frame seen from `pose`, `interval` seconds after the previous one;
    /// `people` is the frame's ground truth (pixel boxes), when known.
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
        let number = framesProcessed
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
        for track in outcome.tracks {
            hypotheses.append(
                MOTRecord(
                    frame: number, id: track.id.rawValue, box: track.box,
                    confidence: track.confidence))
        }
        framingErrorSum += error
        return Step(outcome: outcome, framingError: error, ranDetector: runDetector)
    }

    /// Identity and accuracy of the tracks so far, against the ground truth.
    func metrics() -> MOTMetrics {
        MOTEvaluator().evaluate(groundTruth: groundTruth, hypotheses: hypotheses)
    }

    /// Mean framing error per processed frame, picture units.
    var meanFramingError: Double {
        framesProcessed > 0 ? framingErrorSum / Double(framesProcessed) : FramingError.missed
    }
}
