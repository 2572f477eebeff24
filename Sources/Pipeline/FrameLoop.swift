import Capture
import Dock
import Governor
import LaunchTiming
import Locking
import Telemetry
import Tracking
import Units

/// The frame loop's work, called by the capture session for every frame of the tracked camera
/// (``CaptureSession/consumeVideoFrames(with:)``): the frame through the tracking stage, the
/// recorder and the annotator, the command to the stand, the counts of the progress period,
/// and the pipeline's lateness, which it tells the governor itself (``LatenessWindow``).
/// Frames come one at a time, in the camera's frame loop, so the stage is this loop's
/// alone; its lock is held only by it while frames flow, and by the summary after.
final class FrameLoop: Sendable {
    /// Seconds of footage between refreshes of the live recent-identity figure.
    static let recentIdentityPeriod = 2.0

    private struct Position {
        /// The last video frame seen (a video's position runs on across capture restarts).
        var lastSourceIndex: Int?
        /// The capture session's runs seen (restarts after a stop for pressure).
        var captureRun = -1
        /// When (footage seconds) the live recent-identity figure is next refreshed.
        var recentRefresh = FrameLoop.recentIdentityPeriod
        /// The frames of the current lateness window.
        var lateness = LatenessWindow()
    }

    private let stage: LockedState<(stage: TrackingStage, position: Position)>
    private let state: LockedState<RunState>
    /// The settings the loop works at: the frame rate its lateness is judged by, and the
    /// inference it hands the stage. Set by ``apply(_:)``, read at each frame.
    private let knobs: LockedState<PipelineSettings>
    /// The pipeline the loop tells its lateness; nil when the run does not shed for it.
    private let latenessReceiver: GovernedPipeline?
    private let footage: Footage
    private let stand: SimulatedStand
    private let clock: any RunClock
    private let recorder: MovieRecorder?
    private let annotator: AnnotationWriter?
    private let metrics: HeadroomMetrics
    private let videoFrameRate: FrameRate?
    private let trackedFrameRate: FrameRate

    /// A loop feeding `stage` with the frames of `footage`, at `settings` until told others
    /// (``apply(_:)``), telling `latenessReceiver` (when given) its lateness.
    init(
        stage: TrackingStage, state: LockedState<RunState>, settings: PipelineSettings,
        latenessReceiver: GovernedPipeline?, footage: Footage,
        stand: SimulatedStand, clock: any RunClock, recorder: MovieRecorder?,
        annotator: AnnotationWriter?, metrics: HeadroomMetrics, videoFrameRate: FrameRate?,
        trackedFrameRate: FrameRate
    ) {
        self.stage = LockedState((stage, Position()))
        self.state = state
        knobs = LockedState(settings)
        self.latenessReceiver = latenessReceiver
        self.footage = footage
        self.stand = stand
        self.clock = clock
        self.recorder = recorder
        self.annotator = annotator
        self.metrics = metrics
        self.videoFrameRate = videoFrameRate
        self.trackedFrameRate = trackedFrameRate
    }

    /// Works at `settings` from the next frame on (the governor's change, pushed by the run's
    /// governance with the session's frame rate); never waits for the frame in progress.
    func apply(_ settings: PipelineSettings) {
        knobs.withLock { $0 = settings }
    }

    /// The tracking stage as it stands (after the run: what it tracked).
    var trackingStage: TrackingStage { stage.withLock { $0.stage } }

    /// Takes one frame through the pipeline.
    func consume(_ frame: Frame) async {
        // A video frame seen already (the video has ended, or the session outpaces it) is no
        // new picture: skip it. Video frames never seen were dropped.
        if case .video = footage, frame.sourceIndex == nil {
            // No video frame yet (or a video without any): no picture to process.
            return
        }
        let isNew: (skipped: Int?, interval: Double?, run: Int)? = stage.withLock { owned in
            if frame.number == 0 { owned.position.captureRun += 1 }
            guard let index = frame.sourceIndex else {
                return (nil, nil, owned.position.captureRun)
            }
            if let last = owned.position.lastSourceIndex, index <= last { return nil }
            let skipped = index - (owned.position.lastSourceIndex.map { $0 + 1 } ?? 0)
            // Between two video frames, the video's own time passed (whatever the pace): the
            // tracker's motion and the identities per minute are in video time.
            let interval = owned.position.lastSourceIndex.flatMap { last in
                videoFrameRate.map { Double(index - last) / $0.framesPerSecond }
            }
            owned.position.lastSourceIndex = index
            return (skipped, interval, owned.position.captureRun)
        }
        guard let isNew else {
            footage.frameConsumed(frame)
            return
        }
        recorder?.record(frame)
        let cameraPose = footage.trackerPose(stand: await stand.motors.pose)
        let people = footage.groundTruth(for: frame, run: isNew.run)
        let inForce = knobs.withLock { $0 }
        let (interval, dropped) = state.withLock { state in
            let interval =
                isNew.interval
                ?? state.lastFrameTime.map { frame.timestamp.seconds(since: $0) }
                ?? 1 / trackedFrameRate.framesPerSecond
            // Numbers the pipeline never saw were skipped by the camera or by us.
            if frame.number == 0 { state.lastFrameNumber = nil }
            let dropped =
                isNew.skipped ?? frame.number - (state.lastFrameNumber.map { $0 + 1 } ?? 0)
            state.framesDropped += dropped
            state.lastFrameNumber = frame.number
            state.lastFrameTime = frame.timestamp
            return (interval, dropped)
        }
        let inference = inForce.inference
        let (step, counts, recent) = stage.withLock { owned in
            if inference != owned.stage.inference { owned.stage.apply(inference) }
            let step = owned.stage.process(
                frame, pose: cameraPose, interval: interval, people: people)
            var recent: (idf1: Double, hota: Double, seconds: Double)?
            if owned.stage.seconds >= owned.position.recentRefresh {
                owned.position.recentRefresh = owned.stage.seconds + Self.recentIdentityPeriod
                recent = owned.stage.recentIdentity()
            }
            return (step, (owned.stage.framesProcessed, owned.stage.detectorCalls), recent)
        }
        footage.frameConsumed(frame)
        annotator?.offer(
            frame.luma, chroma: frame.chroma,
            annotation: FrameAnnotation(
                tracks: step.outcome.tracks, primary: step.outcome.subjects.first,
                framing: step.outcome.framing))
        state.withLock { state in
            state.subjects = step.outcome.subjects.count
            state.periodFrames += 1
            state.periodFramingError += step.framingError
            (state.framesProcessed, state.detectorCalls) = counts
            if let recent { state.recentIDF1 = recent.idf1 }
        }
        if let recent { metrics.publishTrackingQuality(idf1: recent.idf1, hota: recent.hota) }
        do {
            try await stand.setAngularVelocity(
                yaw: step.outcome.command.yaw, pitch: step.outcome.command.pitch)
        } catch {
            // The stand keeps its last command; the report says how often and why.
            state.withLock { $0.refusedMotorCommands.record(error) }
        }
        footage.pointCamera(at: await stand.motors.pose)
        // Late: the next frame was due before this one was done with.
        let now = clock.now
        let isLate = now.duration(since: frame.timestamp) > max(inForce.frameRate, 1).frameInterval
        let closed = stage.withLock { owned in
            owned.position.lateness.count(isLate: isLate, dropped: max(dropped, 0), at: now)
        }
        if let closed, let latenessReceiver { latenessReceiver.reportLateness(closed) }
    }
}
