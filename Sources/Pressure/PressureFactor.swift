/// One reason for the pressure level: what it measures, its own level and the value behind it.
public struct PressureFactor: Hashable, Sendable, Codable {
    /// What a factor measures.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The hottest non-camera temperature sensor.
        case systemTemperature
        /// The hottest sensor labelled as a camera.
        case cameraTemperature
        /// CPU frequency capped below its maximum, or throttle events.
        case cpuThrottling
        /// CPU pressure stall.
        case cpuPressure
        /// Memory pressure stall.
        case memoryPressure
        /// I/O pressure stall.
        case ioPressure
    }

    /// What the factor measures.
    public var kind: Kind
    /// The factor's own level, after hysteresis.
    public var level: PressureLevel
    /// The value behind the level: °C, a share of the maximum frequency, or percent stalled.
    public var value: Double
    /// The unit of ``value``: `celsius`, `ratio` or `percent`.
    public var unit: String
    /// The sensor that decided a temperature factor.
    public var sensor: SensorID?
    /// A human explanation, such as `Package id 0 at +86.0 °C ≥ high +85.0 °C`.
    public var detail: String

    /// A factor of `kind` at `level`.
    public init(
        kind: Kind, level: PressureLevel, value: Double, unit: String, sensor: SensorID? = nil,
        detail: String
    ) {
        self.kind = kind
        self.level = level
        self.value = value
        self.unit = unit
        self.sensor = sensor
        self.detail = detail
    }
}
