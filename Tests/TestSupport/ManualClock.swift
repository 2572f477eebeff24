import Locking
import Pressure
import Units

/// A clock that moves only when told to: ``advance(by:)`` wakes every waiter whose deadline
/// has passed, threads (``wait(until:on:)``) and tasks (``sleep(until:)``) alike. For tests.
public final class ManualClock: ThreadWaitingClock {
    private struct Waiter {
        var deadline: MonotonicInstant
        var waitSet: WaitSet
    }
    private struct State {
        var now: MonotonicInstant
        var waiters: [Int: Waiter] = [:]
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }
    private struct Sleeper {
        var deadline: MonotonicInstant
        var continuation: CheckedContinuation<Void, any Error>
    }
    private let state: LockedState<State>

    /// A clock reading `start` seconds after its origin.
    public init(start: Double = 0) {
        state = LockedState(State(now: MonotonicInstant(secondsSinceOrigin: start)))
    }

    /// The current manual time.
    public var now: MonotonicInstant { state.withLock { $0.now } }

    /// How many threads are waiting on the clock; lets a test wait until a waiter arrived.
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// How many tasks are sleeping on the clock; lets a test wait until a sleeper arrived.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves time forward by `duration` and wakes the waiters now due.
    public func advance(by duration: Duration) {
        let (due, woken) = state.withLock { state in
            state.now = state.now.advanced(by: max(.zero, duration))
            let now = state.now
            let woken = state.sleepers.filter { $0.value.deadline <= now }
            for id in woken.keys { state.sleepers[id] = nil }
            return (
                state.waiters.values.filter { $0.deadline <= now }.map(\.waitSet),
                woken.values.map(\.continuation)
            )
        }
        for waitSet in due { waitSet.nudge() }
        for continuation in woken { continuation.resume() }
    }

    /// Suspends the calling task until the clock is advanced to `deadline`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(until deadline: MonotonicInstant) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let isDue = state.withLock { state in
                    if Task.isCancelled || state.now >= deadline { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if isDue { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
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
