import Locking
import Pressure
import Units

/// A clock that moves only when told to: ``advance(by:)`` wakes every waiter whose deadline
/// has passed, threads (``wait(until:on:)``) and tasks (``sleep(until:)``, a
/// ``ManualRunClock``'s) alike. For tests.
public final class ManualClock: ThreadWaitingClock {
    private struct Waiter {
        var deadline: MonotonicInstant
        var waitSet: WaitSet
    }
    private struct State {
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }
    private let tasks: ManualRunClock
    private let state = LockedState(State())

    /// A clock reading `start` seconds after its origin.
    public init(start: Double = 0) {
        tasks = ManualRunClock(start: MonotonicInstant(secondsSinceOrigin: start))
    }

    /// The current manual time.
    public var now: MonotonicInstant { tasks.now }

    /// How many threads are waiting on the clock; lets a test wait until a waiter arrived.
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// How many tasks are sleeping on the clock; lets a test wait until a sleeper arrived.
    public var sleeperCount: Int { tasks.sleeperCount }

    /// Moves time forward by `duration` and wakes the waiters now due.
    public func advance(by duration: Duration) {
        tasks.advance(by: duration)
        let now = tasks.now
        let due = state.withLock { state in
            state.waiters.values.filter { $0.deadline <= now }.map(\.waitSet)
        }
        for waitSet in due { waitSet.nudge() }
    }

    /// Suspends the calling task until the clock is advanced to `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: MonotonicInstant) async throws {
        try await tasks.sleep(until: deadline)
    }

    /// Every participant is free: the clock moves only when told to.
    public func enroll() -> ClockParticipant { .uncounted(on: self) }

    /// Nothing: the clock already moves only when told to.
    public func halt() {}

    /// Blocks until the clock is advanced to `deadline`, or `waitSet` has an event.
    public func wait(until deadline: MonotonicInstant, on waitSet: WaitSet) -> WaitSet.Event {
        let id: Int = state.withLock { state in
            state.nextID += 1
            state.waiters[state.nextID] = Waiter(deadline: deadline, waitSet: waitSet)
            return state.nextID
        }
        defer { state.withLock { _ = $0.waiters.removeValue(forKey: id) } }
        while true {
            // A nudge between the check and the wait is kept by the eventfd, not lost.
            let isDue = now >= deadline
            if let event = waitSet.wait(timeout: isDue ? 0 : nil) { return event }
            if isDue || now >= deadline { return .deadline }
        }
    }
}
