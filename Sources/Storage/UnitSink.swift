#if canImport(Glibc)
    import Glibc
#endif

/// How a ``RecordingWriter`` puts units on the disk, one after another from offset 0: past the
/// page cache (``UncachedSink``, into the reserve) or through it (``BufferedSink``). Only the
/// writer's thread calls it; ``finish()`` is called exactly once, last, whatever happened.
protocol UnitSink: AnyObject, Sendable {
    /// Writes `parts` (one unit, or the header) after everything before them; the writer's
    /// time for them. Throws when a write failed, this one or an earlier one.
    func append(_ parts: [[UInt8]]) throws(WriteFailure)
    /// Puts everything appended on the disk (the file may end past it, by less than a block:
    /// its owner cuts it to its length).
    func finish() throws(WriteFailure)
    /// The file's bytes written from offset 0 without a gap: after ``finish()``, everything
    /// appended; after a failure, what came before it.
    var writtenBytes: Int64 { get }
    /// How far past the last unit the sink may write (a padded last block): the space a target
    /// prepares beyond it.
    var overhang: Int64 { get }
}

extension RecordingTarget {
    /// The sink a recording writes this target with: past the page cache where the target can
    /// be written so and `options` allow it, otherwise through it.
    func sink(unitBytes: Int64, options: RecordingWriter.Options) -> any UnitSink {
        if options.uncached, let uncached = uncachedDescriptor {
            return UncachedSink(descriptor: uncached, unitBytes: unitBytes, options: options)
        }
        return BufferedSink(descriptor: descriptor, options: options)
    }
}

/// A write that failed, with the system's error code (`ENOSPC` when the disk is full).
struct WriteFailure: Error {
    /// `errno` of the failed call.
    var code: Int32

    /// The failure of the call that just failed (`errno` now).
    static var current: WriteFailure { WriteFailure(code: errno) }

    /// The system's text for ``code``.
    var description: String { String(cString: strerror(code)) }
}

/// Units through the page cache: each with one `writev`, the dirty pages kept within a
/// budget by a ``WritebackPacer``. For recordings outside the reserve, and inside it where the
/// filesystem refuses `O_DIRECT`.
final class BufferedSink: UnitSink, @unchecked Sendable {
    // Unchecked: only the writer's thread calls it (``UnitSink``).
    private let descriptor: Int32
    private var pacer: WritebackPacer
    private var written: Int64 = 0

    /// A sink writing into `descriptor` from offset 0.
    init(descriptor: Int32, options: RecordingWriter.Options) {
        self.descriptor = descriptor
        pacer = WritebackPacer(descriptor: descriptor, options: options, start: 0)
    }

    func append(_ parts: [[UInt8]]) throws(WriteFailure) {
        guard RecordingWriter.write(parts, to: descriptor) else { throw .current }
        written += Int64(parts.reduce(0) { $0 + $1.count })
        pacer.wrote(through: written)
    }

    /// Nothing is held back: the owner's `fdatasync` flushes the rest.
    func finish() throws(WriteFailure) {}

    /// Every append that returned is in the file (the kernel's, until flushed).
    var writtenBytes: Int64 { written }

    /// Nothing is written past the last unit.
    var overhang: Int64 { 0 }
}
