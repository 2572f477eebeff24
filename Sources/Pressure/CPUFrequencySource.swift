/// CPU frequency throttling from `devices/system/cpu/cpufreq/policy*` and
/// `cpu*/thermal_throttle/*_throttle_count`.
public struct CPUFrequencySource: ThrottlingSource {
    /// Where `/sys` is.
    public var roots: SystemRoots

    /// A source reading under `roots`.
    public init(roots: SystemRoots = SystemRoots()) {
        self.roots = roots
    }

    /// Reads every policy that has all three frequency files.
    ///
    /// - Throws: ``SourceUnavailable`` when no policy can be read and no throttle counter exists.
    public func readThrottling() throws(SourceUnavailable) -> CPUThrottling {
        let base = roots.cpuDevices
        var policies: [CPUThrottling.Policy] = []
        for policy in numberedEntries(in: base + "/cpufreq", prefix: "policy") {
            let path = "\(base)/cpufreq/\(policy.name)/"
            guard let current = try? SysfsValueFile.readInteger(at: path + "scaling_cur_freq"),
                let cap = try? SysfsValueFile.readInteger(at: path + "scaling_max_freq"),
                let maximum = try? SysfsValueFile.readInteger(at: path + "cpuinfo_max_freq"),
                maximum > 0
            else { continue }
            policies.append(
                .init(name: policy.name, currentKHz: current, capKHz: cap, maximumKHz: maximum))
        }
        var events: Int?
        for cpu in numberedEntries(in: base, prefix: "cpu") {
            for counter in ["core_throttle_count", "package_throttle_count"] {
                if let count = try? SysfsValueFile.readInteger(
                    at: "\(base)/\(cpu.name)/thermal_throttle/\(counter)")
                {
                    events = (events ?? 0) + count
                }
            }
        }
        guard !policies.isEmpty || events != nil else {
            throw SourceUnavailable(
                source: .cpufreq, reason: "no cpufreq policies in \(base)/cpufreq")
        }
        return CPUThrottling(policies: policies, throttleEvents: events)
    }
}
