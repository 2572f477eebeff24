import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// A run clock a thread can wait on: the observer's sampling thread sleeps until a deadline, a
/// PSI trigger in its wait set fires or the wait set is stopped, one wake-up a sample and no
/// task hop. Real time (``Units/ContinuousRunClock``) in production; a manual clock in tests,
/// so that no test depends on timing.
public protocol ThreadWaitingClock: RunClock {
    /// Blocks the calling thread until `now ≥ deadline` (`.deadline`) or until `waitSet` is
    /// stopped or a trigger in it fires, whichever comes first.
    ///
    /// Blocks a thread: call it from a dedicated thread, never from a task of the cooperative
    /// pool.
    func wait(until deadline: MonotonicInstant, on waitSet: WaitSet) -> WaitSet.Event
}

extension ContinuousRunClock: ThreadWaitingClock {
    /// Waits until `deadline` in one wait with an absolute deadline on `CLOCK_MONOTONIC` (again
    /// only after a nudge).
    public func wait(until deadline: MonotonicInstant, on waitSet: WaitSet) -> WaitSet.Event {
        let nanoseconds = Int64(clamping: deadline.nanoseconds)
        while true {
            if let event = waitSet.wait(until: nanoseconds) { return event }
            if WaitSet.monotonicNanoseconds() >= nanoseconds { return .deadline }
        }
    }
}
