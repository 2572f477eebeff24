import Locking
import Units

/// CPU frequency throttling from `devices/system/cpu/cpufreq/policy*` and
/// `cpu*/thermal_throttle/*_throttle_count`.
///
/// The files are found once per ``rescanInterval`` (or after a read fails) and kept open.
public final class CPUFrequencySource: ThrottlingSource {
    /// Where `/sys` is.
    public let roots: SystemRoots
    /// Seconds between rediscoveries of policies and counters.
    public let rescanInterval: Duration
    private struct PolicyFiles {
        var name: String
        var current, cap, maximum: SysfsValueFile
    }
    private struct State {
        var policies: [PolicyFiles] = []
        var counters: [SysfsValueFile] = []
        var schedule: DiscoverySchedule
    }
    private let state: LockedState<State>
    /// What a sample says when there is nothing to read, built once.
    private let missing: SourceUnavailable

    /// A source reading under `roots`, rediscovering every `rescanInterval`.
    public init(roots: SystemRoots = SystemRoots(), rescanInterval: Duration = .seconds(60)) {
        self.roots = roots
        self.rescanInterval = rescanInterval
        self.state = LockedState(State(schedule: DiscoverySchedule(rescanInterval: rescanInterval)))
        self.missing = SourceUnavailable(
            source: .cpufreq, reason: "no cpufreq policies in \(roots.cpuDevices)/cpufreq")
    }

    /// Reads every policy that has all three frequency files.
    ///
    /// - Throws: ``SourceUnavailable`` when no policy can be read and no throttle counter exists.
    public func readThrottling(at time: MonotonicInstant) throws(SourceUnavailable)
        -> CPUThrottling
    {
        let roots = self.roots
        let result: CPUThrottling? = state.withLock { state in
            if state.schedule.isDiscoveryDue(at: time) {
                (state.policies, state.counters) = Self.discover(roots.cpuDevices)
                state.schedule.discovered(at: time)
            }
            guard let throttling = Self.read(state) else {
                state.schedule.forgetDiscovery()
                return nil
            }
            return throttling
        }
        guard let result, !result.policies.isEmpty || result.throttleEvents != nil else {
            throw missing
        }
        return result
    }

    /// The current values, or `nil` when a file failed (a CPU went offline): rediscover.
    private static func read(_ state: State) -> CPUThrottling? {
        do throws(SensorFault) {
            // One array, sized once: policies without a maximum are left out as they come.
            var policies: [CPUThrottling.Policy] = []
            policies.reserveCapacity(state.policies.count)
            for files in state.policies {
                let policy = CPUThrottling.Policy(
                    name: files.name, currentKHz: try files.current.readInteger(),
                    capKHz: try files.cap.readInteger(),
                    maximumKHz: try files.maximum.readInteger())
                if policy.maximumKHz > 0 { policies.append(policy) }
            }
            var events: Int?
            for counter in state.counters { events = (events ?? 0) + (try counter.readInteger()) }
            return CPUThrottling(policies: policies, throttleEvents: events)
        } catch {
            return nil
        }
    }

    private static func discover(_ base: String) -> ([PolicyFiles], [SysfsValueFile]) {
        var policies: [PolicyFiles] = []
        for policy in numberedEntries(in: base + "/cpufreq", prefix: "policy") {
            let path = "\(base)/cpufreq/\(policy.name)/"
            guard let current = try? SysfsValueFile(path: path + "scaling_cur_freq"),
                let cap = try? SysfsValueFile(path: path + "scaling_max_freq"),
                let maximum = try? SysfsValueFile(path: path + "cpuinfo_max_freq")
            else { continue }
            policies.append(
                PolicyFiles(name: policy.name, current: current, cap: cap, maximum: maximum))
        }
        var counters: [SysfsValueFile] = []
        for cpu in numberedEntries(in: base, prefix: "cpu") {
            for counter in ["core_throttle_count", "package_throttle_count"] {
                if let file = try? SysfsValueFile(
                    path: "\(base)/\(cpu.name)/thermal_throttle/\(counter)")
                {
                    counters.append(file)
                }
            }
        }
        return (policies, counters)
    }
}

extension CPUFrequencySource: QuietWatchable {
    /// Every policy's three files and the throttle counters, until the next discovery.
    func quietWatch(after time: MonotonicInstant) -> QuietWatch? {
        state.withLock { state in
            guard let until = state.schedule.nextDiscovery else { return nil }
            let files = state.policies.flatMap { [$0.current, $0.cap, $0.maximum] }
            return QuietWatch(files: files + state.counters, until: until)
        }
    }
}
