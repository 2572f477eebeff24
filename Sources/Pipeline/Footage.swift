import Capture
import Tracking

/// Where a run's pixels come from and what is known about them: the synthetic scene (drawn
/// from the stand's pose, with its ground truth), or a real video (which the stand cannot
/// turn, with ground truth when a file gives it).
enum Footage: Sendable {
    /// The rendered scene.
    case scene(SceneFrameSource)
    /// A video, and its ground truth by MOTChallenge frame number (1 = the video's first).
    case video(VideoFrameSource, truth: [Int: [MOTRecord]])

    /// A video with ground-truth `records` (MOTChallenge, numbered by video frame).
    static func video(_ source: VideoFrameSource, groundTruth records: [MOTRecord]) -> Footage {
        .video(source, truth: Dictionary(grouping: records, by: \.frame))
    }

    /// What the capture session draws its frames with.
    var frameSource: any FrameSource {
        switch self {
        case .scene(let source): source
        case .video(let source, _): source
        }
    }

    /// The pose the tracker is told a frame was taken from: the stand's for the scene, whose
    /// pixels follow the stand, so a pan is not mistaken for motion; a fixed one for a video,
    /// whose pixels do not move when the simulated stand does.
    func trackerPose(stand: CameraPose) -> CameraPose {
        switch self {
        case .scene: stand
        case .video: CameraPose()
        }
    }

    /// Points the scene's camera where the stand now looks (a video ignores it).
    func pointCamera(at pose: CameraPose) {
        if case .scene(let source) = self { source.setPose(pose) }
    }

    /// The people in `frame` (frame `run` of the capture session's restarts), if known.
    func groundTruth(for frame: Frame, run: Int) -> [MOTRecord]? {
        switch self {
        case .scene(let source):
            return source.groundTruth(run: run, number: frame.number)
        case .video(_, let truth):
            guard !truth.isEmpty, let index = frame.sourceIndex else { return nil }
            return truth[index + 1] ?? []
        }
    }

    /// Tells a video played as fast as the pipeline goes that a frame is done with.
    func frameConsumed(_ frame: Frame) {
        if case .video(let source, _) = self, let index = frame.sourceIndex {
            source.frameConsumed(index: index)
        }
    }
}
