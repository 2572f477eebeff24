import Units

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
        public var currentRatio: Share { share(currentKHz) }
        /// `cap / maximum`, 0…1: below 1 when the kernel limits the frequency.
        public var capRatio: Share { share(capKHz) }

        private func share(_ value: Int) -> Share {
            maximumKHz > 0 ? Share(fraction: Double(value) / Double(maximumKHz)).clamped : .whole
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
    public var throttledShare: Share {
        .whole - (policies.map(\.capRatio).min() ?? .whole)
    }

    /// The mean `current / maximum` over policies, 0…1 (1 without policies).
    public var currentRatio: Share {
        policies.isEmpty
            ? .whole : policies.map(\.currentRatio).reduce(.zero, +) * (1 / Double(policies.count))
    }

    /// The entries `sensors` and `status` list for this throttling state.
    public var sensorEntries: [SensorReading] {
        var entries = policies.map { policy in
            SensorReading(
                id: SensorID("cpufreq/\(policy.name)"), source: .cpufreq,
                label:
                    "\(policy.name) \(policy.currentKHz / 1000) MHz of \(policy.maximumKHz / 1000) MHz"
                    + (policy.capRatio < 1 ? ", capped at \(policy.capKHz / 1000) MHz" : ""),
                value: policy.currentRatio.fraction, unit: "ratio")
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
