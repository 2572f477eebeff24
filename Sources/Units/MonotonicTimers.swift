import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Deadlines on `CLOCK_MONOTONIC` kept by one thread of Headroom's own (`headroom-timers`,
/// started at the first deadline): ``ContinuousRunClock``'s sleeps, and the delayed jobs of a
/// process that runs its tasks on its own threads (`TaskThreads` in Lifecycle).
///
/// `Task.sleep` waits on libdispatch's timers, and while any of them is pending,
/// libdispatch's manager thread wakes every second to look at it (measured: a task asleep for
/// 15 s wakes the process 15 times). `headroom serve` sleeps that way for its event streams'
/// keep-alives (15 s), its MQTT heartbeat and systemd's watchdog. Here the thread waits on a
/// condition until the earliest deadline, and a deadline costs one wake, when it comes.
public final class MonotonicTimers: @unchecked Sendable {
    // Unchecked: `timers` and `isThreadStarted` are only touched with `condition` locked.
    /// The timers of the process.
    public static let shared = MonotonicTimers()

    private let condition = ConditionLock()
    /// The timers set, earliest deadline first (in the order they were set at equal deadlines).
    private var timers: [Timer] = []
    private var isThreadStarted = false

    private init() {}

    /// One deadline and what it does: resume a sleeping task, or run an action. Shared by a
    /// sleeping task and its cancellation handler; touched only with `condition` locked.
    private final class Timer: @unchecked Sendable {
        enum Waiting {
            case task(CheckedContinuation<Void, any Error>)
            case action(@Sendable () -> Void)
        }
        let deadline: MonotonicInstant
        var waiting: Waiting?
        var isCancelled = false

        init(deadline: MonotonicInstant) { self.deadline = deadline }

        /// What the timer does at its deadline (and no more after).
        func fire() -> (@Sendable () -> Void)? {
            defer { waiting = nil }
            switch waiting {
            case .task(let continuation): return { continuation.resume() }
            case .action(let action): return action
            case nil: return nil
            }
        }
    }

    /// Suspends the calling task until `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled, before or while it waits.
    public func sleep(until deadline: MonotonicInstant) async throws {
        let timer = Timer(deadline: deadline)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                set(timer, .task(continuation))
            }
        } onCancel: {
            cancel(timer)
        }
    }

    /// Runs `action` on the timer thread at `deadline` (at once when it has passed): it must
    /// be short, and block nothing.
    public func run(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) {
        set(Timer(deadline: deadline), .action(action))
    }

    /// Files `timer` by its deadline (or ends a cancelled sleep at once), and wakes the thread
    /// when its deadline is the earliest.
    private func set(_ timer: Timer, _ waiting: Timer.Waiting) {
        condition.lock()
        if timer.isCancelled, case .task(let continuation) = waiting {
            condition.unlock()
            return continuation.resume(throwing: CancellationError())
        }
        timer.waiting = waiting
        let index = timers.firstIndex { $0.deadline > timer.deadline } ?? timers.endIndex
        timers.insert(timer, at: index)
        if !isThreadStarted {
            isThreadStarted = true
            DetachedThread.start(name: "headroom-timers") { [self] in fireUntilExit() }
        } else if index == 0 {
            condition.signal()
        }
        condition.unlock()
    }

    /// Ends `timer`'s sleep with `CancellationError`: at once when it waits, or as soon as it
    /// would.
    private func cancel(_ timer: Timer) {
        condition.lock()
        timer.isCancelled = true
        guard case .task(let continuation) = timer.waiting else { return condition.unlock() }
        timer.waiting = nil
        timers.removeAll { $0 === timer }
        condition.unlock()
        continuation.resume(throwing: CancellationError())
    }

    /// The thread's loop: waits until the earliest deadline (or a new earlier one), then fires
    /// every timer due. It lasts as long as the process.
    private func fireUntilExit() {
        condition.lock()
        while true {
            guard let earliest = timers.first?.deadline else {
                condition.wait()
                continue
            }
            let now = MonotonicClock.now()
            guard earliest <= now else {
                condition.wait(until: earliest.timespec)
                continue
            }
            let dueCount = timers.firstIndex { $0.deadline > now } ?? timers.endIndex
            let due = timers[..<dueCount].compactMap { $0.fire() }
            timers.removeFirst(dueCount)
            condition.unlock()
            for fire in due { fire() }
            condition.lock()
        }
    }
}

extension MonotonicInstant {
    /// The instant as a `timespec` on `CLOCK_MONOTONIC`.
    var timespec: Glibc.timespec {
        Glibc.timespec(
            tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
