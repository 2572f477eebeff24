/// CPU frequency throttling in one sample: each cpufreq policy's current and capped frequency
/// against its hardware maximum, and Intel's thermal throttle event counters.
public struct CPUThrottling: Hashable, Sendable, Codable {
    /// One cpufreq policy (a group of CPUs sharing a clock).
    public struct Policy: Hashable, Sendable, Codable {
        /// The policy directory name, such as `policy0`.
        public var name: String
        /// `scaling_cur_freq` in kHz.
        public var currentKHz: Int
        /// `scaling_max_freq` in kHz: the cap the kernel (thermal cooling, power limits) sets.
        public var capKHz: Int
        /// `cpuinfo_max_freq` in kHz: the hardware maximum.
        public var maximumKHz: Int

        /// A policy running at `currentKHz`, capped at `capKHz`, of `maximumKHz`.
        public init(name: String, currentKHz: Int, capKHz: Int, maximumKHz: Int) {
            self.name = name
            self.currentKHz = currentKHz
            self.capKHz = capKHz
            self.maximumKHz = maximumKHz
        }

        /// `current / maximum`, 0…1.
        public var currentRatio: Double { ratio(currentKHz) }
        /// `cap / maximum`, 0…1: below 1 when the kernel limits the frequency.
        public var capRatio: Double { ratio(capKHz) }

        private func ratio(_ value: Int) -> Double {
            maximumKHz > 0 ? min(1, max(0, Double(value) / Double(maximumKHz))) : 1
        }
    }

    /// Every readable policy.
    public var policies: [Policy]
    /// The sum of `thermal_throttle/{core,package}_throttle_count` over CPUs, where present.
    public var throttleEvents: Int?

    /// Throttling made of `policies` and `throttleEvents`.
    public init(policies: [Policy], throttleEvents: Int?) {
        self.policies = policies
        self.throttleEvents = throttleEvents
    }

    /// The share of the maximum frequency taken away by the most limited policy's cap, 0…1.
    ///
    /// This, not the current frequency, is what signals throttling: an idle CPU runs slowly
    /// by choice, a capped one cannot run faster.
    public var throttledShare: Double {
        1 - (policies.map { $0.capRatio }.min() ?? 1)
    }

    /// The mean `current / maximum` over policies, 0…1 (1 without policies).
    public var currentRatio: Double {
        policies.isEmpty
            ? 1 : policies.map { $0.currentRatio }.reduce(0, +) / Double(policies.count)
    }

    /// The entries `sensors` and `status` list for this throttling state.
    public var sensorEntries: [SensorReading] {
        var entries = policies.map { policy in
            SensorReading(
                id: SensorID("cpufreq/\(policy.name)"), source: .cpufreq,
                label:
                    "\(policy.name) \(policy.currentKHz / 1000) MHz of \(policy.maximumKHz / 1000) MHz"
                    + (policy.capRatio < 1 ? ", capped at \(policy.capKHz / 1000) MHz" : ""),
                value: policy.currentRatio, unit: "ratio")
        }
        if let throttleEvents {
            entries.append(
                SensorReading(
                    id: "cpufreq/throttle_count", source: .cpufreq,
                    label: "thermal throttle events", value: Double(throttleEvents), unit: "events")
            )
        }
        return entries
    }
}
