import Tracking

/// One frame's work of the tracking pipeline: detector (on inference frames), each
/// detection's appearance from the frame's pixels, tracker, primary subject, framing and the
/// pan/tilt command.
public struct SubjectFollower<D: Detector>: Sendable {
    /// What one frame produced.
    public struct Outcome: Sendable {
        /// The confirmed tracks, in pixels.
        public var tracks: [TrackedObject]
        /// The framed subjects (primary first), normalized top-left.
        public var subjects: [TrackedObject]
        /// The framing, if there is a subject.
        public var framing: FramingResult?
        /// The commanded angular velocities, radians per second.
        public var command: (yaw: Double, pitch: Double)
        /// The detections, in pixels; empty when the detector did not run.
        public var detections: [Detection]
    }

    /// The detector.
    public var detector: D
    /// The tracker.
    public var tracker: MultiObjectTracker
    /// The subject selector.
    public var selector: SubjectSelector
    /// The framer.
    public var framer: Framer
    /// The controller.
    public var controller: PanTiltController
    private var previousPose: CameraPose?

    /// Creates a follower.
    public init(
        detector: D, tracker: MultiObjectTracker, selector: SubjectSelector = SubjectSelector(),
        framer: Framer = Framer(), controller: PanTiltController = PanTiltController()
    ) {
        self.detector = detector
        self.tracker = tracker
        self.selector = selector
        self.framer = framer
        self.controller = controller
    }

    /// Processes one frame taken at `pose`.
    ///
    /// - Parameters:
    ///   - frame: the pixels.
    ///   - pose: where the camera pointed when the frame was taken.
    ///   - runDetector: whether this is an inference frame (false: prediction only).
    ///   - frameInterval: seconds since the previous frame, > 0.
    public mutating func process(
        _ frame: GrayFrame, pose: CameraPose, runDetector: Bool, frameInterval: Double
    ) -> Outcome {
        let width = Double(frame.width)
        let height = Double(frame.height)
        if let previousPose {
            let before = pose.imagePoint(yaw: previousPose.yaw, pitch: previousPose.pitch)
            tracker.shiftTracks(dx: (before.x - 0.5) * width, dy: (before.y - 0.5) * height)
        }
        previousPose = pose
        var detections =
            runDetector ? detector.detect(in: frame, expecting: tracker.expectedBoxes) : []
        if let style = detector.appearanceStyle {
            for index in detections.indices where detections[index].appearance == nil {
                detections[index].appearance = AppearanceDescriptor(
                    box: detections[index].box, in: frame, style: style)
            }
        }
        let tracks = runDetector ? tracker.update(with: detections) : tracker.predict()
        let normalized = tracks.map { track -> TrackedObject in
            var copy = track
            copy.box = BoundingBox(
                minX: track.box.minX / width, minY: track.box.minY / height,
                width: track.box.width / width, height: track.box.height / height)
            copy.velocityX = track.velocityX / width
            copy.velocityY = track.velocityY / height
            return copy
        }
        let subjects = selector.select(from: normalized)
        let framing = framer.frame(subjects)
        let velocity =
            subjects.first.map { ($0.velocityX / frameInterval, $0.velocityY / frameInterval) }
            ?? (0, 0)
        let command = controller.command(for: framing, pose: pose, subjectVelocity: velocity)
        return Outcome(
            tracks: tracks, subjects: subjects, framing: framing, command: command,
            detections: detections)
    }
}
