/// A backend that reads CPU frequency throttling; tests use a fixture implementation.
public protocol ThrottlingSource: Sendable {
    /// Reads the current throttling state.
    ///
    /// - Throws: ``SourceUnavailable`` when the host has no cpufreq at all.
    func readThrottling() throws(SourceUnavailable) -> CPUThrottling
}
