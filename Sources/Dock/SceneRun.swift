import Tracking
import Units

/// A closed-loop run on the synthetic scene: each frame is rendered from the rig's pose, the
/// follower tracks and frames, and the rig is driven by its command. Collects the tracks and
/// the ground truth (MOTChallenge records, pixels) and the framing error of the subject's true
/// position.
public struct SceneRun<Rig: CameraRig>: Sendable {
    /// What a run produced.
    public struct Result: Sendable {
        /// Ground truth: people at least the minimum visibility visible, per frame.
        public var groundTruth: [MOTRecord]
        /// The confirmed tracks per frame.
        public var hypotheses: [MOTRecord]
        /// The detections per inference frame (id −1).
        public var detections: [MOTRecord]
        /// Mean framing error of the primary subject's true centre, picture units; frames
        /// without a subject or whose subject matches no person count as 0.5.
        public var meanFramingError: Double
        /// The share of frames whose subject's true centre is within 0.1 of the target.
        public var framedFraction: Share
        /// Frames processed.
        public var frames: Int
        /// The rig after the run.
        public var rig: Rig
    }

    /// The scene.
    public var scene: SyntheticScene
    /// The rig.
    public var rig: Rig
    /// The renderer.
    public var renderer: FrameRenderer
    /// The follower.
    public var follower: SubjectFollower<BlobDetector>
    /// The inference stride, ≥ 1.
    public var stride: Int
    /// The frame rate, at least 1 fps.
    public var frameRate: FrameRate
    /// Minimum visibility for a person to be in the ground truth.
    public var minimumVisibility: Double

    /// Creates a run.
    ///
    /// - Throws: ``TrackerConfigurationError`` when the tracker settings are invalid.
    public init(
        scene: SyntheticScene.Configuration, rig: Rig, width: Int, height: Int,
        tracker: TrackerConfiguration, scale: Double, stride: Int, frameRate: FrameRate,
        minimumVisibility: Double = 0.3
    ) throws(TrackerConfigurationError) {
        self.scene = SyntheticScene(configuration: scene)
        self.rig = rig
        renderer = FrameRenderer(
            width: width, height: height, seed: scene.seed &+ 11, style: scene.style)
        follower = SubjectFollower(
            detector: BlobDetector(scale: scale),
            tracker: try MultiObjectTracker(configuration: tracker),
            selector: SubjectSelector(patience: Int(frameRate.framesPerSecond / 2)))
        self.stride = max(1, stride)
        self.frameRate = max(1, frameRate)
        self.minimumVisibility = minimumVisibility
    }

    /// Runs `duration` of scene, handing each rendered frame to `frameRendered` (to encode it
    /// as a video, say) before it is tracked.
    public mutating func run(duration: Duration, frameRendered: (GrayFrame) -> Void = { _ in })
        -> Result
    {
        let interval = 1 / frameRate.framesPerSecond
        let frameCount = max(1, Int(frameRate.frames(in: duration).rounded()))
        var frame = GrayFrame(width: renderer.width, height: renderer.height)
        var result = Result(
            groundTruth: [], hypotheses: [], detections: [], meanFramingError: 0,
            framedFraction: 0, frames: frameCount, rig: rig)
        var errorSum = 0.0
        var framed = 0
        let width = Double(renderer.width)
        let height = Double(renderer.height)
        for index in 0..<frameCount {
            let number = index + 1
            let pose = rig.pose
            let visible = renderer.render(scene, from: pose, into: &frame)
            frameRendered(frame)
            for person in visible where person.visibility >= minimumVisibility {
                result.groundTruth.append(MOTRecord(frame: number, id: person.id, box: person.box))
            }
            let outcome = follower.process(
                frame, pose: pose, runDetector: index % stride == 0, frameInterval: interval)
            for detection in outcome.detections {
                result.detections.append(
                    MOTRecord(
                        frame: number, id: -1, box: detection.box,
                        confidence: detection.confidence))
            }
            for track in outcome.tracks {
                result.hypotheses.append(
                    MOTRecord(
                        frame: number, id: track.id.rawValue, box: track.box,
                        confidence: track.confidence))
            }
            let error = FramingError.measure(
                framing: outcome.framing, subject: outcome.subjects.first,
                people: visible.map(\.box), width: width, height: height)
            errorSum += error
            if error < 0.1 { framed += 1 }
            rig.drive(
                yawVelocity: outcome.command.yaw, pitchVelocity: outcome.command.pitch,
                for: interval)
            scene.advance(by: .seconds(interval))
        }
        result.meanFramingError = errorSum / Double(frameCount)
        result.framedFraction = Share(fraction: Double(framed) / Double(frameCount))
        result.rig = rig
        return result
    }
}
