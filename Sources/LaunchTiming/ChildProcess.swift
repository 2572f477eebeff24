import CSpawn
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// A program run as a child process (`posix_spawn`, in a process group of its own): each of
/// its standard streams a pipe to us or `/dev/null`, its exit waited for, with or without a
/// time limit, and its end forced. What ffmpeg's decoder and encoder and a measured launch are
/// started with — without Foundation's `Process`, which pulls in its internationalisation data.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe, whose other end is ours (``input``, ``output``, ``errors``).
        case pipe
    }

    /// The child's process id.
    public let pid: pid_t
    /// Our end of the child's standard input, when it is a pipe: we write, it reads.
    public let input: Int32?
    /// Our end of the child's standard output, when it is a pipe.
    public let output: Int32?
    /// Our end of the child's standard error, when it is a pipe.
    public let errors: Int32?
    private let exit: LockedState<Int32?>
    /// Readable once the child has exited (-1 without pidfds, before Linux 5.3).
    private let exitDescriptor: Int32

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments` (after its
    /// own name) and this process's environment.
    ///
    /// - Throws: ``ChildProcessError`` naming the program and why it could not start.
    public init(
        executable: String, arguments: [String], input: Stream = .null,
        output: Stream = .null, errors: Stream = .null
    ) throws(ChildProcessError) {
        var pipes: [[Int32]] = []
        func pipe(_ stream: Stream) throws(ChildProcessError) -> [Int32]? {
            guard stream == .pipe else { return nil }
            var ends: [Int32] = [-1, -1]
            guard headroom_pipe(&ends, 0) == 0 else {
                let reason = String(cString: strerror(errno))
                for end in pipes.joined() { _ = close(end) }
                throw ChildProcessError(program: executable, reason: "no pipe: \(reason)")
            }
            pipes.append(ends)
            return ends
        }
        let inputPipe = try pipe(input)
        let outputPipe = try pipe(output)
        let errorPipe = try pipe(errors)
        var pid: pid_t = 0
        let status = withCStrings([executable] + arguments) { argv in
            headroom_spawn_streams(
                &pid, executable, argv, environ, inputPipe?[0] ?? -1, outputPipe?[1] ?? -1,
                errorPipe?[1] ?? -1)
        }
        // The child's ends are the child's now (or nobody's).
        for ends in [inputPipe?[0], outputPipe?[1], errorPipe?[1]] {
            if let ends { _ = close(ends) }
        }
        guard status == 0 else {
            for end in [inputPipe?[1], outputPipe?[0], errorPipe?[0]] {
                if let end { _ = close(end) }
            }
            throw ChildProcessError(
                program: executable, reason: String(cString: strerror(status)))
        }
        self.pid = pid
        self.input = inputPipe?[1]
        self.output = outputPipe?[0]
        self.errors = errorPipe?[0]
        exit = LockedState(nil)
        exitDescriptor = headroom_pidfd_open(pid)
    }

    deinit {
        if exitDescriptor >= 0 { _ = close(exitDescriptor) }
    }

    /// The child's exit status — its exit code, or 128 + the signal that ended it — once it
    /// has exited, reaping it; nil while it runs.
    public var exitStatus: Int32? {
        // Only a wait that cannot block is made under the lock.
        exit.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &raw, WNOHANG) } while result < 0 && errno == EINTR
            guard result == pid else { return nil }
            let code =
                headroom_exited(raw) != 0
                ? headroom_exit_status(raw) : 128 + headroom_terminating_signal(raw)
            status = code
            return code
        }
    }

    /// Waits for the child to exit and returns its exit status (see ``exitStatus``).
    @discardableResult
    public func waitForExit() -> Int32 {
        while true {
            if let status = waitForExit(within: .seconds(3600)) { return status }
        }
    }

    /// Waits at most `limit` for the child to exit; its exit status, or nil when it still runs.
    public func waitForExit(within limit: Duration) -> Int32? {
        let (seconds, attoseconds) = limit.components
        var remaining = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        while remaining >= 0 {
            if let status = exitStatus { return status }
            // With a pidfd the wait ends when the child does; without, in 10 ms slices.
            let slice = exitDescriptor >= 0 ? remaining : min(10, remaining)
            var watched = [pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&watched, exitDescriptor >= 0 ? 1 : 0, Int32(clamping: slice))
            remaining -= max(slice, 1)
        }
        return exitStatus
    }

    /// Sends `signal` to the child's process group, unless the child has been reaped.
    public func send(_ signal: Int32) {
        exit.withLock { status in
            if status == nil { _ = kill(-pid, signal) }
        }
    }

    /// Ends the child: SIGTERM, then SIGKILL if it has not exited within `grace`; returns its
    /// exit status once it has.
    @discardableResult
    public func stop(grace: Duration) -> Int32 {
        if let status = exitStatus { return status }
        send(SIGTERM)
        if let status = waitForExit(within: grace) { return status }
        send(SIGKILL)
        return waitForExit()
    }

}

/// A program that could not be started as a child process.
public struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    /// The program.
    public var program: String
    /// Why it could not start.
    public var reason: String

    /// `cannot start ffmpeg: No such file or directory`.
    public var description: String { "cannot start \(program): \(reason)" }
}

/// Runs `body` with `strings` as a NULL-terminated C array.
func withCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
