import Units

/// A backend that reads CPU frequency throttling; tests use a fixture implementation.
public protocol ThrottlingSource: Sendable {
    /// Reads the throttling state at `time`, on the sampler's clock.
    ///
    /// - Throws: ``SourceUnavailable`` when the host has no cpufreq at all.
    func readThrottling(at time: MonotonicInstant) throws(SourceUnavailable) -> CPUThrottling
}
