/// Hands every element to every current subscriber's `AsyncStream`: the subscriber table that
/// event and value streams (a session's events, a governor's changes) are built on.
///
/// Thread-safe. A subscriber leaves when its stream is dropped or cancelled; ``finish()`` ends
/// every current stream.
public final class Broadcast<Element: Sendable>: Sendable {
    private let subscribers = LockedState<
        (next: Int, all: [Int: AsyncStream<Element>.Continuation])
    >((0, [:]))

    /// An empty broadcast.
    public init() {}

    /// A new stream of every element yielded from now on, buffered by `bufferingPolicy`.
    public func subscribe(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self, bufferingPolicy: bufferingPolicy)
        let id = subscribers.withLock { subscribers in
            subscribers.next += 1
            subscribers.all[subscribers.next] = continuation
            return subscribers.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.all.removeValue(forKey: id) }
        }
        return stream
    }

    /// Gives `element` to every current subscriber.
    public func yield(_ element: Element) {
        subscribers.withLock { subscribers in
            for continuation in subscribers.all.values { continuation.yield(element) }
        }
    }

    /// Ends every current stream; later subscribers get later elements.
    public func finish() {
        // Finished outside the lock: finishing runs the termination handlers, which take it.
        let ended = subscribers.withLock { subscribers in
            defer { subscribers.all = [:] }
            return subscribers.all
        }
        for continuation in ended.values { continuation.finish() }
    }
}
