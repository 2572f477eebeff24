import CStorage
import Files

#if canImport(Glibc)
    import Glibc
#endif

/// The few POSIX idioms the reserve repeats: errors that name the path and the call, and
/// directory listings by name.
enum SystemCalls {
    /// A ``StorageError`` for the call that just failed on `path`, with `errno`'s text.
    static func failure(_ path: String, _ operation: String) -> StorageError {
        failure(path, operation, errno: errno)
    }

    /// A ``StorageError`` for `operation` on `path` failing with `code`.
    static func failure(_ path: String, _ operation: String, errno code: Int32) -> StorageError {
        .system(path: path, operation: operation, error: String(cString: strerror(code)))
    }

    /// The names in `directory` except `.` and `..`, sorted; empty when it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Creates `directory` and its missing parents (``AtomicFile/createDirectories(_:for:)``).
    static func makeDirectories(_ directory: String) throws(StorageError) {
        do {
            try AtomicFile.createDirectories(directory)
        } catch {
            throw .system(path: directory, operation: "create the directory", error: error.problem)
        }
    }

    /// The size of the regular file at `path` (not following a link), or `nil`.
    static func fileSize(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// The device a path lives on, or `nil` when it cannot be examined.
    static func device(of path: String) -> UInt64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt64(status.st_dev)
    }

    /// `path` opened for writing past the page cache (`O_DIRECT`), or `nil` when its
    /// filesystem refuses that (`EINVAL`: ramfs, some network and FUSE filesystems) or it
    /// cannot be opened again.
    static func openUncached(_ path: String) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Flushes the directory at `path` so renames in it survive a power cut.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Unpredictable letters and digits for a file name.
    static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 36)
    }
}
