import Files

#if canImport(Glibc)
    import Glibc
#endif

/// A recording without the reserve (`usesProVideoStorage: false`): a new file beside the
/// destination, under an unpredictable name, that grows as it is written — the filesystem
/// allocates blocks during the writes — and is renamed over the destination when finished.
/// It is written through the page cache, unless made `uncached` (the write-rate probe beside
/// a reserve too small for it).
public final class GrowingFileTarget: RecordingTarget {
    /// The file being written.
    public let descriptor: Int32
    /// The file opened with `O_DIRECT`, when made `uncached` and its filesystem takes it.
    public let uncachedDescriptor: Int32?
    /// Where the finished recording goes.
    public let destination: String
    private let path: String

    /// Creates the file beside `destination`, to be written past the page cache when
    /// `uncached` and its filesystem allows it.
    ///
    /// - Throws: ``StorageError`` when the destination's directory cannot take a new file.
    public init(destination: String, uncached: Bool = false) throws(StorageError) {
        self.destination = destination
        let parent = FileSystem.parent(of: FileSystem.absolute(destination))
        try SystemCalls.makeDirectories(parent)
        let name = FileSystem.name(of: destination)
        path = "\(parent)/.\(name).\(SystemCalls.randomName()).part"
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemCalls.failure(path, "create the recording") }
        uncachedDescriptor = uncached ? SystemCalls.openUncached(path) : nil
    }

    /// Nothing is prepared: blocks are allocated as the writes arrive.
    public func prepare(through end: Int64) throws(StorageError) -> Bool { true }

    /// No reserve, so no remaining capacity.
    public func remaining(afterWriting written: Int64) -> ByteCount? { nil }

    /// Flushes the file and renames it over the destination.
    public func finish(length: Int64) throws(StorageError) -> String {
        if let uncachedDescriptor { close(uncachedDescriptor) }
        _ = try FinishedFile.finish(
            descriptor: descriptor, path: path, length: length, placement: .replacing(destination))
        return destination
    }
}
