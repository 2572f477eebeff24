import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// The time source of an observer: real in production, manual in tests so that no test
/// depends on timing.
public protocol PressureClock: Sendable {
    /// The current instant; never goes backwards.
    func now() -> MonotonicInstant
    /// Blocks the calling thread until `now() ≥ deadline` (`.deadline`) or until `waitSet`
    /// is stopped or a trigger in it fires, whichever comes first.
    ///
    /// Blocks a thread: call it from a dedicated thread, never from a task of the cooperative
    /// pool.
    func wait(until deadline: MonotonicInstant, on waitSet: WaitSet) -> WaitSet.Event
}

/// `CLOCK_MONOTONIC`, waiting in the kernel (`ppoll`).
public struct MonotonicPressureClock: PressureClock {
    /// The system's monotonic clock.
    public init() {}

    /// The instant on `CLOCK_MONOTONIC` (since boot).
    public func now() -> MonotonicInstant {
        MonotonicClock.now()
    }

    /// Waits until `deadline` in one wait with an absolute deadline (again only after a
    /// nudge).
    public func wait(until deadline: MonotonicInstant, on waitSet: WaitSet) -> WaitSet.Event {
        let nanoseconds = Int64(clamping: deadline.nanoseconds)
        while true {
            if let event = waitSet.wait(until: nanoseconds) { return event }
            if WaitSet.monotonicNanoseconds() >= nanoseconds { return .deadline }
        }
    }

    /// Suspends the calling task until `deadline`, for loops that run as tasks.
    ///
    /// - Throws: `CancellationError` when cancelled.
    public func sleep(until deadline: MonotonicInstant) async throws {
        let remaining = deadline.duration(since: now())
        if remaining > .zero { try await Task.sleep(for: remaining) }
        try Task.checkCancellation()
    }
}
