/// A result that a thread delivers once, for whoever waits for it: a task (``value``) without
/// holding a thread of the cooperative pool, or a thread (``wait()``).
public final class Completion<Value: Sendable>: @unchecked Sendable {
    // Unchecked: `result` and `waiters` are only touched while `condition` is locked.
    private let condition = ConditionLock()
    private var result: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    /// A completion not yet delivered.
    public init() {}

    /// Delivers `value` to every waiter, present and future; a second delivery is ignored.
    public func complete(_ value: Value) {
        condition.lock()
        guard result == nil else {
            condition.unlock()
            return
        }
        result = value
        let waiting = waiters
        waiters = []
        condition.broadcast()
        condition.unlock()
        for waiter in waiting { waiter.resume(returning: value) }
    }

    /// The delivered value, suspending the calling task until it is.
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                condition.lock()
                guard let result else {
                    waiters.append(continuation)
                    condition.unlock()
                    return
                }
                condition.unlock()
                continuation.resume(returning: result)
            }
        }
    }

    /// The delivered value, blocking the calling thread until it is (never call it from a task).
    public func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }
}
