#if canImport(Glibc)
    import Glibc
#endif

/// The reserve's lock: every Headroom process on the machine takes it (`flock` on
/// `reserve.lock`) around each short change to the reserve — claiming a segment, creating or
/// removing a busy token, writing the manifest — so two processes never take the same segment.
/// Long work (allocating gigabytes, recording) happens outside it, announced by a busy token.
struct ReserveLock {
    let path: String

    /// Runs `body` holding the lock, waiting for another process to let go of it.
    func withLock<Result>(_ body: () throws(StorageError) -> Result) throws(StorageError)
        -> Result
    {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemCalls.failure(path, "open the reserve's lock") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SystemCalls.failure(path, "lock the reserve") }
        }
        return try body()
    }
}
