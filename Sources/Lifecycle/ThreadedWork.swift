import Locking

/// Work that blocks by nature — a writer's loop over its queue — on a thread of its own, run
/// as a service of a group: ``service`` starts the thread and returns when the work does; the
/// group calls `stop` (which makes the work end: a queue closed) once every other service has
/// returned, so the work takes all they gave it and flushes. ``finish()`` stops it and
/// returns its result — the thread's, or, when the work never ran (a run that failed before
/// its group started), the result of running it now off the cooperative pool.
public final class ThreadedWork<Result: Sendable>: Sendable {
    private let name: String
    private let work: @Sendable () -> Result
    private let stop: @Sendable () -> Void
    private let hasStarted = LockedState(false)
    private let completion = Completion<Result>()

    /// Work named `name` (the service's name); `stop` makes `work` return soon.
    public init(
        _ name: String, work: @escaping @Sendable () -> Result,
        stop: @escaping @Sendable () -> Void
    ) {
        self.name = name
        self.work = work
        self.stop = stop
    }

    /// Starts the work on its thread, unless it has started already.
    public func start() {
        guard
            hasStarted.withLock({ started in
                defer { started = true }
                return !started
            })
        else { return }
        let (work, completion) = (work, completion)
        DetachedThread.start { completion.complete(work()) }
    }

    /// The work as a service that ends nothing (``Service/Ending/runsUntilCancelled``), off
    /// the clock, stopped after the others (``Service/Shutdown/afterOthers(stop:)``).
    public var service: Service {
        Service(
            name, ending: .runsUntilCancelled, isOnClock: false, shutdown: .afterOthers(stop: stop)
        ) { [self] in
            start()
            _ = await completion.value
        }
    }

    /// Stops the work and returns its result once it has returned.
    public func finish() async -> Result {
        stop()
        start()
        return await completion.value
    }

    /// Stops the work and returns its result, blocking the calling thread (never a task's).
    public func finishWaiting() -> Result {
        stop()
        start()
        return completion.wait()
    }
}
