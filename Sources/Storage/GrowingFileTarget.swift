import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A recording without the reserve (`usesProVideoStorage: false`): a new file beside the
/// destination, under an unpredictable name, that grows as it is written — the filesystem
/// allocates blocks during the writes — and is renamed over the destination when finished.
public final class GrowingFileTarget: RecordingTarget {
    /// The file being written.
    public let descriptor: Int32
    /// Where the finished recording goes.
    public let destination: String
    private let path: String

    /// Creates the file beside `destination`.
    ///
    /// - Throws: ``StorageError`` when the destination's directory cannot take a new file.
    public init(destination: String) throws(StorageError) {
        self.destination = destination
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        try SystemCalls.makeDirectories(parent)
        let name = URL(fileURLWithPath: destination).lastPathComponent
        path = "\(parent)/.\(name).\(SystemCalls.randomName()).part"
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemCalls.failure(path, "create the recording") }
    }

    /// Nothing is prepared: blocks are allocated as the writes arrive.
    public func prepare(through end: Int64) throws(StorageError) -> Bool { true }

    /// No reserve, so no remaining capacity.
    public func remaining(afterWriting written: Int64) -> ByteCount? { nil }

    /// Flushes the file and renames it over the destination.
    public func finish(length: Int64) throws(StorageError) -> String {
        _ = try FinishedFile.finish(
            descriptor: descriptor, path: path, length: length, placement: .replacing(destination))
        return destination
    }
}
