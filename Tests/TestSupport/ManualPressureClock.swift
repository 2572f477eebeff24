import Locking
import Pressure

/// A clock that moves only when told to: ``advance(by:)`` wakes every waiter whose deadline
/// has passed. For tests and for replaying traces at full speed.
public final class ManualPressureClock: PressureClock {
    private struct Waiter {
        var deadline: Double
        var waitSet: WaitSet
    }
    private struct State {
        var now: Double
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }
    private let state: LockedState<State>

    /// A clock reading `start` seconds.
    public init(start: Double = 0) {
        state = LockedState(State(now: start))
    }

    /// The current manual time.
    public func now() -> Double { state.withLock { $0.now } }

    /// How many threads are waiting on the clock; lets a test wait until a waiter arrived.
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Moves time forward by `seconds` and wakes the waiters now due.
    public func advance(by seconds: Double) {
        let due: [WaitSet] = state.withLock { state in
            state.now += max(0, seconds)
            let now = state.now
            return state.waiters.values.filter { $0.deadline <= now }.map(\.waitSet)
        }
        for waitSet in due { waitSet.nudge() }
    }

    /// Blocks until the clock is advanced to `deadline`, or `waitSet` has an event.
    public func wait(until deadline: Double, on waitSet: WaitSet) -> WaitSet.Event {
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
