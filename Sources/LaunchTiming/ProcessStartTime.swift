import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Why the process start time could not be read.
public struct ProcessStartTimeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file that was read, normally `/proc/self/stat`.
    public var file: String
    /// What was wrong with it.
    public var problem: String

    /// Creates the error for `file`.
    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    /// `FILE: problem`.
    public var description: String { "\(file): \(problem)" }
}

/// When the kernel created this process, so that "process start → main" is measured rather
/// than assumed.
///
/// Linux records a process's start in `/proc/<pid>/stat` (field 22, `starttime`) in clock
/// ticks since boot on the boot-time clock; this converts it to a ``MonotonicInstant`` by
/// subtracting the time elapsed since then. The resolution is one clock tick (10 ms at the
/// usual `USER_HZ` of 100).
public enum ProcessStartTime {
    /// The start of the process whose `stat` file is at `statPath` (by default this process),
    /// on the monotonic clock.
    ///
    /// - Throws: ``ProcessStartTimeError`` when the file cannot be read or parsed.
    public static func read(statPath: String = "/proc/self/stat") throws(ProcessStartTimeError)
        -> MonotonicInstant
    {
        let text = try contents(of: statPath)
        let ticks = try startTicks(inStatLine: text, file: statPath)
        let ticksPerSecond = UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
        let startSinceBoot =
            ticks / ticksPerSecond * 1_000_000_000
            + ticks % ticksPerSecond * 1_000_000_000 / ticksPerSecond
        // Read both clocks back to back so the conversion error stays far below a tick.
        let monotonic = MonotonicClock.now().nanoseconds
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        let boot = UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
        let age = boot >= startSinceBoot ? boot - startSinceBoot : 0
        return MonotonicInstant(nanoseconds: monotonic >= age ? monotonic - age : 0)
    }

    /// The `starttime` field (clock ticks since boot) of a `/proc/<pid>/stat` line.
    ///
    /// The second field, the command name in parentheses, may itself contain spaces and
    /// parentheses, so fields are counted after its last `)`.
    ///
    /// - Throws: ``ProcessStartTimeError`` naming `file` when the line has no such field.
    public static func startTicks(
        inStatLine line: String, file: String = "/proc/self/stat"
    ) throws(ProcessStartTimeError) -> UInt64 {
        guard let close = line.lastIndex(of: ")") else {
            throw ProcessStartTimeError(file: file, problem: "expected \"pid (comm) ...\"")
        }
        // After the command come field 3 (state) onwards; starttime is field 22.
        let fields = line[line.index(after: close)...].split(separator: " ")
        let index = 22 - 3
        guard fields.count > index, let ticks = UInt64(fields[index]) else {
            throw ProcessStartTimeError(
                file: file, problem: "expected an integer starttime in field 22")
        }
        return ticks
    }

    private static func contents(of path: String) throws(ProcessStartTimeError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ProcessStartTimeError(file: path, problem: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress, 1024)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
