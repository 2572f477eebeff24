#if canImport(Glibc)
    import Glibc
#endif

/// One busy reason held by a live process: a file in the reserve's `busy/` directory that its
/// owner keeps locked (`flock`) for as long as the work lasts.
///
/// The kernel drops the lock when the owner exits, however it exits (SIGKILL included), so a
/// token whose lock can be taken belongs to nobody: it is stale and is removed, and what it
/// guarded is recovered. Tokens are created, examined and removed only under the reserve's
/// lock, so a token is never seen between its creation and its `flock`.
final class BusyToken: Sendable {
    /// Why the reserve is busy.
    let reason: BusyReason
    /// The token's file name, `REASON.ID`.
    let name: String
    private let path: String
    private let descriptor: Int32

    /// Creates and locks the token `REASON.ID` in `directory`.
    init(_ reason: BusyReason, id: String, in directory: String) throws(StorageError) {
        self.reason = reason
        name = "\(reason.rawValue).\(id)"
        path = "\(directory)/\(name)"
        descriptor = open(path, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemCalls.failure(path, "create the busy token") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = SystemCalls.failure(path, "lock the busy token")
            close(descriptor)
            unlink(path)
            throw error
        }
    }

    /// Removes the token: the work it stood for is over.
    func release() {
        unlink(path)
        close(descriptor)
    }

    /// The reason a token file's name stands for, and whether its owner still runs.
    struct Found {
        /// The token's file name.
        var name: String
        /// What it says the reserve is busy with; `nil` for a name that is not a token.
        var reason: BusyReason?
        /// Whether a live process holds it.
        var isLive: Bool
    }

    /// Every token in `directory`, each checked for a live owner.
    static func scan(_ directory: String) -> [Found] {
        SystemCalls.names(in: directory).map { name in
            let reason = name.split(separator: ".").first.flatMap {
                BusyReason(rawValue: String($0))
            }
            let descriptor = open("\(directory)/\(name)", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { return Found(name: name, reason: reason, isLive: false) }
            defer { close(descriptor) }
            let isLive = flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
            return Found(name: name, reason: reason, isLive: isLive)
        }
    }
}
