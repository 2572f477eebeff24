import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file holding a secret (a token, a password): refused unless only its owner may read
/// or write it (mode 0600 or 0400), so that a secret other users can read is never used.
public enum SecretFile {
    /// The text of the secret file at `path`, at most `limit` bytes.
    ///
    /// - Throws: ``ConfigurationError`` naming `path`: unreadable, readable or writable by its
    ///   group or others (the mode it has is stated), or any ``InputFile`` refusal.
    public static func read(_ path: String, limit: Int) throws(ConfigurationError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ConfigurationError(
                file: path, path: "", problem: "cannot read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw ConfigurationError(
                file: path, path: "",
                problem: "expected a file only its owner may read (mode 0600), got mode 0"
                    + String(status.st_mode & 0o777, radix: 8))
        }
        return String(decoding: try InputFile.read(path, limit: limit), as: UTF8.self)
    }
}
