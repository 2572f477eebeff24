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
    /// The board's power and GPU signals (empty on a board without them).
    public var board: BoardStatus
    /// The reading as JSON, served verbatim on `/status`, made when first asked for.
    public var document: DeferredText

    /// The reading as JSON (``document``'s text).
    public var json: String { document.text }

    /// Creates a status; see the properties for units and ranges.
    public init(
        level: Int, factorLevels: [String: Int] = [:], headroom: Double? = nil,
        headroomForecast: Double? = nil, sustainableShare: Double? = nil,
        isSimulated: Bool = false, sensors: [SensorSample] = [], board: BoardStatus = BoardStatus(),
        json: String = "{}"
    ) {
        self.init(
            level: level, factorLevels: factorLevels, headroom: headroom,
            headroomForecast: headroomForecast, sustainableShare: sustainableShare,
            isSimulated: isSimulated, sensors: sensors, board: board,
            document: DeferredText(text: json))
    }

    /// Creates a status whose JSON is made when first asked for.
    public init(
        level: Int, factorLevels: [String: Int] = [:], headroom: Double? = nil,
        headroomForecast: Double? = nil, sustainableShare: Double? = nil,
        isSimulated: Bool = false, sensors: [SensorSample] = [], board: BoardStatus = BoardStatus(),
        document: DeferredText
    ) {
        self.level = level
        self.factorLevels = factorLevels
        self.headroom = headroom
        self.headroomForecast = headroomForecast
        self.sustainableShare = sustainableShare
        self.isSimulated = isSimulated
        self.sensors = sensors
        self.board = board
        self.document = document
    }
}

/// A board's power and GPU signals as exported: plain names and numbers in base units.
public struct BoardStatus: Sendable, Hashable {
    /// One firmware throttling condition (a Raspberry Pi's `get_throttled` bit pair).
    public struct FirmwareCondition: Sendable, Hashable {
        /// The condition, such as `under_voltage`.
        public var reason: String
        /// Whether it holds now.
        public var isActive: Bool
        /// Whether it has held since boot.
        public var hasOccurred: Bool

        /// A condition named `reason`.
        public init(reason: String, isActive: Bool, hasOccurred: Bool) {
            self.reason = reason
            self.isActive = isActive
            self.hasOccurred = hasOccurred
        }
    }

    /// Power per rail label, watts; stale rails are left out.
    public var railWatts: [String: Double]
    /// Voltage per sensor, volts; stale ones are left out.
    public var volts: [String: Double]
    /// The firmware's conditions; empty on boards without the firmware word.
    public var firmwareConditions: [FirmwareCondition]
    /// Busy share per GPU device, 0…1.
    public var gpuLoad: [String: Double]

    /// Signals with the given values (none by default).
    public init(
        railWatts: [String: Double] = [:], volts: [String: Double] = [:],
        firmwareConditions: [FirmwareCondition] = [], gpuLoad: [String: Double] = [:]
    ) {
        self.railWatts = railWatts
        self.volts = volts
        self.firmwareConditions = firmwareConditions
        self.gpuLoad = gpuLoad
    }
}
