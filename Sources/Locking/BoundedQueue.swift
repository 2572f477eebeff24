/// A first-in, first-out queue of at most `limit` elements between producers that must never
/// wait (a frame loop) and one consumer thread that may (a writer): ``offer(_:)`` refuses
/// instead of blocking when the queue is full, ``take()`` blocks until an element arrives or
/// the queue is closed and empty.
public final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // Unchecked: `elements`, `head` and `isClosed` are only touched while `condition` is locked.
    private let condition = ConditionLock()
    private var elements: [Element?]
    private var head = 0
    private var count = 0
    private var isClosed = false

    /// The most elements the queue holds.
    public let limit: Int

    /// An empty queue of at most `limit` elements (at least 1).
    public init(limit: Int) {
        self.limit = max(limit, 1)
        elements = Array(repeating: nil, count: max(limit, 1))
    }

    /// Appends `element` unless the queue is full or closed; never blocks on the consumer.
    /// Returns whether it was queued.
    public func offer(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed, count < limit else { return false }
        elements[(head + count) % limit] = element
        count += 1
        condition.signal()
        return true
    }

    /// The oldest element, waiting for one; `nil` once the queue is closed and drained.
    public func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !isClosed { condition.wait() }
        return removeOldest()
    }

    /// The oldest element if one waits, else `nil` at once; never blocks.
    public func poll() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return removeOldest()
    }

    /// Removes and returns the oldest element, if any; `condition` is locked.
    private func removeOldest() -> Element? {
        guard count > 0 else { return nil }
        let element = elements[head]
        elements[head] = nil
        head = (head + 1) % limit
        count -= 1
        return element
    }

    /// Refuses further elements; the consumer drains what is queued, then gets `nil`.
    public func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// How many elements wait.
    public var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }
}
