#if canImport(Glibc)
    import Glibc
#endif

/// The listening Unix domain socket of a server on a path: created with mode 0660 so that the
/// socket's group may connect and nobody else, replacing a stale socket a killed server left,
/// never anything else; removed at the end only if the path still names the socket this
/// server made (not another instance's, bound there since).
struct UnixListenSocket: Sendable {
    /// The listening descriptor.
    let descriptor: Int32
    /// Where it was bound.
    let path: String
    /// The socket file's identity when bound: its device and inode.
    private let identity: (device: UInt64, inode: UInt64)

    /// A bound, listening socket at `path`.
    ///
    /// - Throws: ``HTTPServerError/unusableSocketPath(_:reason:)`` when the path is too long,
    ///   holds something that is not a socket, or a live server already listens there;
    ///   ``HTTPServerError/cannotStart(address:reason:)`` when the socket cannot be bound.
    init(_ path: String, backlog: UInt32) throws(HTTPServerError) {
        func unusable(_ reason: String) -> HTTPServerError {
            .unusableSocketPath(path, reason: reason)
        }
        func failure(_ reason: String) -> HTTPServerError {
            .cannotStart(address: "unix:\(path)", reason: reason)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !path.isEmpty, path.utf8.count < capacity else {
            throw unusable("expected a socket path of 1 to \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8)
            bytes[path.utf8.count] = 0
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw unusable("the path exists and is not a socket")
            }
            guard !Self.isListening(&address) else {
                throw unusable("another server is listening there")
            }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        var made = stat()
        guard bound == 0, lstat(path, &made) == 0, chmod(path, 0o660) == 0,
            listen(descriptor, Int32(backlog)) == 0
        else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            if bound == 0 { unlink(path) }
            throw failure(reason)
        }
        self.descriptor = descriptor
        self.path = path
        identity = (UInt64(made.st_dev), UInt64(made.st_ino))
    }

    /// Removes the socket file, if the path still names the one this server bound.
    func remove() {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK,
            UInt64(status.st_dev) == identity.device, UInt64(status.st_ino) == identity.inode
        else { return }
        unlink(path)
    }

    /// Whether a server accepts connections at `address`.
    private static func isListening(_ address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
