/// One pressure reading as Telemetry exports it: plain numbers and names, so that Telemetry
/// does not depend on the Pressure module (whoever imports both converts a reading into this).
public struct PressureStatus: Sendable, Hashable {
    /// The overall level: 0 nominal, 1 fair, 2 serious, 3 critical, 4 shutdown.
    public var level: Int
    /// Each evaluated factor's own level, keyed by factor name (`systemTemperature`, …).
    public var factorLevels: [String: Int]
    /// Thermal headroom now (0 at baseline, 1 at the serious threshold); nil when unknown.
    public var headroom: Double?
    /// Thermal headroom forecast a few seconds ahead, same scale; nil when unknown.
    public var headroomForecast: Double?
    /// The share of the device budget sustainable now, 0…1; nil when unknown.
    public var sustainableShare: Double?
    /// Whether any value is simulated (thermal model or trace replay).
    public var isSimulated: Bool
    /// Every temperature sensor, stale ones included.
    public var sensors: [SensorSample]
    /// The reading as JSON, served verbatim on `/status`.
    public var json: String

    /// Creates a status; see the properties for units and ranges.
    public init(
        level: Int, factorLevels: [String: Int] = [:], headroom: Double? = nil,
        headroomForecast: Double? = nil, sustainableShare: Double? = nil,
        isSimulated: Bool = false, sensors: [SensorSample] = [], json: String = "{}"
    ) {
        self.level = level
        self.factorLevels = factorLevels
        self.headroom = headroom
        self.headroomForecast = headroomForecast
        self.sustainableShare = sustainableShare
        self.isSimulated = isSimulated
        self.sensors = sensors
        self.json = json
    }
}
