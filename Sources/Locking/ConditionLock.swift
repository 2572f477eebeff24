#if canImport(Glibc)
    import Glibc
#endif

/// A mutex with a condition variable, for threads that wait until another changes the state
/// they share: lock, check, wait (which unlocks while waiting), and signal or broadcast after
/// a change. POSIX's, as `LockedState`'s mutex is (ThreadSanitizer sees both), and without
/// Foundation (`NSCondition` is Foundation's, and pulls in its internationalisation data).
public final class ConditionLock: @unchecked Sendable {
    // Unchecked: the mutex and the condition are what make sharing safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// An unlocked lock that nobody waits on.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        // Timed waits count on the monotonic clock, which wall-clock changes do not move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock until another thread signals (or for no reason: check the state
    /// again), then takes it again. The caller holds the lock.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Like ``wait()``, but returns by `deadline` on `CLOCK_MONOTONIC` at the latest; false
    /// when it returned because the deadline passed.
    @discardableResult
    public func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes one waiting thread.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
