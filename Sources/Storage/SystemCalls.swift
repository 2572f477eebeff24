import CStorage
import Foundation

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

    /// Creates `directory` and its missing parents (mode 0755 under the umask).
    static func makeDirectories(_ directory: String) throws(StorageError) {
        var partial = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST {
                throw failure(partial, "create the directory")
            }
        }
    }

    /// The size of the regular file at `path` (not following a link), or `nil`.
    static func fileSize(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// Bytes actually allocated to the file at `path` (`st_blocks` × 512), or `nil`.
    static func allocatedBytes(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Int64(status.st_blocks) * 512
    }

    /// The device a path lives on, or `nil` when it cannot be examined.
    static func device(of path: String) -> UInt64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt64(status.st_dev)
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
