/// Where a ``RecordingWriter`` writes: a file it owns until ``finish(length:)`` moves it to its
/// destination. The writer thread is the only caller.
public protocol RecordingTarget: Sendable {
    /// The open file the writer writes into, from offset 0.
    var descriptor: Int32 { get }
    /// The same file opened with `O_DIRECT`, for writes past the page cache; `nil` where the
    /// target is written through it (its filesystem refuses `O_DIRECT`, or it is not meant to).
    var uncachedDescriptor: Int32? { get }
    /// The recording's destination.
    var destination: String { get }
    /// Makes sure writes up to `end` bytes will not allocate, claiming more space ahead of
    /// time; `false` when no more can be had (the reserve is full). A target without
    /// preallocation always answers `true`.
    func prepare(through end: Int64) throws(StorageError) -> Bool
    /// The preallocated bytes still free once `written` bytes are written; `nil` without a
    /// reserve.
    func remaining(afterWriting written: Int64) -> ByteCount?
    /// Ends the recording at `length` bytes: flushed, moved to the destination; returns the
    /// path it ended at.
    func finish(length: Int64) throws(StorageError) -> String
}
