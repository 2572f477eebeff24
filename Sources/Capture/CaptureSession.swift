import Files
import LaunchTiming
import Locking
import Storage
import Units

/// A capture session: configured between ``beginConfiguration()`` and
/// ``commitConfiguration()`` (committed only when the hardware can run it), then started: its
/// outputs are initialized, a frame source feeds one frame loop per camera, and the first
/// frame reaches the preview.
///
/// **Deferred start.** Outputs with `isDeferredStartEnabled` (photo, movie, video data; a
/// preview is never deferred, the first frame needs it) are initialized only after the first
/// preview frame: automatically soon after it when ``automaticallyRunsDeferredStart`` is on
/// (the default), or after ``runDeferredStartWhenNeeded()`` in manual mode. Observers see
/// ``CaptureSessionEvent/willRunDeferredStart`` and ``CaptureSessionEvent/didRunDeferredStart``
/// around it. Using a deferred output before it is ready *waits* for it when its start is on
/// the way (automatic mode, or requested), and *fails* with
/// ``CaptureSessionError/deferredStartNotRequested(index:kind:)`` in manual mode before the
/// request.
///
/// **Responsive capture.** Each camera keeps a ring of its recent frames; ``capturePhoto(at:)``
/// takes the frame of the moment it was requested and delivers it once the photo output is
/// ready, so a photo requested during the deferred start shows that moment, not a later one.
///
/// Every launch phase is marked on ``timeline``. The session is thread-safe: its state sits
/// behind one lock, and frames are produced on its own tasks, never on the caller's thread.
public final class CaptureSession: Sendable {
    /// Prices configurations before they are committed.
    public let estimator: HardwareCostEstimator
    /// Where the session marks its launch phases.
    public let timeline: LaunchTimeline
    /// What draws the frames.
    public let frameSource: any FrameSource
    /// How many recent frames each camera keeps for responsive capture (at least 1).
    public let ringCapacity: Int
    /// Where a movie output preallocates its storage.
    public let storageDirectory: String

    /// The clock the session's frames are paced and stamped on.
    public let clock: any RunClock
    let state: LockedState<CaptureSessionState>
    let eventBroadcast = Broadcast<CaptureSessionEvent>()
    let frameBroadcast = Broadcast<Frame>()

    /// A session for `configuration`, priced by `estimator`; nothing is committed yet.
    ///
    /// `ringCapacity` frames per camera are kept for responsive capture (8 by default, a quarter
    /// second at 30 fps); movie storage is preallocated in `storageDirectory`.
    public init(
        configuration: SessionConfiguration, estimator: HardwareCostEstimator,
        frameSource: any FrameSource = PatternFrameSource(),
        timeline: LaunchTimeline = LaunchTimeline(), ringCapacity: Int = 8,
        storageDirectory: String = FileSystem.temporaryDirectory,
        clock: any RunClock
    ) {
        self.clock = clock
        self.estimator = estimator
        self.timeline = timeline
        self.frameSource = frameSource
        self.ringCapacity = max(ringCapacity, 1)
        self.storageDirectory = storageDirectory
        self.state = LockedState(CaptureSessionState(configuration: configuration))
    }

    // MARK: Configuration

    /// The configuration being edited; it takes effect at the next commit.
    public var configuration: SessionConfiguration {
        get { state.withLock { $0.configuration } }
        set { state.withLock { $0.configuration = newValue } }
    }

    /// The estimate of the last committed configuration; `nil` before the first commit.
    public var committedEstimate: HardwareCostEstimate? { state.withLock { $0.committedEstimate } }

    /// The configuration the session runs; `nil` before the first commit.
    public var committedConfiguration: SessionConfiguration? {
        state.withLock { $0.committed }
    }

    /// Whether a configuration block is open.
    public var isConfiguring: Bool { state.withLock { $0.isConfiguring } }

    /// Whether the session is started (from a run's start until it has stopped).
    public var isRunning: Bool { state.withLock { $0.phase.isStarted } }

    /// Where the session is in its life.
    public var phase: CaptureSessionPhase { state.withLock { $0.phase } }

    /// Whether deferred outputs start by themselves soon after the first preview frame (the
    /// default); off, they wait for ``runDeferredStartWhenNeeded()``. Read when the first
    /// preview frame arrives.
    public var automaticallyRunsDeferredStart: Bool {
        get { state.withLock { $0.automaticallyRunsDeferredStart } }
        set { state.withLock { $0.automaticallyRunsDeferredStart = newValue } }
    }

    /// Opens a configuration block (the `sessionConfiguration` phase begins); changes to
    /// ``configuration`` take effect at commit.
    public func beginConfiguration() {
        state.withLock { $0.isConfiguring = true }
        timeline.begin(.sessionConfiguration)
    }

    /// Validates and prices the configuration and commits it (the `sessionConfiguration` phase
    /// ends).
    ///
    /// - Throws: ``ConfigurationError`` for an invalid configuration, ``SessionOverBudgetError``
    ///   (carrying the estimate) when its hardware cost is over 1, or
    ///   ``CaptureSessionError/alreadyRunning`` while the session runs; in every case the
    ///   previously committed configuration stays in force.
    @discardableResult
    public func commitConfiguration() throws -> HardwareCostEstimate {
        defer {
            state.withLock { $0.isConfiguring = false }
            timeline.end(.sessionConfiguration)
        }
        let configuration = state.withLock { $0.configuration }
        try configuration.validate()
        let estimate = estimator.cost(of: configuration)
        guard estimate.fits else { throw SessionOverBudgetError(estimate: estimate) }
        try Self.checkMemory(of: configuration)
        try state.withLock { state throws(CaptureSessionError) in
            guard !state.phase.isStarted else { throw .alreadyRunning }
            state.committed = configuration
            state.committedEstimate = estimate
        }
        return estimate
    }

    /// Refuses a session whose outputs' buffers would take more than half of this machine's
    /// memory: a 16384² camera at 0.1 fps fits any pixel budget, and its pools alone would
    /// take gigabytes before the first frame.
    static func checkMemory(of configuration: SessionConfiguration) throws(ConfigurationError) {
        let needed = OutputResources.memoryNeeded(by: configuration)
        let available = Int64(clamping: ProcessFacts.physicalMemory / 2)
        guard needed <= available else {
            throw ConfigurationError(
                path: "outputs",
                problem:
                    "the outputs' buffers would take \(ByteCount(needed)) of memory; expected at most \(ByteCount(available)) (half of this machine's)"
            )
        }
    }

    // MARK: Running

    /// Runs the committed session while `body` runs, then stops it and returns once it has
    /// stopped (its outputs released, ``CaptureSessionEvent/didStopRunning`` sent); follow
    /// progress with ``events()``. A ``CaptureService`` drives it.
    ///
    /// - Throws: What `body` throws; ``CaptureSessionError/notCommitted`` or
    ///   ``CaptureSessionError/alreadyRunning``; or what stopped the session while `body` ran.
    public func whileRunning<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await CaptureService(session: self).whileRunning(body)
    }

    /// Claims the committed session for one run and enrolls its cameras on the clock, before
    /// it returns (a virtual clock does not move past the start while their loops are on
    /// their way); ``run(_:onFailure:)`` then runs it in the caller's task. The structured way to start:
    /// a service that owns capture prepares in its caller's step and runs in its own task.
    ///
    /// - Throws: ``CaptureSessionError/notCommitted`` or ``CaptureSessionError/alreadyRunning``.
    public func prepareRun() throws(CaptureSessionError) -> PreparedCaptureRun {
        try state.withLock { state throws(CaptureSessionError) in try prepare(&state) }
    }

    /// Runs a run made by ``prepareRun()`` in the calling task until it is cancelled, then
    /// stops cleanly and returns. `onFailure` hears of a failure before the cameras leave the
    /// clock (so a run on virtual time can end at the instant of the failure).
    ///
    /// - Throws: ``OutputInitializationError`` when an output cannot be initialized, or what
    ///   else stopped the cameras (the session has then stopped, and sent
    ///   ``CaptureSessionEvent/runtimeError(_:)``).
    public func run(
        _ prepared: PreparedCaptureRun,
        onFailure: @escaping @Sendable (any Error) -> Void = { _ in }
    ) async throws {
        do {
            try await runClaimed(prepared.plan, prepared.participants, onFailure: onFailure)
            finish(error: nil)
        } catch is CancellationError {
            finish(error: nil)
        } catch {
            finish(error: error)
            throw error
        }
    }

    /// Gives back a run made by ``prepareRun()`` that will not run: its cameras leave the
    /// clock and the session is stopped again.
    public func abandon(_ prepared: PreparedCaptureRun) {
        for participant in prepared.participants { participant.leave() }
        finish(error: nil)
    }

    private func prepare(_ state: inout CaptureSessionState) throws(CaptureSessionError)
        -> PreparedCaptureRun
    {
        let plan = try state.claim(ringCapacity: ringCapacity)
        return PreparedCaptureRun(
            plan: plan, participants: plan.configuration.cameras.map { _ in clock.enroll() })
    }

    /// Runs the committed session in the calling task until it is cancelled, then stops
    /// cleanly and returns.
    ///
    /// - Throws: ``CaptureSessionError`` when the session is not committed or already runs;
    ///   ``OutputInitializationError`` when an output cannot be initialized (the session has
    ///   then stopped).
    public func run() async throws {
        try await run(prepareRun())
    }

    /// Lets deferred outputs start in manual mode: right away when the first preview frame has
    /// already been delivered, otherwise right after it. A request made before the session
    /// starts applies to its next run; stopping clears it. Harmless in automatic mode.
    public func runDeferredStartWhenNeeded() {
        state.withLock { state in
            state.isDeferredStartRequested = true
            if state.phase == .previewing { state.releaseDeferredStart() }
        }
    }

    /// Whether the output at `index` of the committed configuration is initialized.
    public func isOutputReady(at index: Int) -> Bool {
        state.withLock { $0.outputs.indices.contains(index) && $0.outputs[index].isReady }
    }

    /// Frames the movie outputs have encoded in the current (or last) run since they became ready.
    public var encodedMovieFrameCount: Int { state.withLock { $0.encodedMovieFrames } }

    /// Frames skipped in the current (or last) run because their time passed before they could
    /// be produced (their numbers are missing from the stream).
    public var droppedFrameCount: Int { state.withLock { $0.droppedFrames } }

    /// Caps every camera's frame rate at `frameRate` frames per second (`nil`: as committed),
    /// from the next frame on, without a new commit: how a governor lowers the frame rate of a
    /// running session, like a frame-rate override. A cap above a camera's committed rate has
    /// no effect on it. Persists across stop and start.
    public func limitFrameRate(to frameRate: FrameRate?) {
        state.withLock { $0.frameRateLimit = frameRate.map { max($0, 0.1) } }
    }

    /// The frame-rate cap in force, `nil` when none.
    public var frameRateLimit: FrameRate? { state.withLock { $0.frameRateLimit } }

    /// Frames delivered to the preview in the current (or last) run.
    public var previewFrameCount: Int { state.withLock { $0.previewFrames } }

    /// The session's events from now on, in order; the stream ends when the session stops.
    public func events() -> AsyncStream<CaptureSessionEvent> {
        eventBroadcast.subscribe()
    }

    /// A function every frame of the video-data outputs goes through once they are ready,
    /// called in the camera's frame loop before the next frame is made: a consumer slower than
    /// the frame rate makes the session skip the frames whose time passed (counted in
    /// ``droppedFrameCount``), as a camera does. Unlike ``videoFrames(bufferLimit:)`` it keeps
    /// a run on a virtual clock in step (no frame waits in a buffer while time moves on).
    /// Persists across stop and start; `nil` removes it.
    public func consumeVideoFrames(with consumer: FrameConsumer?) {
        state.withLock { $0.videoFrameConsumer = consumer }
    }

    /// What ``consumeVideoFrames(with:)`` takes.
    public typealias FrameConsumer = @Sendable (Frame) async -> Void

    /// The frames of the video-data outputs once they are ready; a slow reader gets the newest
    /// `bufferLimit` frames. The stream ends when the session stops.
    public func videoFrames(bufferLimit: Int = 4) -> AsyncStream<Frame> {
        frameBroadcast.subscribe(bufferingPolicy: .bufferingNewest(max(bufferLimit, 1)))
    }
}
