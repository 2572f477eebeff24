#if canImport(Glibc)
    import Glibc
#endif

/// A value guarded by a lock, for state that threads and Swift tasks share.
///
/// The lock is a pthread mutex rather than `Synchronization.Mutex`, whose futex-based Linux
/// implementation ThreadSanitizer cannot see: with `Mutex`, `swift test --sanitize=thread`
/// reports races on correctly locked state, hiding any real one. It is a bare mutex rather
/// than `NSLock`, which allocates a mutex, a condition and a second mutex besides itself: a
/// reading's exported document, made at every sample, has a lock of its own.
public final class LockedState<Value>: @unchecked Sendable {
    // Unchecked: the value is only touched inside `withLock`, under `mutex`.
    // Inlinable, so that every module's calls are specialized for their own value and result:
    // a generic call copies values through their witnesses and looks up the metadata of
    // each result tuple at run time, a cost a 10 Hz sampler pays cold on every sample.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // The value lives behind a pointer, not in a stored property: a class's stored property
    // handed `inout` is checked for exclusive access at run time (`swift_beginAccess`, which
    // looks up a thread-local list of accesses), a check the mutex already makes — a fifth of
    // what a cold 10 Hz sample cost, measured in `PressureSampler.sample(at:)`.
    @usableFromInline let value: UnsafeMutablePointer<Value>

    /// Guards `value`.
    @inlinable
    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value; `body` must not call back into this lock.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
