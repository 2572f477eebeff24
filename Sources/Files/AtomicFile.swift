import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that a reader sees either the old contents or the new, never a part:
/// the data goes to a temporary file in the same directory, is flushed, then renamed over
/// the destination.
public enum AtomicFile {
    /// Replaces the file at `path` with `data`, creating missing parent directories.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` when the directory cannot be created or the
    ///   file cannot be written; the destination is then left untouched.
    public static func write(_ data: Data, to path: String) throws(ConfigurationError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).\(getpid()).tmp"
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError(
                file: path, path: "",
                problem: "cannot create directory \(directory): \(error.localizedDescription)")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(path, "cannot create \(temporary)") }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(
                    descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written, synced, rename(temporary, path) == 0 else {
            let reason = failure(path, "cannot write")
            unlink(temporary)
            throw reason
        }
    }

    /// Replaces the file at `path` with `text` in UTF-8.
    public static func write(_ text: String, to path: String) throws(ConfigurationError) {
        try write(Data(text.utf8), to: path)
    }

    private static func failure(_ path: String, _ what: String) -> ConfigurationError {
        ConfigurationError(
            file: path, path: "", problem: "\(what): \(String(cString: strerror(errno)))")
    }
}
