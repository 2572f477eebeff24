import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Units written past the page cache (`O_DIRECT`), the way the reserve records: each unit is
/// copied into a ring of aligned buffers, and every run of whole blocks is handed to the sink's
/// own thread, which writes it at its block-aligned offset. The writer's time for a unit is
/// the copy, never the disk's; the page cache is left to everyone else, and no backlog of
/// dirty pages builds up for a later write to wait behind.
///
/// A buffer is reused once its writes are done. The ring keeps ``depth`` buffers; when the disk
/// stalls and none is free, the writer allocates another rather than wait, up to
/// ``RecordingWriter/Options/ringLimit``, and gives the extra buffers back once the disk has
/// caught up. So a stall costs memory for as long as it lasts, and only a stall longer than the
/// limit holds makes the writer wait (and the recording's queue, filling meanwhile, drop
/// frames). A unit's last partial block stays in the ring until the next unit completes it;
/// ``finish()`` writes that tail padded with zeros to a block, so the file may end past the
/// recording by less than a block until its owner cuts it. What a `SIGKILL` loses is what the
/// ring held: the last units (``depth`` buffers' worth, up to the limit during a stall), which
/// recovery cuts off as it cuts a partial one.
final class UncachedSink: UnitSink, @unchecked Sendable {
    // Unchecked: `current`, `fill`, `submitted`, `offset`, `buffers` and `peak` are the
    // writer's alone (one thread, ``UnitSink``); the thread and the writer share the rest
    // through `submissions`, `idle` and `failure`, which lock, and a buffer's bytes are never
    // written by one while the other reads them (a run is handed over only once it is filled).

    /// The alignment of offsets, lengths and memory: 4 KiB, a multiple of every logical block
    /// size and DMA alignment in use.
    static let blockBytes = 4096
    /// Buffers the ring keeps. With a fixed ring of 4, the development VM's disk stalls of
    /// 100–300 ms under a competing writer dropped 3–38 frames of 1080p at 70 % of the rate;
    /// with 8, 1–35; growing while the disk stalls, none.
    static let depth = 8

    /// Writes `count` bytes at an offset of a descriptor, as `pwrite` does (which it is, but in
    /// tests that hold the disk still).
    typealias PositionedWrite =
        @Sendable (
            _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ offset: off_t
        ) -> Int

    private let descriptor: Int32
    private let positionedWrite: PositionedWrite
    /// The bytes of each buffer.
    private let capacity: Int
    /// The most buffers the ring grows to (``RecordingWriter/Options/ringLimit``).
    private let limit: Int
    /// Buffers allocated, and the most there were at once.
    private var buffers = 1
    private var peak = 1
    /// Runs to write, in order; `release` gives the buffer back once written.
    private let submissions: BoundedQueue<Submission>
    /// Buffers whose writes are done.
    private let idle: BoundedQueue<AlignedBuffer>
    /// The first write's failure; later runs are not written.
    private let failure = LockedState<Int32?>(nil)
    /// The file's bytes written so far, from offset 0 without a gap.
    private let completed = LockedState<Int64>(0)
    private let stopped = Completion<Bool>()

    /// The buffer being filled, its bytes, those of them handed to the thread, and the file
    /// offset of its first byte.
    private var current: AlignedBuffer
    private var fill = 0
    private var submitted = 0
    private var offset: Int64 = 0

    /// One run of whole blocks of a buffer, for the thread to write at `offset`.
    private struct Submission: Sendable {
        var buffer: AlignedBuffer
        var start: Int
        var end: Int
        var offset: Int64
        var release: Bool
    }

    /// The bytes of each buffer for units of `unitBytes`: two units rounded up to a MiB, at
    /// least 1 MiB and at most the writeback chunk (8 MiB by default), so a ring holds 8 to 64
    /// MiB by default (1080p Y4M: 7 MiB buffers, 56 MiB, about 18 frames in the ring).
    static func bufferBytes(forUnit unitBytes: Int64, options: RecordingWriter.Options) -> Int {
        let mebibyte: Int64 = 1 << 20
        let twoUnits = (2 * unitBytes + mebibyte - 1) / mebibyte * mebibyte
        return Int(min(max(twoUnits, mebibyte), max(options.writebackChunk.bytes, mebibyte)))
    }

    /// A sink writing into `descriptor` (opened with `O_DIRECT`) from offset 0, with buffers
    /// sized for units of `unitBytes`, flushing every ``RecordingWriter/Options/syncInterval``;
    /// its thread starts now and ends in ``finish()``. The descriptor stays its owner's.
    init(
        descriptor: Int32, unitBytes: Int64, options: RecordingWriter.Options,
        write: @escaping PositionedWrite = { pwrite($0, $1, $2, $3) }
    ) {
        self.descriptor = descriptor
        positionedWrite = write
        capacity = Self.bufferBytes(forUnit: unitBytes, options: options)
        limit = max(Self.depth, Int(options.ringLimit.bytes / Int64(capacity)))
        // At most one run a block is ever waiting, plus one release a buffer.
        submissions = BoundedQueue(limit: limit * (capacity / Self.blockBytes + 1))
        idle = BoundedQueue(limit: limit)
        current = AlignedBuffer(capacity: capacity, alignment: Self.blockBytes)
        while buffers < Self.depth {
            _ = idle.offer(AlignedBuffer(capacity: capacity, alignment: Self.blockBytes))
            buffers += 1
        }
        peak = buffers
        let syncInterval = options.syncInterval.bytes
        DetachedThread.start(name: "recording-io") { [self] in
            writeSubmissions(syncInterval: syncInterval)
        }
    }

    func append(_ parts: [[UInt8]]) throws(WriteFailure) {
        for part in parts {
            var copied = 0
            while copied < part.count {
                if fill == capacity { try nextBuffer() }
                let count = min(part.count - copied, capacity - fill)
                let destination = current.base + fill
                part.withUnsafeBytes { source in
                    destination.copyMemory(from: source.baseAddress! + copied, byteCount: count)
                }
                fill += count
                copied += count
            }
        }
        submit(through: fill / Self.blockBytes * Self.blockBytes, release: false)
        if let code = failure.withLock({ $0 }) { throw WriteFailure(code: code) }
    }

    /// Everything appended once ``finish()`` succeeded (and the padding after it); after a
    /// failure, the bytes before the run that failed.
    var writtenBytes: Int64 { completed.withLock { $0 } }

    /// Bytes written past the last unit: the padding of the last block.
    var overhang: Int64 { Int64(Self.blockBytes) }

    /// The most memory the ring held at once (more than ``depth`` buffers only when the disk
    /// stalled). The writer's to read, like ``append(_:)``.
    var peakBytes: ByteCount { ByteCount(Int64(peak * capacity)) }

    /// The memory the ring holds now. The writer's to read, like ``append(_:)``.
    var heldBytes: ByteCount { ByteCount(Int64(buffers * capacity)) }

    func finish() throws(WriteFailure) {
        let end = (fill + Self.blockBytes - 1) / Self.blockBytes * Self.blockBytes
        (current.base + fill).initializeMemory(
            as: UInt8.self, repeating: 0, count: end - fill)
        submit(through: end, release: true)
        submissions.close()
        _ = stopped.wait()
        if let code = failure.withLock({ $0 }) { throw WriteFailure(code: code) }
    }

    /// Hands the rest of the full buffer to the thread and takes the next: a free one, else a
    /// new one while the ring is under its limit, else the oldest once its writes are done.
    /// Buffers beyond ``depth`` are given back while half the ring's own lie free.
    private func nextBuffer() throws(WriteFailure) {
        submit(through: fill, release: true)
        offset += Int64(fill)
        if let free = idle.poll() {
            current = free
            while buffers > Self.depth, idle.waiting > Self.depth / 2, idle.poll() != nil {
                buffers -= 1
            }
        } else if buffers < limit {
            current = AlignedBuffer(capacity: capacity, alignment: Self.blockBytes)
            buffers += 1
            peak = max(peak, buffers)
        } else {
            guard let oldest = idle.take() else { throw WriteFailure(code: EIO) }
            current = oldest
        }
        fill = 0
        submitted = 0
    }

    /// Hands the current buffer's bytes from the last hand-over to `end` to the thread.
    private func submit(through end: Int, release: Bool) {
        guard end > submitted || release else { return }
        let queued = submissions.offer(
            Submission(
                buffer: current, start: submitted, end: end, offset: offset + Int64(submitted),
                release: release))
        precondition(queued, "the ring's submissions outnumber its blocks")
        submitted = end
    }

    /// The thread: writes each run in order until the sink finishes, flushing every
    /// `syncInterval` bytes; after a failure, runs are only given back.
    private func writeSubmissions(syncInterval: Int64) {
        var unsynced: Int64 = 0
        while let run = submissions.take() {
            if run.end > run.start, failure.withLock({ $0 == nil }) {
                if write(run) {
                    completed.withLock { $0 = run.offset + Int64(run.end - run.start) }
                    unsynced += Int64(run.end - run.start)
                    if unsynced >= syncInterval {
                        _ = fdatasync(descriptor)
                        unsynced = 0
                    }
                } else {
                    let code = errno
                    failure.withLock { $0 = code }
                }
            }
            if run.release { _ = idle.offer(run.buffer) }
        }
        stopped.complete(true)
    }

    /// Writes one run whole (more `pwrite`s after a short one); `false`, `errno` set, on failure.
    private func write(_ run: Submission) -> Bool {
        var done = 0
        let length = run.end - run.start
        while done < length {
            let result = positionedWrite(
                descriptor, run.buffer.base + run.start + done, length - done,
                off_t(run.offset + Int64(done)))
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            if result == 0 {
                errno = EIO
                return false
            }
            done += result
        }
        return true
    }
}
