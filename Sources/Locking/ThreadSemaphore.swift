/// A count of permits that threads take, waiting while there is none, and give back: what
/// `DispatchSemaphore` is for two threads, on ``ConditionLock`` (so a module that uses it
/// links no libdispatch). Only threads wait on it, never tasks: a task would hold a thread of
/// the cooperative pool.
public final class ThreadSemaphore: @unchecked Sendable {
    // Unchecked: `permits` is only touched while `condition` is locked.
    private let condition = ConditionLock()
    private var permits: Int

    /// A semaphore holding `permits` permits.
    public init(permits: Int = 0) {
        self.permits = permits
    }

    /// Takes a permit, blocking the calling thread until there is one.
    public func wait() {
        condition.lock()
        while permits == 0 { condition.wait() }
        permits -= 1
        condition.unlock()
    }

    /// Gives a permit back, waking a thread that waits for one.
    public func signal() {
        condition.lock()
        permits += 1
        condition.signal()
        condition.unlock()
    }
}
