import Testing

@testable import Pressure

@Suite struct CPUFrequencySourceTests {
    @Test func readsPoliciesAndThrottleCounters() throws {
        let tree = try FixtureTree()
        for (policy, cap) in [(0, 3_000_000), (1, 2_250_000)] {
            let path = "devices/system/cpu/cpufreq/policy\(policy)"
            try tree.write("\(path)/scaling_cur_freq", "1500000")
            try tree.write("\(path)/scaling_max_freq", String(cap))
            try tree.write("\(path)/cpuinfo_max_freq", "3000000")
        }
        try tree.write("devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", "4")
        try tree.write("devices/system/cpu/cpu0/thermal_throttle/package_throttle_count", "1")
        try tree.write("devices/system/cpu/cpu1/thermal_throttle/core_throttle_count", "2")

        let throttling = try CPUFrequencySource(roots: SystemRoots(sysfs: tree.root))
            .readThrottling(at: .origin)

        #expect(throttling.policies.map(\.name) == ["policy0", "policy1"])
        #expect(throttling.currentRatio == 0.5)
        #expect(throttling.throttledShare == 0.25)
        #expect(throttling.throttleEvents == 7)
        #expect(
            throttling.sensorEntries.map(\.id) == [
                "cpufreq/policy0", "cpufreq/policy1", "cpufreq/throttle_count",
            ])
        #expect(throttling.sensorEntries.allSatisfy { $0.source == .cpufreq })
    }

    @Test func aHostWithoutCpufreqIsUnavailable() throws {
        let tree = try FixtureTree()
        #expect(throws: SourceUnavailable.self) {
            try CPUFrequencySource(roots: SystemRoots(sysfs: tree.root)).readThrottling(at: .origin)
        }
    }
}
