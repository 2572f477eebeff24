import CAccessControl
import Files
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Secret files: only their owner may read them, or an ACL such as systemd gives a credential
/// on tmpfs (`LoadCredential=`: root's 0400, and an entry for the service's user).
struct SecretFileTests {
    /// A file holding "s3cret" with `mode`, and `entries` (tag, permissions, id) as its ACL.
    func secret(mode: mode_t, acl entries: [(UInt16, UInt16, UInt32)] = []) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "secret-\(UUID().uuidString)"
        ).path
        try "s3cret\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, mode) == 0)
        if !entries.isEmpty {
            var bytes: [UInt8] = [2, 0, 0, 0]
            for (tag, permissions, id) in entries {
                bytes += [UInt8(tag & 0xff), UInt8(tag >> 8), UInt8(permissions), 0]
                bytes += (0..<4).map { UInt8((id >> (8 * $0)) & 0xff) }
            }
            try #require(
                setxattr(path, "system.posix_acl_access", bytes, bytes.count, 0) == 0,
                "setxattr: \(String(cString: strerror(errno)))")
        }
        return path
    }

    static let undefined = UInt32.max

    /// An ACL: the owner reads, its group and others nothing, `named` users read, mask `mask`.
    func acl(named users: [UInt32], mask: UInt16 = 4) -> [(UInt16, UInt16, UInt32)] {
        [(0x01, 4, Self.undefined)] + users.map { (0x02, 4, $0) }
            + [(0x04, 0, Self.undefined), (0x10, mask, Self.undefined), (0x20, 0, Self.undefined)]
    }

    @Test("mode 0600 and 0400 are read; a group or others that may read are refused by mode")
    func modes() throws {
        for mode: mode_t in [0o600, 0o400] {
            let path = try secret(mode: mode)
            defer { unlink(path) }
            #expect(try SecretFile.read(path, limit: 100) == "s3cret\n")
        }
        let open = try secret(mode: 0o644)
        defer { unlink(open) }
        #expect(throws: ConfigurationError.self) { try SecretFile.read(open, limit: 100) }
        do {
            _ = try SecretFile.read(open, limit: 100)
        } catch {
            #expect(error.description.hasSuffix("(mode 0600), got mode 0644"))
        }
    }

    @Test("systemd's credential on tmpfs: an ACL entry for this user is read, any other refused")
    func accessControlLists() throws {
        let me = geteuid()
        let mine = try secret(mode: 0o400, acl: acl(named: [me]))
        defer { unlink(mine) }
        #expect(try SecretFile.read(mine, limit: 100) == "s3cret\n")

        let theirs = try secret(mode: 0o400, acl: acl(named: [me + 1]))
        defer { unlink(theirs) }
        #expect {
            try SecretFile.read(theirs, limit: 100)
        } throws: { error in "\(error)".contains("lets user \(me + 1) read it") }

        var group = acl(named: [])
        group.insert((0x08, 4, 5), at: 2)
        let grouped = try secret(mode: 0o400, acl: group)
        defer { unlink(grouped) }
        #expect {
            try SecretFile.read(grouped, limit: 100)
        } throws: { error in "\(error)".contains("lets group 5 read it") }

        // A mask of nothing cancels every entry but the owner's.
        let masked = try secret(mode: 0o400, acl: acl(named: [me + 1], mask: 0))
        defer { unlink(masked) }
        #expect(try SecretFile.read(masked, limit: 100) == "s3cret\n")
    }
}
