import CStorage

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps a streaming writer's dirty pages within a budget, the way recorders on Linux do it:
/// every ``RecordingWriter/Options/writebackChunk`` written is handed to the disk at once
/// (`sync_file_range` starting writeback), and once more than
/// ``RecordingWriter/Options/dirtyBudget`` is in flight the oldest chunk is waited for and
/// dropped from the page cache (`POSIX_FADV_DONTNEED`: a recording is not read back, and a small
/// board's memory is better left to the pipeline). So the kernel never accumulates a backlog
/// that it later flushes all at once while the writer's next `write` waits behind it, and the
/// writer waits only when the disk really is behind. Every
/// ``RecordingWriter/Options/syncInterval`` an `fdatasync` makes the file's metadata durable
/// too, bounding what a power cut can lose.
struct WritebackPacer {
    let descriptor: Int32
    let options: RecordingWriter.Options
    private var startedThrough: Int64
    private var synced: Int64
    private var inFlight: [(offset: Int64, length: Int64)] = []

    /// A pacer for `descriptor`, whose first `start` bytes are already written.
    init(descriptor: Int32, options: RecordingWriter.Options, start: Int64) {
        self.descriptor = descriptor
        self.options = options
        startedThrough = start
        synced = start
    }

    /// Notes that the file is written through `end`: starts writeback of whole chunks, waits
    /// for the oldest ones beyond the budget, and flushes at the sync interval.
    mutating func wrote(through end: Int64) {
        if end - startedThrough >= options.writebackChunk.bytes {
            let length = end - startedThrough
            _ = headroom_start_writeback(descriptor, startedThrough, length)
            inFlight.append((startedThrough, length))
            startedThrough = end
            while inFlight.reduce(0, { $0 + $1.length }) > options.dirtyBudget.bytes {
                let oldest = inFlight.removeFirst()
                _ = headroom_wait_writeback(descriptor, oldest.offset, oldest.length)
                _ = posix_fadvise(
                    descriptor, off_t(oldest.offset), off_t(oldest.length), POSIX_FADV_DONTNEED)
            }
        }
        if end - synced >= options.syncInterval.bytes {
            _ = fdatasync(descriptor)
            synced = end
        }
    }

    /// Flushes everything written (data and metadata); `false`, errno set, when it fails.
    mutating func flush(through end: Int64) -> Bool {
        guard fdatasync(descriptor) == 0 else { return false }
        synced = end
        inFlight.removeAll()
        return true
    }
}
