import Foundation

/// A value guarded by a lock, for state that threads and Swift tasks share.
///
/// This wraps `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`, whose futex-based
/// Linux implementation ThreadSanitizer cannot see: with `Mutex`, `swift test
/// --sanitize=thread` reports races on correctly locked state, hiding any real one.
public final class LockedState<Value>: @unchecked Sendable {
    // Unchecked: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value; `body` must not call back into this lock.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
