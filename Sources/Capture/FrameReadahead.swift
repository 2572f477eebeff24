import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Frames a reader thread has decoded ahead of the capture session's frame loop: the reader
/// blocks — on its own thread — while ``capacity`` frames wait, and the frame loop takes them
/// without ever blocking a thread of the cooperative pool (it takes what is there, or suspends
/// until the reader hands the next one over).
final class FrameReadahead: Sendable {
    /// A decoded frame: its index in the video, its luma and its colour (when it has colour).
    struct Decoded: Sendable {
        var index: Int
        var picture: Y4MPicture
    }

    private struct State {
        var frames: [Decoded] = []
        var hasEnded = false
        var isClosed = false
        /// The lowest index still wanted: the reader skips frames below it.
        var wanted = 0
        /// The frame loop, suspended until a frame or the end arrives.
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// How many decoded frames may wait.
    let capacity: Int
    private let state = LockedState(State())
    /// One permit per free place; the reader waits on it.
    private let space: ThreadSemaphore

    /// Room for `capacity` frames (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        space = ThreadSemaphore(permits: self.capacity)
    }

    /// The reader: waits (blocking its thread) until there is room, then adds `frame`;
    /// `false` once the readahead is closed (the reader should stop).
    func put(_ frame: Decoded) -> Bool {
        space.wait()
        let (accepted, waiter) = state.withLock { state in
            guard !state.isClosed else { return (false, nil as CheckedContinuation<Void, Never>?) }
            state.frames.append(frame)
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume()
        return accepted
    }

    /// The reader: there are no more frames.
    func end() {
        change { $0.hasEnded = true }
    }

    /// Stops the reader: a `put` waiting for room returns `false`.
    func close() {
        change { $0.isClosed = true }
        space.signal()
    }

    /// Makes `change` and wakes the frame loop if it waits.
    private func change(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state in
            change(&state)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The next frame, suspending until the reader has one; `nil` once the video has ended
    /// (or the readahead is closed) and every frame was taken, or when the task is cancelled.
    func next() async -> Decoded? {
        while true {
            let taken: Decoded?? = state.withLock { state in
                if !state.frames.isEmpty { return .some(state.frames.removeFirst()) }
                return state.hasEnded || state.isClosed ? .some(nil) : nil
            }
            if let taken {
                if taken != nil { space.signal() }
                return taken
            }
            guard !Task.isCancelled else { return nil }
            await untilReady()
        }
    }

    /// Suspends until a frame waits, the video has ended or the readahead is closed (or the
    /// task is cancelled), taking nothing.
    func untilReady() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    guard state.frames.isEmpty, !state.hasEnded, !state.isClosed,
                        !Task.isCancelled
                    else { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Says that frames below `index` are no longer wanted (their time has passed): the reader
    /// reads past them without handing them over.
    func want(from index: Int) {
        state.withLock { $0.wanted = max($0.wanted, index) }
    }

    /// Whether the frame of `index` is still wanted.
    func wants(_ index: Int) -> Bool { state.withLock { index >= $0.wanted } }

    /// Without waiting: the latest decoded frame with an index up to `target`, dropping the
    /// older ones; `nil` when none is there yet.
    func latest(upTo target: Int) -> Decoded? {
        let (latest, taken) = state.withLock { state -> (Decoded?, Int) in
            let count = state.frames.prefix { $0.index <= target }.count
            guard count > 0 else { return (nil, 0) }
            let latest = state.frames[count - 1]
            state.frames.removeFirst(count)
            return (latest, count)
        }
        for _ in 0..<taken { space.signal() }
        return latest
    }

    /// Whether the reader has ended and every frame was taken.
    var isDrained: Bool { state.withLock { $0.hasEnded && $0.frames.isEmpty } }
}
