import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a recording on a thread of its own, so the frame loop that feeds it never waits for
/// the disk: ``enqueue(_:)`` only queues (a full queue drops the frame and counts it), and
/// ``writeQueued()``, the writer thread's loop (its owner runs it as a service, `ThreadedWork`),
/// asks its ``RecordingTarget`` for space ahead of the writes, writes each unit, and at the end
/// finishes the file (cut to its length, flushed, moved to its destination).
///
/// A target that can be written past the page cache (the reserve, on a filesystem that takes
/// `O_DIRECT`) is: each unit is copied into a ring of aligned buffers that a thread of the
/// writer's own writes out (`UncachedSink`), so a unit costs the writer a copy, and the page
/// cache is left to everyone else. Otherwise each unit is written with one `writev`, its dirty
/// pages kept within a budget (``Options/dirtyBudget``, `WritebackPacer`) so the kernel never
/// holds a large backlog. ``Summary/uncached`` says which.
///
/// When the target has no more space (a full reserve) the recording ends cleanly at its last
/// whole unit with ``EndReason/notEnoughSpace``, is finished at once, and further frames are
/// refused with ``Enqueued/ended`` — the pipeline keeps running.
public final class RecordingWriter: Sendable {
    /// Tuning of the writer.
    public struct Options: Sendable {
        /// Units the queue holds before frames are dropped.
        public var queueLimit = 8
        /// Bytes written before their writeback is started; past the page cache, the most each
        /// of the ring's buffers holds.
        public var writebackChunk = ByteCount.mebibytes(8)
        /// Bytes whose writeback may be in flight before the writer waits for the oldest.
        public var dirtyBudget = ByteCount.mebibytes(32)
        /// Whether a target that can be written past the page cache is (`false`: every
        /// recording goes through it, as on a filesystem that refuses `O_DIRECT`).
        public var uncached = true
        /// Bytes written between `fdatasync`s (what a power cut can lose at most).
        public var syncInterval = ByteCount.mebibytes(64)
        /// The most memory the ring of buffers past the page cache grows to while the disk
        /// stalls: it keeps eight buffers, and allocates more only when none is free.
        public var ringLimit = ByteCount.mebibytes(256)

        /// The defaults: 8 queued frames; past the page cache where the target allows it, with
        /// buffers of at most 8 MiB, up to 256 MiB while the disk stalls; otherwise writeback
        /// started every 8 MiB, at most 32 MiB in flight; an `fdatasync` every 64 MiB.
        public init() {}
    }

    /// Why a recording ended.
    public enum EndReason: String, Codable, Sendable {
        /// It was finished by its owner.
        case finished
        /// Its space ran out (`AVError.notEnoughSpace`'s meaning).
        case notEnoughSpace
        /// A write or the final move failed; see ``Summary/problem``.
        case failed
    }

    /// What ``enqueue(_:)`` did with a frame.
    public enum Enqueued: Sendable {
        /// Queued for the writer.
        case queued
        /// Dropped: the queue was full (the disk fell behind).
        case dropped
        /// Refused: the recording has ended.
        case ended
    }

    /// The recording so far, or in the end.
    public struct Summary: Codable, Equatable, Sendable {
        /// Where it is (the destination once finished).
        public var path: String
        /// Whole units written.
        public var frames: Int64 = 0
        /// Bytes written, header included.
        public var bytes = ByteCount.zero
        /// Units dropped because the queue was full.
        public var framesDropped: Int64 = 0
        /// Preallocated bytes still free (reserve recordings only).
        public var remainingBytes: ByteCount?
        /// Why it ended; `nil` while it runs.
        public var endReason: EndReason?
        /// What failed, for ``EndReason/failed`` and ``EndReason/notEnoughSpace``.
        public var problem: String?
        /// Whether the writes bypassed the page cache (`O_DIRECT`: into the reserve, where the
        /// filesystem takes it).
        public var uncached = false
        /// The most memory the ring past the page cache held at once (``Options/ringLimit``;
        /// zero through the page cache), once the recording has ended.
        public var ringPeak = ByteCount.zero
    }

    private let queue: BoundedQueue<[[UInt8]]>
    private let state: LockedState<Summary>
    private let payloadBytes: Int
    private let loop: WriterLoop

    /// Starts a recording into `target`: writes `header` now (so even a recording without
    /// frames is a valid file), then each enqueued payload framed by `unitPrefix` and
    /// `unitSuffix`, as `layout` describes. `onWrite` is called on the writer thread with each
    /// unit's write time in seconds on `clock` (real time: it measures the disk); `onEnd`
    /// once, with the summary, when the recording ends for any reason.
    ///
    /// - Throws: ``StorageError`` when the header cannot be written.
    public init(
        target: any RecordingTarget, layout: RecordingLayout, header: [UInt8],
        unitPrefix: [UInt8], unitSuffix: [UInt8], options: Options = Options(),
        onWrite: @escaping @Sendable (Double) -> Void = { _ in }, clock: any RunClock
    ) throws(StorageError) {
        queue = BoundedQueue(limit: options.queueLimit)
        let sink = target.sink(unitBytes: layout.unitBytes, options: options)
        var summary = Summary(path: target.destination)
        summary.uncached = sink is UncachedSink
        state = LockedState(summary)
        do throws(StorageError) {
            guard try target.prepare(through: layout.headerBytes + sink.overhang) else {
                throw SystemCalls.failure(
                    target.destination, "write the recording's header", errno: ENOSPC)
            }
        } catch {
            try? sink.finish()
            throw error
        }
        do throws(WriteFailure) {
            try sink.append([header])
        } catch {
            try? sink.finish()
            throw SystemCalls.failure(
                target.destination, "write the recording's header", errno: error.code)
        }
        payloadBytes = Int(layout.unitBytes) - unitPrefix.count - unitSuffix.count
        loop = WriterLoop(
            target: target, sink: sink, layout: layout, prefix: unitPrefix, suffix: unitSuffix,
            onWrite: onWrite, clock: clock)
        state.withLock { $0.bytes = ByteCount(layout.headerBytes) }
    }

    /// Queues one unit's payload for the writer; never blocks. A payload of another length
    /// than the layout's (a frame of another size) is dropped.
    public func enqueue(_ payload: [UInt8]) -> Enqueued {
        enqueue(parts: [payload])
    }

    /// Queues one unit's payload in `parts` (a frame's planes, written one after another
    /// with the unit's one `writev`, never joined); never blocks. Parts whose lengths do not
    /// add up to the layout's payload (a frame of another size) are dropped.
    public func enqueue(parts: [[UInt8]]) -> Enqueued {
        if state.withLock({ $0.endReason != nil }) { return .ended }
        let length = parts.reduce(0) { $0 + $1.count }
        if length == payloadBytes, queue.offer(parts) { return .queued }
        if state.withLock({ $0.endReason != nil }) { return .ended }
        state.withLock { $0.framesDropped += 1 }
        return .dropped
    }

    /// The recording so far.
    public var summary: Summary { state.withLock { $0 } }

    /// The writer thread's loop: writes each queued unit as it comes, until ``endWriting()``
    /// has been called and the queue is drained (or the space runs out, or a write fails),
    /// then finishes the file (cut to its length, flushed, moved to its destination). Blocks
    /// the calling thread throughout; returns the final summary. Run it once.
    public func writeQueued() -> Summary {
        loop.run(queue: queue, state: state)
    }

    /// Refuses further units; ``writeQueued()`` writes those queued, then finishes the file.
    public func endWriting() {
        queue.close()
    }

    /// Writes `parts` with one `writev` (more only after a short write), the way the writer
    /// thread writes each unit through the page cache; `false`, with `errno` set, on failure.
    public static func write(_ parts: [[UInt8]], to descriptor: Int32) -> Bool {
        var remaining = parts.reduce(0) { $0 + $1.count }
        var skip = 0
        while remaining > 0 {
            let result = withIOVectors(parts, skipping: skip) { vectors in
                writev(descriptor, vectors.baseAddress, Int32(vectors.count))
            }
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            skip += result
            remaining -= result
        }
        return true
    }

    /// Runs `body` with I/O vectors over `parts` minus their first `skip` bytes.
    private static func withIOVectors(
        _ parts: [[UInt8]], skipping skip: Int,
        _ body: (UnsafeBufferPointer<iovec>) -> Int
    ) -> Int {
        func recurse(_ index: Int, _ skip: Int, _ vectors: inout [iovec]) -> Int {
            guard index < parts.count else {
                return vectors.withUnsafeBufferPointer { body($0) }
            }
            let part = parts[index]
            if skip >= part.count { return recurse(index + 1, skip - part.count, &vectors) }
            return part.withUnsafeBytes { raw in
                vectors.append(
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                        iov_len: part.count - skip))
                return recurse(index + 1, 0, &vectors)
            }
        }
        var vectors: [iovec] = []
        return recurse(0, skip, &vectors)
    }
}

/// The writer thread's loop, apart from the writer's public face.
private struct WriterLoop: Sendable {
    let target: any RecordingTarget
    let sink: any UnitSink
    let layout: RecordingLayout
    let prefix: [UInt8]
    let suffix: [UInt8]
    let onWrite: @Sendable (Double) -> Void
    let clock: any RunClock

    func run(queue: BoundedQueue<[[UInt8]]>, state: LockedState<RecordingWriter.Summary>)
        -> RecordingWriter.Summary
    {
        var written = layout.headerBytes
        var ending: (RecordingWriter.EndReason, String?) = (.finished, nil)
        while let parts = queue.take() {
            let end = written + layout.unitBytes
            do {
                guard try target.prepare(through: end + sink.overhang) else {
                    ending = (.notEnoughSpace, "the reserve is full after \(ByteCount(written))")
                    break
                }
            } catch {
                ending = (error.isNotEnoughSpace ? .notEnoughSpace : .failed, error.description)
                break
            }
            let start = clock.now
            do {
                try sink.append([prefix] + parts + [suffix])
            } catch {
                ending = (error.endReason, error.description)
                break
            }
            onWrite(clock.now.seconds(since: start))
            written = end
            let remaining = target.remaining(afterWriting: written)
            state.withLock { summary in
                summary.frames += 1
                summary.bytes = ByteCount(written)
                summary.remainingBytes = remaining
            }
        }
        // Ended early: refuse what comes next, then finish what was written.
        state.withLock { summary in
            summary.endReason = ending.0
            summary.problem = ending.1
        }
        queue.close()
        do {
            try sink.finish()
        } catch {
            state.withLock { summary in
                if summary.endReason == .finished {
                    summary.endReason = error.endReason
                    summary.problem = error.description
                }
            }
        }
        // After a failed write, the file ends at the last whole unit before it (and is empty
        // when not even the header was written).
        let onDisk = min(written, sink.writtenBytes)
        let units = layout.wholeUnits(in: onDisk)
        written = onDisk < layout.headerBytes ? 0 : layout.length(units: units)
        let ringPeak = (sink as? UncachedSink)?.peakBytes ?? .zero
        state.withLock { summary in
            summary.frames = units
            summary.bytes = ByteCount(written)
            summary.ringPeak = ringPeak
        }
        do {
            let path = try target.finish(length: written)
            state.withLock { $0.path = path }
        } catch {
            state.withLock { summary in
                summary.endReason = .failed
                summary.problem = error.description
            }
        }
        return state.withLock { $0 }
    }
}

extension WriteFailure {
    /// How a recording that this failure ends, ends.
    fileprivate var endReason: RecordingWriter.EndReason {
        code == ENOSPC ? .notEnoughSpace : .failed
    }
}

extension StorageError {
    /// Whether this is running out of space.
    var isNotEnoughSpace: Bool {
        if case .notEnoughSpace = self { return true }
        return false
    }
}
