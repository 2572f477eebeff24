import Files
import LaunchTiming
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// ffmpeg as a child process, the way the video source and encoder start it: found in `PATH`
/// (or given), with one end piped to us and its standard error collected as it writes (on a
/// thread of its own), so its own message can explain a failure.
final class FFmpegProcess: Sendable {
    /// Which of ffmpeg's standard streams is piped to us.
    enum Direction {
        /// We read what ffmpeg writes on its standard output (decoding).
        case reading
        /// We write what ffmpeg reads on its standard input (encoding).
        case writing
    }

    let child: ChildProcess
    /// Our end of the pipe: the read end when ``Direction/reading``, else the write end.
    let descriptor: Int32
    /// What ffmpeg has said on its standard error, most recent last.
    let errors = ErrorTail()
    /// Whether ``descriptor`` is still open: it is closed once, by ``closePipe()``.
    private let isPipeOpen = LockedState(true)
    /// Delivered once ffmpeg's standard error has ended (it exited, or closed it).
    private let errorsEnded = Completion<Void>()

    /// Starts ffmpeg with `arguments`.
    ///
    /// - Parameters:
    ///   - doing: what ffmpeg is started for (`decoding video`), for the error messages.
    ///   - failure: makes the error thrown, from its problem text.
    /// - Throws: `failure`'s error when ffmpeg is not found or cannot start.
    init(
        _ arguments: [String], direction: Direction, executable: String?, doing: String,
        failure: (String) -> ConfigurationError
    ) throws(ConfigurationError) {
        guard let executable = executable ?? ExecutableSearch.find("ffmpeg") else {
            throw failure(
                "\(doing) needs ffmpeg, which is not in PATH (Debian: apt-get install ffmpeg)")
        }
        do {
            child = try ChildProcess(
                executable: executable,
                arguments: ["-nostdin", "-hide_banner", "-loglevel", "error"] + arguments,
                input: direction == .writing ? .pipe : .null,
                output: direction == .reading ? .pipe : .null, errors: .pipe)
        } catch {
            throw failure(error.description)
        }
        descriptor = (direction == .reading ? child.output : child.input) ?? -1
        let (errors, errorsEnded, source) = (errors, errorsEnded, child.errors ?? -1)
        DetachedThread.start(name: "headroom-ffmpeg") {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(source, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                errors.append(buffer[..<count])
            }
            close(source)
            errorsEnded.complete(())
        }
    }

    deinit { closePipe() }

    /// ffmpeg's exit status once it has exited (see ``ChildProcess/exitStatus``).
    var exitStatus: Int32? { child.exitStatus }

    /// Stops ffmpeg: SIGTERM, then SIGKILL if it has not exited within `grace`; returns once
    /// it has exited.
    func stop(grace: Duration = .seconds(2)) {
        child.stop(grace: grace)
    }

    /// Closes our end of the pipe, once: a number closed twice may by then be someone else's.
    func closePipe() {
        let wasOpen = isPipeOpen.withLock { open in
            defer { open = false }
            return open
        }
        if wasOpen { close(descriptor) }
    }

    /// Waits for ffmpeg to exit and returns everything it said.
    func finishedErrors() -> String {
        child.waitForExit()
        errorsEnded.wait()
        return errors.text
    }
}

/// The last few KiB a child process wrote to its standard error, collected as it writes.
final class ErrorTail: Sendable {
    private let bytes = LockedState<[UInt8]>([])

    func append(_ data: some Collection<UInt8>) {
        bytes.withLock { bytes in
            bytes.append(contentsOf: data)
            if bytes.count > 4096 { bytes.removeFirst(bytes.count - 4096) }
        }
    }

    /// What was written, trimmed, on one line.
    var text: String {
        String(decoding: bytes.withLock { $0 }, as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
