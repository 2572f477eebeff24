/// What the temperature part of a reading rests on.
public enum ThermalCoverage: String, Hashable, Sendable, Codable {
    /// At least one real temperature sensor gave a value.
    case measured
    /// Temperatures come from the thermal model or a replayed trace.
    case simulated
    /// The host has no thermal sensors: the level comes from PSI and throttling alone.
    case none
    /// Thermal sensors exist but every one is stale: the level comes from PSI and throttling.
    case stale
}
