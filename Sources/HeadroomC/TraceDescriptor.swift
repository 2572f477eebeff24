import LaunchTiming
import Synchronization
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// `HEADROOM_TRACE_FD`, when the program runs under `headroom launch measure`: events go there
/// as JSON lines (one `write` each, at most 4 KiB, so lines of several threads never mix).
///
/// A mark never harms the program: the descriptor is written only while it is still the pipe
/// `measure` gave (its identity, `HEADROOM_TRACE_ID`, checked before every line: a program
/// may close descriptor 3 and open its own file there); the pipe is non-blocking, so a full,
/// unread pipe drops the line (counted) instead of blocking; and a pipe whose reader is gone
/// returns an error instead of killing the program with SIGPIPE. Each of these returns
/// `HEADROOM_ERROR_IO` with what happened; the program goes on.
enum TraceDescriptor {
    /// The pipe `measure` gave: its number and identity.
    struct Pipe {
        let number: Int32
        let device: UInt64
        let inode: UInt64
    }

    /// The trace pipe, or nil when the program is not measured (no variables, or a
    /// descriptor that is not the pipe they name).
    static let given: Pipe? = {
        guard let text = getenv(TracedLaunch.descriptorVariable),
            let number = Int32(String(cString: text)), number >= 0,
            let identityText = getenv(TracedLaunch.identityVariable)
        else { return nil }
        let parts = String(cString: identityText).split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return nil }
        let pipe = Pipe(number: number, device: device, inode: inode)
        guard pipe.isStillThePipe else { return nil }
        // Non-blocking: a full pipe drops a line rather than stopping the program.
        let flags = fcntl(number, F_GETFL)
        if flags >= 0 { _ = fcntl(number, F_SETFL, flags | O_NONBLOCK) }
        return pipe
    }()

    /// The lines dropped because the pipe was full.
    static let dropped = Atomic<Int>(0)

    /// Why a line was not written.
    enum Failure: Error {
        /// The descriptor is no longer the trace pipe.
        case notThePipe
        /// The pipe is full (its reader does not read); the line is dropped.
        case full
        /// The name is not a phase's name (``PhaseNameRule``).
        case badName(String)
        /// The write failed (`errno`): the reader is gone (`EPIPE`), or another error.
        case failed(Int32)
    }

    /// Writes `{"ph":"B","name":"…","ts":µs}` for `name` now into `pipe`.
    static func write(_ phase: UInt8, _ name: UnsafePointer<CChar>, into pipe: Pipe)
        -> Result<Void, Failure>
    {
        let instant = MonotonicClock.now()
        guard let text = String(validatingCString: name) else {
            return .failure(.badName("expected UTF-8"))
        }
        if let problem = PhaseNameRule.problem(with: text) { return .failure(.badName(problem)) }
        guard pipe.isStillThePipe else { return .failure(.notThePipe) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TraceLineBuffer.lineLimit) {
            line in
            var length = 0
            func append(_ byte: UInt8) {
                line[length] = byte
                length += 1
            }
            func append(_ text: StaticString) {
                text.withUTF8Buffer { for byte in $0 { append(byte) } }
            }
            append("{\"ph\":\"")
            append(phase)
            append("\",\"name\":\"")
            // The name, JSON-escaped (it has no control characters: only quotes and
            // backslashes need escaping); within the limit, the line fits.
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    append(UInt8(ascii: "\\"))
                }
                append(byte)
            }
            append("\",\"ts\":")
            var microseconds = instant.nanoseconds / 1000
            var digits: (UInt64, Int) = (1, 1)
            while digits.0 * 10 <= microseconds {
                digits.0 *= 10
                digits.1 += 1
            }
            for _ in 0..<digits.1 {
                append(UInt8(ascii: "0") + UInt8(microseconds / digits.0))
                microseconds %= digits.0
                digits.0 /= 10
            }
            append("}\n")
            return writeWithoutSIGPIPE(
                UnsafeRawBufferPointer(start: line.baseAddress, count: length), to: pipe)
        }
    }

    /// One `write` of `bytes` (at most `PIPE_BUF`: all or nothing) with SIGPIPE blocked on
    /// this thread, and a SIGPIPE the write raised taken back, so a gone reader is an error.
    private static func writeWithoutSIGPIPE(_ bytes: UnsafeRawBufferPointer, to pipe: Pipe)
        -> Result<Void, Failure>
    {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        while true {
            let count = Glibc.write(pipe.number, bytes.baseAddress, bytes.count)
            if count == bytes.count { return .success(()) }
            let code = count < 0 ? errno : EIO
            if code == EINTR { continue }
            if code == EPIPE && !wasPending {
                var none = timespec()
                _ = sigtimedwait(&block, nil, &none)
            }
            if code == EAGAIN {
                dropped.add(1, ordering: .relaxed)
                return .failure(.full)
            }
            return .failure(.failed(code))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

extension TraceDescriptor.Pipe {
    /// Whether the descriptor still is the pipe: its device and inode as given.
    var isStillThePipe: Bool {
        var status = stat()
        return fstat(number, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
            && UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
