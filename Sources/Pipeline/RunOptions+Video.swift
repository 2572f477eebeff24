import Capture
import Files
import FoundationEssentials
import Governor
import Tracking
import Units

extension RunOptions {
    /// The longest a video runs when no duration is given: until it ends, within a day.
    public static let videoDuration = Duration.seconds(86_400)

    /// Plays `video` (opened by the caller, who passes it in ``RunInputs/video``) instead of
    /// the synthetic scene, scored against `groundTruth`: the run lasts until the video ends
    /// (unless `keepsDuration`), the session's camera takes the video's size and frame rate
    /// (unless `keepsSession`: a session given for it), faster for pacing `max` (4× the
    /// video's rate, 240 at most), and `detector` runs on it (the command line's default:
    /// ``DetectorKind/forVideo(environment:)``) with its own ladder
    /// (``choose(_:keepsPolicy:)``).
    public mutating func useVideo(
        _ video: VideoFrameSource, groundTruth: [MOTRecord], detector: DetectorKind,
        keepsDuration: Bool, keepsSession: Bool, keepsPolicy: Bool
    ) {
        source = .video(input: video.input, pacing: video.pacing, groundTruth: groundTruth)
        if !keepsDuration { duration = Self.videoDuration }
        if !keepsSession {
            let rate = video.pacing == .max ? min(240, video.frameRate * 4) : video.frameRate
            configuration.cameras[0].format = CameraFormat(
                width: video.header.width, height: video.header.height,
                maxFrameRate: FrameRate(
                    framesPerSecond: (rate.framesPerSecond * 1000).rounded(.up) / 1000))
        }
        choose(detector, keepsPolicy: keepsPolicy)
    }

    /// The video the options play, opened afresh (for each run: `--compare` plays it twice);
    /// nil for the scene.
    ///
    /// - Throws: ``ConfigurationError`` when the video cannot be opened.
    public func openVideo() throws(ConfigurationError) -> VideoFrameSource? {
        guard case .video(let input, let pacing, _) = source else { return nil }
        return try VideoFrameSource(input: input, pacing: pacing)
    }

    /// Runs `detector`. On real video a detector other than the scene's blob detector walks
    /// its own inference ladder (unless `keepsPolicy`: a policy given for it), with the quality
    /// measured at its rungs on real footage instead of the standard quality table, which was
    /// measured on the rendered scene with the blob detector and says nothing of a real
    /// detector on real footage.
    public mutating func choose(_ detector: DetectorKind, keepsPolicy: Bool) {
        self.detector = detector
        guard playsVideo, detector != .blob else { return }
        qualityTable = QualityTable(rows: [])
        rungQuality = detector.rungQuality
        if !keepsPolicy { policy.inferenceLadder = detector.inferenceLadder }
    }

    /// Records the frames the pipeline sees: adds a movie output through the pro video
    /// storage reserve when the session has none.
    public mutating func addMovieOutput() {
        guard !configuration.outputs.contains(where: { $0.kind == .movie }) else { return }
        configuration.outputs.append(CaptureOutput(kind: .movie, usesProVideoStorage: true))
    }
}
