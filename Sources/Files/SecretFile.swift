import CAccessControl

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file holding a secret (a token, a password): refused unless only its owner may read
/// or write it (mode 0600 or 0400), or — the form systemd gives a credential on tmpfs
/// (`LoadCredential=`) — its access control list lets no one read it but its owner and this
/// process's user, so that a secret other users can read is never used.
public enum SecretFile {
    /// The text of the secret file at `path`, at most `limit` bytes.
    ///
    /// - Throws: ``ConfigurationError`` naming `path`: unreadable, readable or writable by its
    ///   group or others (the mode it has is stated, or who its ACL lets read it), or any
    ///   ``InputFile`` refusal.
    public static func read(_ path: String, limit: Int) throws(ConfigurationError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ConfigurationError(
                file: path, path: "", problem: "cannot read: \(String(cString: strerror(errno)))")
        }
        let mode = status.st_mode & 0o777
        let refusal =
            "expected a file only its owner may read (mode 0600), got mode 0"
            + String(mode, radix: 8)
        guard mode & 0o007 == 0 else {
            throw ConfigurationError(file: path, path: "", problem: refusal)
        }
        // Group bits with an ACL are its mask: who may read is in the list itself.
        if mode & 0o070 != 0 {
            guard let list = AccessControlList(path: path) else {
                throw ConfigurationError(file: path, path: "", problem: refusal)
            }
            if let reader = list.otherReader(than: geteuid()) {
                throw ConfigurationError(
                    file: path, path: "",
                    problem: "expected a file only its owner and this user may read; its ACL"
                        + " (mode 0\(String(mode, radix: 8))) lets \(reader) read it")
            }
        }
        return String(decoding: try InputFile.read(path, limit: limit), as: UTF8.self)
    }
}

/// A file's POSIX access control list (`system.posix_acl_access`), as Linux stores it: a
/// little-endian version (2), then 8-byte entries of a tag, permissions and an id.
struct AccessControlList {
    /// One entry.
    struct Entry {
        var tag: UInt16
        var permissions: UInt16
        var id: UInt32
    }

    static let namedUser: UInt16 = 0x02
    static let owningGroup: UInt16 = 0x04
    static let namedGroup: UInt16 = 0x08
    static let mask: UInt16 = 0x10

    var entries: [Entry]

    /// The ACL of the file at `path`; nil when it has none or it is not one.
    init?(path: String) {
        var bytes = [UInt8](repeating: 0, count: 4 + 8 * 64)
        let count = getxattr(path, "system.posix_acl_access", &bytes, bytes.count)
        guard count >= 4, (count - 4) % 8 == 0 else { return nil }
        func word(_ at: Int, _ size: Int) -> UInt32 {
            (0..<size).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
        }
        guard word(0, 4) == 2 else { return nil }
        entries = stride(from: 4, to: count, by: 8).map { at in
            Entry(
                tag: UInt16(word(at, 2)), permissions: UInt16(word(at + 2, 2)),
                id: word(at + 4, 4))
        }
    }

    /// Who, besides the owner and `user`, the list lets read the file (`group`, `group 5`,
    /// `user 1000`); nil for nobody. The mask limits every entry but the owner's.
    func otherReader(than user: uid_t) -> String? {
        let mask = entries.first { $0.tag == Self.mask }?.permissions ?? 0o7
        for entry in entries where entry.permissions & mask != 0 {
            switch entry.tag {
            case Self.owningGroup: return "its group"
            case Self.namedGroup: return "group \(entry.id)"
            case Self.namedUser where entry.id != user: return "user \(entry.id)"
            default: continue
            }
        }
        return nil
    }
}
