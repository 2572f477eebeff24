import Locking
import Pressure
import Units

/// A clock that moves only when told to: ``advance(by:)`` wakes every waiter whose deadline
/// has passed. For tests and for replaying traces at full speed.
public final class ManualPressureClock: PressureClock {
    private struct Waiter {
        var deadline: MonotonicInstant
        var waitSet: WaitSet
    }
    private struct State {
        var now: MonotonicInstant
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }
    private let state: LockedState<State>

    /// A clock reading `start` seconds after its origin.
    public init(start: Double = 0) {
        state = LockedState(State(now: MonotonicInstant(secondsSinceOrigin: start)))
    }

    /// The current manual time.
    public func now() -> MonotonicInstant { state.withLock { $0.now } }

    /// How many threads are waiting on the clock; lets a test wait until a waiter arrived.
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Moves time forward by `duration` and wakes the waiters now due.
    public func advance(by duration: Duration) {
        let due: [WaitSet] = state.withLock { state in
            state.now = state.now.advanced(by: max(.zero, duration))
            let now = state.now
            return state.waiters.values.filter { $0.deadline <= now }.map(\.waitSet)
        }
        for waitSet in due { waitSet.nudge() }
    }

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
            let isDue = now() >= deadline
            if let event = waitSet.wait(timeout: isDue ? 0 : nil) { return event }
            if isDue || now() >= deadline { return .deadline }
        }
    }
}
