import Files
import Foundation
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
    private let state: LockedState<State>
    private let eventBroadcast = Broadcast<CaptureSessionEvent>()
    private let frameBroadcast = Broadcast<Frame>()

    /// A session for `configuration`, priced by `estimator`; nothing is committed yet.
    ///
    /// `ringCapacity` frames per camera are kept for responsive capture (8 by default, a quarter
    /// second at 30 fps); movie storage is preallocated in `storageDirectory`.
    public init(
        configuration: SessionConfiguration, estimator: HardwareCostEstimator,
        frameSource: any FrameSource = PatternFrameSource(),
        timeline: LaunchTimeline = LaunchTimeline(), ringCapacity: Int = 8,
        storageDirectory: String = NSTemporaryDirectory(),
        clock: any RunClock = ContinuousRunClock()
    ) {
        self.clock = clock
        self.estimator = estimator
        self.timeline = timeline
        self.frameSource = frameSource
        self.ringCapacity = max(ringCapacity, 1)
        self.storageDirectory = storageDirectory
        self.state = LockedState(State(configuration: configuration))
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

    /// Whether the session is started (from ``startRunning()`` until it has stopped).
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
        let available = Int64(clamping: ProcessInfo.processInfo.physicalMemory / 2)
        guard needed <= available else {
            throw ConfigurationError(
                path: "outputs",
                problem:
                    "the outputs' buffers would take \(ByteCount(needed)) of memory; expected at most \(ByteCount(available)) (half of this machine's)"
            )
        }
    }

    // MARK: Running

    /// Starts the committed session on its own task and returns at once; follow progress with
    /// ``events()``. A failure while running is reported as
    /// ``CaptureSessionEvent/runtimeError(_:)`` and stops the session.
    ///
    /// - Throws: ``CaptureSessionError/notCommitted`` or ``CaptureSessionError/alreadyRunning``.
    public func startRunning() throws(CaptureSessionError) {
        try state.withLock { state throws(CaptureSessionError) in
            let prepared = try prepare(&state)
            // This API's contract: a failure is the `runtimeError` event the run sends, and
            // the session stops; nothing is lost by not rethrowing it here.
            state.runTask = Task { [self] in try? await self.run(prepared) }
        }
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

    private func prepare(_ state: inout State) throws(CaptureSessionError) -> PreparedCaptureRun {
        let plan = try state.claim(ringCapacity: ringCapacity)
        return PreparedCaptureRun(
            plan: plan, participants: plan.configuration.cameras.map { _ in clock.enroll() })
    }

    /// Stops the session started with ``startRunning()`` and waits until it has stopped (its
    /// outputs released, ``CaptureSessionEvent/didStopRunning`` sent).
    public func stopRunning() async {
        let task = state.withLock { state in
            if state.phase.isStarted { state.phase = .stopping }
            return state.runTask
        }
        task?.cancel()
        await task?.value
    }

    /// Runs the committed session in the calling task until it is cancelled, then stops
    /// cleanly and returns; the structured alternative to ``startRunning()``.
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

    /// Captures a photo of the moment `instant` (by default now): the newest frame captured at
    /// or before it (within one frame interval), delivered when the photo output is ready.
    ///
    /// Before the photo output is ready this waits (its start is under way: the session is
    /// starting, deferred start is automatic, or it was requested) — the photo still shows the
    /// requested moment as long as the ring holds it; a request older than the ring gets the
    /// oldest frame kept.
    ///
    /// - Throws: ``CaptureSessionError/notRunning``, ``CaptureSessionError/noOutput(_:)``,
    ///   ``CaptureSessionError/deferredStartNotRequested(index:kind:)`` (manual mode, not yet
    ///   requested), or ``CaptureSessionError/stopped`` when the session stops while waiting.
    public func capturePhoto(at instant: MonotonicInstant? = nil) async throws(CaptureSessionError)
        -> CapturedPhoto
    {
        let requestedAt = instant ?? clock.now
        let (index, camera) = try state.withLock { state throws(CaptureSessionError) in
            guard state.phase.isStarted, let committed = state.committed else {
                throw .notRunning
            }
            guard let index = committed.outputs.firstIndex(where: { $0.kind == .photo }) else {
                throw .noOutput(.photo)
            }
            let output = state.outputs[index]
            if !output.isReady && output.isDeferred && !state.automaticallyRunsDeferredStart
                && !state.isDeferredStartRequested
            {
                throw .deferredStartNotRequested(index: index, kind: .photo)
            }
            return (index, committed.cameraID(of: committed.outputs[index]) ?? "")
        }
        let frame = try await frame(of: camera, at: requestedAt)
        try await waitUntilReady(index)
        return CapturedPhoto.process(frame, requestedAt: requestedAt, deliveredAt: clock.now)
    }

    // MARK: Internals

    private func runClaimed(
        _ plan: RunPlan, _ participants: [ClockParticipant],
        onFailure: @escaping @Sendable (any Error) -> Void
    ) async throws {
        timeline.begin(.sessionStart)
        do {
            for index in plan.configuration.outputs.indices where !plan.isDeferred[index] {
                try initializeOutput(index, plan)
            }
        } catch {
            timeline.end(.sessionStart)
            onFailure(error)
            for participant in participants { participant.leave() }
            throw error
        }
        timeline.end(.sessionStart)
        emit(.didStartRunning)
        // A failure is heard where it happens: a camera's before it leaves the clock, so a run
        // on virtual time can end at the failure's instant.
        let failing: @Sendable (any Error) -> Void = { error in
            if !(error is CancellationError) { onFailure(error) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (camera, participant) in zip(plan.configuration.cameras, participants) {
                group.addTask {
                    try await participant.run {
                        do {
                            try await self.frameLoop(camera, plan)
                        } catch {
                            failing(error)
                            throw error
                        }
                    }
                }
            }
            if plan.isDeferred.contains(true) {
                group.addTask {
                    do {
                        try await self.deferredStart(plan)
                    } catch {
                        failing(error)
                        throw error
                    }
                }
            }
            // The first failure cancels the others (waitForAll would wait for them all).
            while try await group.next() != nil {}
        }
    }

    private func initializeOutput(_ index: Int, _ plan: RunPlan) throws {
        let output = plan.configuration.outputs[index]
        let cameraID = plan.configuration.cameraID(of: output)
        guard let camera = plan.configuration.cameras.first(where: { $0.id == cameraID }) else {
            return
        }
        let resources = try timeline.measure(plan.phases[index]) {
            () throws(OutputInitializationError) in
            try OutputResources.initialize(
                output.kind, camera: camera, storageDirectory: storageDirectory)
        }
        state.withLock { state in
            state.outputs[index].resources = resources
            state.outputs[index].isReady = true
            if output.kind == .photo && !state.hasMarkedCaptureReady {
                state.hasMarkedCaptureReady = true
                timeline.mark(.firstCaptureReady)
            }
            emit(.outputReady(index: index, kind: output.kind))
            let waiting = state.readinessWaiters.filter { $0.index == index }
            state.readinessWaiters.removeAll { $0.index == index }
            for waiter in waiting { waiter.continuation.resume() }
        }
    }

    private func deferredStart(_ plan: RunPlan) async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.phase == .running || state.phase == .stopping {
                        continuation.resume()
                    } else {
                        state.deferredTrigger = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                state.phase = .stopping
                state.deferredTrigger?.resume()
                state.deferredTrigger = nil
            }
        }
        try Task.checkCancellation()
        emit(.willRunDeferredStart)
        try timeline.measure(.deferredStart) {
            for index in plan.configuration.outputs.indices where plan.isDeferred[index] {
                try initializeOutput(index, plan)
            }
        }
        emit(.didRunDeferredStart)
    }

    private func frameLoop(_ camera: CameraConfiguration, _ plan: RunPlan) async throws {
        let isPreviewCamera = camera.id == plan.previewCamera
        let previewIndex = plan.configuration.outputs.firstIndex {
            $0.kind == .preview && plan.configuration.cameraID(of: $0) == camera.id
        }
        var preview = previewIndex.flatMap { index in
            state.withLock { $0.outputs[index].resources }
        }.map(PreviewScaler.init)
        let width = camera.format.width
        let height = camera.format.height
        var due = clock.now
        var recycled: [UInt8] = []
        var number = 0
        while true {
            // Read each frame, so a new target frame rate takes effect at the next frame.
            let frameRate =
                state.withLock { $0.frameRateLimit.map { min($0, camera.frameRate) } }
                ?? camera.frameRate
            let interval = max(frameRate, 0.1).frameInterval
            try Task.checkCancellation()
            var frame = Frame(
                camera: camera.id, number: number, width: width, height: height,
                reusing: &recycled)
            // The moment the frame shows: a source that draws a moving scene draws it then.
            frame.timestamp = clock.now
            await frameSource.render(&frame)
            preview?.draw(frame)
            let (evicted, consumer) = deliver(frame, isPreviewCamera: isPreviewCamera)
            if let evicted { recycled = evicted.luma }
            await consumer?(frame)
            number += 1
            if frameSource.isSelfPaced {
                // The source waits for its consumer itself; nothing is late, nothing skipped.
                await Task.yield()
                continue
            }
            // More than a frame late (a slow source, a busy machine): like a sensor, skip the
            // frames whose time has passed instead of delivering a burst of stale ones.
            due = due.advanced(by: interval)
            let late = Int((clock.now.duration(since: due) / interval).rounded(.down))
            if late > 0 {
                state.withLock { $0.droppedFrames += late }
                number += late
                due = due.advanced(by: interval * late)
            }
            try await clock.sleep(until: due)
        }
    }

    /// Puts `frame` into its camera's ring and to the outputs that are ready; returns the frame
    /// the ring evicted (its pixels are reused) and the frame consumer, when a ready video-data
    /// output takes this frame.
    private func deliver(_ frame: Frame, isPreviewCamera: Bool) -> (Frame?, FrameConsumer?) {
        state.withLock { state in
            let evicted = state.rings[frame.camera]?.append(frame)
            var consumer: FrameConsumer?
            let waiting = state.frameWaiters.filter { $0.camera == frame.camera }
            state.frameWaiters.removeAll { $0.camera == frame.camera }
            for waiter in waiting { waiter.continuation.resume(returning: frame) }
            if isPreviewCamera {
                state.previewFrames += 1
                if state.phase == .starting {
                    state.phase = .previewing
                    timeline.mark(.firstPreviewFrame)
                    emit(.firstPreviewFrame(frame: frame.number, camera: frame.camera))
                    if state.automaticallyRunsDeferredStart || state.isDeferredStartRequested {
                        state.releaseDeferredStart()
                    }
                }
            }
            if let plan = state.plan {
                for (index, output) in plan.configuration.outputs.enumerated()
                where state.outputs[index].isReady
                    && plan.configuration.cameraID(of: output) == frame.camera
                {
                    switch output.kind {
                    case .movie: state.encodedMovieFrames += 1
                    case .videoData:
                        frameBroadcast.yield(frame)
                        consumer = state.videoFrameConsumer
                    case .preview, .photo: break
                    }
                }
            }
            return (evicted, consumer)
        }
    }

    private func frame(of camera: String, at instant: MonotonicInstant)
        async throws(CaptureSessionError) -> Frame
    {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if let frame = state.rings[camera]?.frame(at: instant) {
                        continuation.resume(returning: frame)
                    } else if !state.phase.isStarted {
                        continuation.resume(throwing: CaptureSessionError.stopped)
                    } else {
                        state.frameWaiters.append((camera, continuation))
                    }
                }
            }
        } catch {
            throw (error as? CaptureSessionError) ?? .stopped
        }
    }

    private func waitUntilReady(_ index: Int) async throws(CaptureSessionError) {
        do {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if state.outputs[index].isReady {
                        continuation.resume()
                    } else if !state.phase.isStarted {
                        continuation.resume(throwing: CaptureSessionError.stopped)
                    } else {
                        state.readinessWaiters.append((index, continuation))
                    }
                }
            }
        } catch {
            throw (error as? CaptureSessionError) ?? .stopped
        }
    }

    /// Sends `event` to the observers; called under the state lock wherever the event goes
    /// with a state change, so observers see events in the order of the changes.
    private func emit(_ event: CaptureSessionEvent) {
        eventBroadcast.yield(event)
    }

    private func finish(error: (any Error)?) {
        state.withLock { state in
            if let error { emit(.runtimeError(String(describing: error))) }
            for output in state.outputs { output.resources?.release() }
            for waiter in state.frameWaiters {
                waiter.continuation.resume(throwing: CaptureSessionError.stopped)
            }
            for waiter in state.readinessWaiters {
                waiter.continuation.resume(throwing: CaptureSessionError.stopped)
            }
            emit(.didStopRunning)
            state.reset()
        }
        eventBroadcast.finish()
        frameBroadcast.finish()
    }
}

/// One run of a session, claimed and with its cameras on the clock, ready for
/// ``CaptureSession/run(_:onFailure:)``: made by ``CaptureSession/prepareRun()``.
public struct PreparedCaptureRun: Sendable {
    let plan: RunPlan
    let participants: [ClockParticipant]
}

/// What one run of the session works from, fixed when it starts.
struct RunPlan: Sendable {
    var configuration: SessionConfiguration
    /// Whether each output's start is deferred (never a preview's).
    var isDeferred: [Bool]
    /// The phase timing each output's initialization.
    var phases: [LaunchPhase]
    /// The camera whose frames feed the preview (the first preview's, else the first camera).
    var previewCamera: String?

    init(_ configuration: SessionConfiguration) {
        self.configuration = configuration
        isDeferred = configuration.outputs.map { $0.isDeferredStartEnabled && $0.kind != .preview }
        var seen: [OutputKind: Int] = [:]
        phases = configuration.outputs.map { output in
            seen[output.kind, default: 0] += 1
            let count = seen[output.kind]!
            let label = count == 1 ? output.kind.rawValue : "\(output.kind.rawValue).\(count)"
            return LaunchPhase.outputInitialization(named: label)
        }
        let preview = configuration.outputs.first { $0.kind == .preview }
        previewCamera =
            preview.flatMap(configuration.cameraID(of:)) ?? configuration.cameras.first?.id
    }
}

/// The session's mutable state, only touched under its lock.
private struct State: Sendable {
    struct OutputState: Sendable {
        var isDeferred: Bool
        var isReady = false
        var resources: OutputResources?
    }

    var configuration: SessionConfiguration
    var committed: SessionConfiguration?
    var committedEstimate: HardwareCostEstimate?
    var isConfiguring = false
    var automaticallyRunsDeferredStart = true

    /// Where the session is in its life; the only record of it.
    var phase = CaptureSessionPhase.stopped
    var plan: RunPlan?
    var runTask: Task<Void, Never>?
    var outputs: [OutputState] = []
    var rings: [String: FrameRing] = [:]
    /// Whether this run has marked `firstCaptureReady` (the first photo output ready): a mark,
    /// not a phase, since it may come before or after the first preview frame.
    var hasMarkedCaptureReady = false
    /// A request for deferred start in manual mode; it outlives a run that has not started.
    var isDeferredStartRequested = false
    var deferredTrigger: CheckedContinuation<Void, Never>?
    var frameWaiters: [(camera: String, continuation: CheckedContinuation<Frame, any Error>)] = []
    var readinessWaiters: [(index: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var previewFrames = 0
    var encodedMovieFrames = 0
    var droppedFrames = 0
    var frameRateLimit: FrameRate?
    var videoFrameConsumer: CaptureSession.FrameConsumer?

    init(configuration: SessionConfiguration) {
        self.configuration = configuration
    }

    /// Marks the session running with its committed configuration, or says why it cannot run.
    mutating func claim(ringCapacity: Int) throws(CaptureSessionError) -> RunPlan {
        guard let committed else { throw .notCommitted }
        guard !phase.isStarted else { throw .alreadyRunning }
        let plan = RunPlan(committed)
        phase = .starting
        self.plan = plan
        previewFrames = 0
        encodedMovieFrames = 0
        droppedFrames = 0
        outputs = plan.isDeferred.map { OutputState(isDeferred: $0) }
        rings = Dictionary(
            uniqueKeysWithValues: committed.cameras.map {
                ($0.id, FrameRing(capacity: ringCapacity))
            })
        return plan
    }

    /// `previewing` → `running`: lets the deferred outputs start.
    mutating func releaseDeferredStart() {
        phase = .running
        deferredTrigger?.resume()
        deferredTrigger = nil
    }

    /// Back to a stopped session, keeping the configuration.
    mutating func reset() {
        phase = .stopped
        plan = nil
        runTask = nil
        outputs = []
        rings = [:]
        hasMarkedCaptureReady = false
        isDeferredStartRequested = false
        deferredTrigger = nil
        frameWaiters = []
        readinessWaiters = []
    }
}
