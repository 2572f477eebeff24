import Files
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The last steps of every recording, whole or recovered: cut the file to its length (giving
/// back the blocks allocated past it), flush it, and move it to its destination — a rename on
/// the same filesystem, otherwise an atomic copy — then flush the destination's directory.
/// A destination never holds a part of a recording.
enum FinishedFile {
    /// Finishes the open file `descriptor` at `path` at `length` bytes and moves it to
    /// `destination`; closes the descriptor.
    static func finish(
        descriptor: Int32, path: String, length: Int64, destination: String
    ) throws(StorageError) {
        defer { close(descriptor) }
        // Truncating, even to the length the file already has, gives back the blocks kept past
        // its end (FALLOC_FL_KEEP_SIZE): checked on ext4 and tmpfs by the storage tests.
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw SystemCalls.failure(path, "truncate the recording")
        }
        guard fdatasync(descriptor) == 0 else {
            throw SystemCalls.failure(path, "flush the recording")
        }
        try move(path, to: destination, descriptor: descriptor)
    }

    /// Moves the flushed file at `path` to `destination`.
    private static func move(_ path: String, to destination: String, descriptor: Int32)
        throws(StorageError)
    {
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        try SystemCalls.makeDirectories(parent)
        if rename(path, destination) == 0 {
            SystemCalls.syncDirectory(parent)
            return
        }
        guard errno == EXDEV else { throw SystemCalls.failure(destination, "move the recording") }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw SystemCalls.failure(path, "read the recording")
        }
        do {
            try AtomicFile.write(to: destination) { copy(from: descriptor, to: $0) }
        } catch {
            throw .system(path: destination, operation: "copy the recording", error: error.problem)
        }
        unlink(path)
    }

    /// Copies the rest of `source` into `target`; false (errno set) on failure.
    private static func copy(from source: Int32, to target: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { return true }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes {
                    write(target, $0.baseAddress! + offset, count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
        }
    }
}
