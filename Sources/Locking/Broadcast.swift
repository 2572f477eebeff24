/// Hands every element to every current subscriber's `AsyncStream`: the subscriber table that
/// event and value streams (a session's events, a governor's changes, pressure readings, a
/// stand's events) are built on.
///
/// Thread-safe. A subscriber leaves when its stream is dropped or cancelled; ``finish()`` ends
/// every current stream, ``close()`` also every later one.
public final class Broadcast<Element: Sendable>: Sendable {
    @usableFromInline struct Subscribers {
        var next = 0
        @usableFromInline var all: [Int: AsyncStream<Element>.Continuation] = [:]
        var isClosed = false
    }

    // Inlinable where elements are yielded, so that a sampler yielding its readings calls code
    // specialized for them rather than looking up generic metadata on every element.
    @usableFromInline let subscribers = LockedState(Subscribers())

    /// An empty broadcast.
    public init() {}

    /// A new stream of every element yielded from now on, buffered by `bufferingPolicy`; an
    /// already finished stream once the broadcast is closed.
    public func subscribe(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Element.self, bufferingPolicy: bufferingPolicy)
        let id: Int? = subscribers.withLock { subscribers in
            guard !subscribers.isClosed else { return nil }
            subscribers.next += 1
            subscribers.all[subscribers.next] = continuation
            return subscribers.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.all.removeValue(forKey: id) }
        }
        return stream
    }

    /// Gives `element` to every current subscriber.
    ///
    /// Yielded outside the lock: yielding resumes a waiting task, which takes that task's
    /// status lock, while a subscriber being cancelled holds its status lock and runs the
    /// termination handler, which takes ours — under our lock the two deadlock (seen at the
    /// end of a run, when the pressure observer published as the run cancelled its reader).
    /// A subscriber that leaves meanwhile gets nothing: its stream has ended.
    @inlinable
    public func yield(_ element: Element) {
        let continuations = subscribers.withLock { $0.all.isEmpty ? [] : Array($0.all.values) }
        for continuation in continuations { continuation.yield(element) }
    }

    /// Ends every current stream; later subscribers get later elements.
    public func finish() {
        end(closing: false)
    }

    /// Ends every current stream and every later one: nothing more will be yielded.
    public func close() {
        end(closing: true)
    }

    private func end(closing: Bool) {
        // Finished outside the lock: finishing runs the termination handlers, which take it.
        let ended = subscribers.withLock { subscribers in
            subscribers.isClosed = subscribers.isClosed || closing
            defer { subscribers.all = [:] }
            return subscribers.all
        }
        for continuation in ended.values { continuation.finish() }
    }
}
