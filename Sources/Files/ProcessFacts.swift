#if canImport(Glibc)
    import Glibc
#endif

/// What the process is told about itself by the system — its environment, the machine's name,
/// a name no other file will have — read from the C library, so that a module needs no
/// Foundation for them (`ProcessInfo` and `UUID` are FoundationEssentials').
public enum ProcessFacts {
    /// The process's environment, by variable name; of a name given twice, the later value
    /// (as `ProcessInfo.environment` keeps it).
    public static var environment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let text = entry.pointee {
            let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
            }
            entry += 1
        }
        return variables
    }

    /// The machine's host name, as `hostname` prints it (`gethostname`); nil when it cannot be
    /// read.
    public static var hostName: String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0, name[0] != 0 else { return nil }
        return String(
            decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The processors this process may use: those its CPU affinity allows (`Cpus_allowed_list`
    /// in `/proc/self/status`, as `taskset` or systemd's `CPUAffinity=` set it), fewer when its
    /// cgroup's CPU quota (`cpu.max`, systemd's `CPUQuota=`) is less (rounded up); the online
    /// processors when neither can be read; at least 1.
    public static var processorCount: Int {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let affinity = allowedProcessors ?? online
        return max(1, min(affinity, cgroupQuota ?? affinity))
    }

    /// How many processors `Cpus_allowed_list` names; nil when unreadable.
    private static var allowedProcessors: Int? {
        guard let status = try? InputFile.read("/proc/self/status", limit: 1 << 16),
            let line = String(decoding: status, as: UTF8.self).split(separator: "\n")
                .first(where: { $0.hasPrefix("Cpus_allowed_list:") })
        else { return nil }
        return processorCount(inList: line.dropFirst("Cpus_allowed_list:".count))
    }

    /// How many processors a Linux CPU list names (`0-3,6` is five, as `taskset`, cpusets and
    /// `/proc/self/status` write them); nil when it names none or is not one.
    public static func processorCount(inList list: some StringProtocol) -> Int? {
        var count = 0
        for range in list.split(separator: ",") {
            let bounds = range.split(separator: "-", omittingEmptySubsequences: false).map {
                Int($0.trimmingWhitespace())
            }
            guard (1...2).contains(bounds.count), let first = bounds.first ?? nil,
                let last = bounds.last ?? nil, 0 <= first, first <= last
            else { return nil }
            count += last - first + 1
        }
        return count > 0 ? count : nil
    }

    /// The CPU quota of this process's cgroup (v2) in processors, rounded up; nil when there
    /// is none (`max`) or it cannot be read.
    private static var cgroupQuota: Int? {
        guard let membership = try? InputFile.read("/proc/self/cgroup", limit: 1 << 16),
            let line = String(decoding: membership, as: UTF8.self).split(separator: "\n")
                .first(where: { $0.hasPrefix("0::") }),
            let limits = try? InputFile.read(
                "/sys/fs/cgroup\(line.dropFirst(3))/cpu.max", limit: 1 << 10)
        else { return nil }
        let fields = String(decoding: limits, as: UTF8.self).split(separator: " ")
        guard fields.count == 2, let quota = Int(fields[0]),
            let period = Int(fields[1].prefix { $0.isNumber }), quota > 0, period > 0
        else { return nil }
        return (quota + period - 1) / period
    }

    /// The machine's physical memory in bytes (`_SC_PHYS_PAGES` pages).
    public static var physicalMemory: UInt64 {
        UInt64(max(0, sysconf(Int32(_SC_PHYS_PAGES))))
            * UInt64(max(0, sysconf(Int32(_SC_PAGESIZE))))
    }

    /// 32 random lowercase hex digits (128 bits from the system's generator, `getrandom`): a
    /// part of a file name no other writer picks.
    public static func uniqueName() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (word: UInt64) in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.utf8.count) + digits
        }.joined()
    }
}
