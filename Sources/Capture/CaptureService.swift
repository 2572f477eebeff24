import Locking

/// Capture as a service: the capture session runs in its group (in this service's task, never
/// on a task of its own), stops when asked (the governor stopping capture) and runs again when
/// started (capture resumed). A session that fails — an output that cannot be initialized, a
/// camera that stops — fails the service, so the group (a run) ends and reports why.
/// ``whileRunning(_:)`` is the same driver for capture that lasts as long as some work does
/// (calibration, `launch measure`).
///
/// ``start()`` claims the session and puts its cameras on the run's clock in its caller's
/// step (so a virtual clock does not move past the start), and the service runs what it
/// claimed; ``requestStop()`` asks it to stop, ``untilStopped()`` waits until it has.
public final class CaptureService: Sendable {
    /// The session the service runs.
    public let session: CaptureSession
    private let control = LockedState(Control())

    /// What the service and the governor share.
    private struct Control {
        /// A run claimed by ``start()`` and not yet taken by the service.
        var pending: PreparedCaptureRun?
        /// Whether a session runs now.
        var isRunning = false
        /// Whether the running session is asked to stop.
        var isStopRequested = false
        /// Whether the service has ended: a later start is not run, a later stop waits for
        /// nothing.
        var hasEnded = false
        /// The service, waiting for a start (between runs) or a stop (during one).
        var waiter: CheckedContinuation<Void, Never>?
        /// Callers of ``stop()`` waiting for the session to stop.
        var stopWaiters: [CheckedContinuation<Void, Never>] = []

        /// Wakes the service, if it waits.
        mutating func wake() {
            waiter?.resume()
            waiter = nil
        }
    }

    /// A service for `session`, which must be committed.
    public init(session: CaptureSession) {
        self.session = session
    }

    /// Starts capture: claims the session and puts its cameras on the clock now; the service
    /// runs it.
    ///
    /// - Throws: ``CaptureSessionError/alreadyRunning`` when capture runs,
    ///   ``CaptureSessionError/notCommitted``, or ``CaptureSessionError/stopped`` when the
    ///   service has ended (the run is over: nothing will run it).
    public func start() throws(CaptureSessionError) {
        let prepared = try session.prepareRun()
        let isTaken = control.withLock { control in
            guard !control.hasEnded else { return false }
            control.pending = prepared
            control.wake()
            return true
        }
        guard isTaken else {
            session.abandon(prepared)
            throw .stopped
        }
    }

    /// Asks capture to stop and returns at once (a start not yet run is taken back);
    /// ``untilStopped()`` waits for the session to stop. Quick and never blocking: the
    /// governor calls it on the pressure observer's thread.
    public func requestStop() {
        let abandoned = control.withLock { control -> PreparedCaptureRun? in
            let pending = control.pending
            control.pending = nil
            if control.isRunning {
                control.isStopRequested = true
                control.wake()
            }
            return pending
        }
        if let abandoned { session.abandon(abandoned) }
    }

    /// Whether capture is stopped: no session runs and no start waits to be run.
    public var isStopped: Bool { control.withLock { !$0.isRunning && $0.pending == nil } }

    /// Returns once the stop asked for has happened (at once when none is pending).
    public func untilStopped() async {
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            let isPending = control.withLock { control in
                guard control.isRunning, control.isStopRequested else { return false }
                control.stopWaiters.append(stopped)
                return true
            }
            if !isPending { stopped.resume() }
        }
    }

    /// Stops capture and returns once the session has stopped (at once when it does not run).
    public func stop() async {
        requestStop()
        await untilStopped()
    }

    /// Runs each session ``start()`` hands over until ``stop()`` or cancellation; returns when
    /// cancelled.
    ///
    /// - Throws: What stopped a session (an ``OutputInitializationError``, say): the run ends.
    public func run() async throws {
        defer { end() }
        while let prepared = await nextRun() {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // A failure ends the run at its instant: nothing happens after it.
                    try await self.session.run(prepared) { _ in self.session.clock.halt() }
                }
                group.addTask { await self.waitForStop() }
                // The first to return: the session (failed, or cancelled with the run) or a
                // stop; either way the other is done with.
                defer { group.cancelAll() }
                try await group.next()
            }
            finishRun()
        }
    }

    /// Starts capture and runs the service in a child task while `body` runs in the caller's,
    /// then stops capture and returns once the session has stopped: capture for as long as
    /// some work lasts, structured (no task outlives the call).
    ///
    /// - Throws: What `body` throws; else what stopped the session while `body` ran (an
    ///   ``OutputInitializationError``, say — `body` sees it first as the session's
    ///   ``CaptureSessionEvent/runtimeError(_:)``); ``CaptureSessionError`` when capture
    ///   cannot start.
    public func whileRunning<Result>(_ body: () async throws -> Result) async throws -> Result {
        try start()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.run() }
            let result: Result
            do {
                result = try await body()
            } catch {
                group.cancelAll()
                while (try? await group.next()) != nil {}
                throw error
            }
            group.cancelAll()
            try await group.waitForAll()
            return result
        }
    }

    /// The next run handed over, or nil when the service is cancelled.
    private func nextRun() async -> PreparedCaptureRun? {
        while !Task.isCancelled {
            let taken = control.withLock { control -> PreparedCaptureRun? in
                guard let pending = control.pending else { return nil }
                control.pending = nil
                control.isRunning = true
                control.isStopRequested = false
                return pending
            }
            if let taken { return taken }
            guard await wait(until: { $0.pending != nil }) else { return nil }
        }
        // Cancelled: a run handed over is given back by `end()`, never initialized.
        return nil
    }

    /// Returns when a stop is asked or the service is cancelled.
    private func waitForStop() async {
        _ = await wait(until: \.isStopRequested)
    }

    /// Waits until `isMet` holds: true, or false when the task is cancelled first. A wake-up
    /// whose condition no longer holds (a start taken back by a stop) waits again.
    private func wait(until isMet: @Sendable (Control) -> Bool) async -> Bool {
        while !Task.isCancelled {
            if control.withLock({ isMet($0) }) { return true }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (woken: CheckedContinuation<Void, Never>) in
                    // Cancellation is marked before its handler runs, and the handler takes the
                    // lock: checked under it, no wake-up is lost.
                    control.withLock { control in
                        if Task.isCancelled || isMet(control) {
                            woken.resume()
                        } else {
                            control.waiter = woken
                        }
                    }
                }
            } onCancel: {
                control.withLock { $0.wake() }
            }
        }
        return false
    }

    /// A session has stopped: those waiting for it go on.
    private func finishRun() {
        let waiters = control.withLock { control in
            control.isRunning = false
            control.isStopRequested = false
            defer { control.stopWaiters = [] }
            return control.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The service ends: a run handed over and not taken takes its cameras off the clock.
    private func end() {
        let (pending, waiters) = control.withLock { control in
            control.hasEnded = true
            control.isRunning = false
            defer {
                control.pending = nil
                control.stopWaiters = []
            }
            return (control.pending, control.stopWaiters)
        }
        if let pending { session.abandon(pending) }
        for waiter in waiters { waiter.resume() }
    }
}
