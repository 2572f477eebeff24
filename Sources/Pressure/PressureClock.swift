import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The time source of an observer: real in production, manual in tests so that no test
/// depends on timing.
public protocol PressureClock: Sendable {
    /// Seconds since an arbitrary origin; never goes backwards.
    func now() -> Double
    /// Blocks the calling thread until `now() ≥ deadline` (`.deadline`) or until `waitSet`
    /// is stopped or a trigger in it fires, whichever comes first.
    ///
    /// Blocks a thread: call it from a dedicated thread, never from a task of the cooperative
    /// pool.
    func wait(until deadline: Double, on waitSet: WaitSet) -> WaitSet.Event
}

/// `CLOCK_MONOTONIC` in seconds, waiting in the kernel (`ppoll`).
public struct MonotonicPressureClock: PressureClock {
    /// The system's monotonic clock.
    public init() {}

    /// Seconds since boot on `CLOCK_MONOTONIC`.
    public func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Waits until `deadline` in one wait with an absolute deadline (again only after a
    /// nudge).
    public func wait(until deadline: Double, on waitSet: WaitSet) -> WaitSet.Event {
        // Rounded up, so the wait never ends a fraction of a nanosecond early.
        let nanoseconds = Int64((deadline * 1e9).rounded(.up))
        while true {
            if let event = waitSet.wait(until: nanoseconds) { return event }
            if WaitSet.monotonicNanoseconds() >= nanoseconds { return .deadline }
        }
    }

    /// Suspends the calling task until `deadline`, for loops that run as tasks.
    ///
    /// - Throws: `CancellationError` when cancelled.
    public func sleep(until deadline: Double) async throws {
        let remaining = deadline - now()
        if remaining > 0 { try await Task.sleep(nanoseconds: UInt64(remaining * 1e9)) }
        try Task.checkCancellation()
    }
}

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
