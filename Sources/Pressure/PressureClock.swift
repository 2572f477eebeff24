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
