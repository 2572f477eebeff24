import CSpawn
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// A started child process, its exit watchable with `poll` through a pidfd (Linux 5.3 and
/// later; without one, ``exitDescriptor`` is -1 and callers poll in short slices).
final class WatchedChild {
    let pid: pid_t
    /// Readable once the child has exited; -1 when the kernel has no pidfds.
    let exitDescriptor: Int32
    private var status: Int32?

    init(pid: pid_t) {
        self.pid = pid
        self.exitDescriptor = headroom_pidfd_open(pid)
    }

    /// The child's wait status once it has exited (reaping it); with `wait`, blocks until then.
    func exitStatus(wait: Bool) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        while true {
            let result = waitpid(pid, &raw, wait ? 0 : WNOHANG)
            if result == pid {
                status = raw
                return raw
            }
            if result < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Ends the child's process group: SIGTERM while the child runs, SIGKILL after `grace`
    /// seconds if it has not exited, and SIGKILL to whatever of its group outlived it.
    func stop(grace: Double) {
        if exitStatus(wait: false) == nil {
            kill(-pid, SIGTERM)
            var watched = [pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)]
            let deadline = MonotonicClock.now().nanoseconds + UInt64(grace * 1e9)
            while exitStatus(wait: false) == nil {
                let now = MonotonicClock.now().nanoseconds
                guard now < deadline else { break }
                let slice = exitDescriptor >= 0 ? Int32((deadline - now) / 1_000_000 + 1) : 10
                _ = poll(&watched, exitDescriptor >= 0 ? 1 : 0, slice)
            }
            if exitStatus(wait: false) == nil {
                kill(-pid, SIGKILL)
                _ = exitStatus(wait: true)
            }
        }
        kill(-pid, SIGKILL)
    }

    func close() {
        if exitDescriptor >= 0 { _ = Glibc.close(exitDescriptor) }
    }
}
