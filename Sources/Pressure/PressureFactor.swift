/// One reason for the pressure level: what it measures, its own level and the value behind it.
public struct PressureFactor: Hashable, Sendable, Codable {
    /// What a factor measures.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The hottest non-camera temperature sensor.
        case systemTemperature
        /// The hottest sensor labelled as a camera.
        case cameraTemperature
        /// The supply: a Raspberry Pi's under-voltage now (at least `serious`); "has occurred
        /// since boot" is reported at `nominal`.
        case powerSupply
        /// Power rails against their limits: over a warning limit `serious`, a critical-current
        /// alarm `critical` (Apple's name for this factor).
        case peakPower
        /// CPU frequency capped below its maximum, throttle events, or the firmware's cap.
        case cpuThrottling
        /// CPU pressure stall: contention, not danger.
        case cpuPressure
        /// Memory pressure stall (`full`): the machine cannot make progress.
        case memoryPressure
        /// I/O pressure stall: contention, not danger.
        case ioPressure

        /// The most this factor alone may raise the level to. CPU and IO PSI describe
        /// contention — a busy host, not a hot or failing one — so they stop at `fair` and
        /// `serious`, and CPU throttling at `serious`; `critical` and `shutdown` come only
        /// from temperature, power and memory full-stall.
        public var ceiling: PressureLevel {
            switch self {
            case .cpuPressure: .fair
            case .ioPressure, .cpuThrottling: .serious
            case .systemTemperature, .cameraTemperature, .powerSupply, .peakPower,
                .memoryPressure:
                .shutdown
            }
        }
    }

    /// What the factor measures.
    public var kind: Kind
    /// The factor's own level, after hysteresis.
    public var level: PressureLevel
    /// The value behind the level: °C, a share of the maximum frequency, percent stalled,
    /// watts, or a 0/1 flag.
    public var value: Double
    /// The unit of ``value``: `celsius`, `ratio`, `percent`, `watts` or `flag`.
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
