import Files
import Units

/// Everything the sources read at one moment, before classification; one line of a trace.
public struct PressureSample: Hashable, Sendable, Codable {
    /// When it was taken, on the sampler's clock (in a trace, seconds since its origin: traces
    /// start near 0).
    public var time: MonotonicInstant
    /// Temperature sensors and cooling devices, stale ones included.
    public var sensors: [SensorReading]
    /// CPU frequency throttling, when cpufreq is available.
    public var throttling: CPUThrottling?
    /// PSI per resource; empty when PSI is unavailable.
    public var pressure: [PSIReading]
    /// The board's power and GPU signals; `nil` on a board that has none.
    public var board: BoardSignals?
    /// Sources that are unavailable on this host, each said once per sample.
    public var unavailable: [SourceUnavailable]
    /// Whether the values are simulated (a thermal model or a replayed trace).
    public var isSimulated: Bool

    /// A sample taken at `time`.
    public init(
        time: MonotonicInstant, sensors: [SensorReading] = [], throttling: CPUThrottling? = nil,
        pressure: [PSIReading] = [], board: BoardSignals? = nil,
        unavailable: [SourceUnavailable] = [], isSimulated: Bool = false
    ) {
        self.time = time
        self.sensors = sensors
        self.throttling = throttling
        self.pressure = pressure
        self.board = board
        self.unavailable = unavailable
        self.isSimulated = isSimulated
    }

    /// The temperature sensors (not cooling devices or other entries), stale ones included.
    public var temperatures: [SensorReading] { sensors.filter { $0.isTemperature } }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case time, sensors, throttling, pressure, board, unavailable, simulated
    }

    /// Decodes a trace line; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try container.decode(Double.self, forKey: .time)
        guard MonotonicInstant.representableSeconds.contains(seconds) else {
            throw decoder.invalidValue(
                CodingKeys.time, "expected seconds from 0 to 1.8e10, got \(seconds)")
        }
        time = MonotonicInstant(secondsSinceOrigin: seconds)
        sensors = try container.decodeIfPresent([SensorReading].self, forKey: .sensors) ?? []
        throttling = try container.decodeIfPresent(CPUThrottling.self, forKey: .throttling)
        pressure = try container.decodeIfPresent([PSIReading].self, forKey: .pressure) ?? []
        board = try container.decodeIfPresent(BoardSignals.self, forKey: .board)
        unavailable =
            try container.decodeIfPresent([SourceUnavailable].self, forKey: .unavailable) ?? []
        isSimulated = try container.decodeIfPresent(Bool.self, forKey: .simulated) ?? false
    }

    /// Encodes a trace line.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(sensors, forKey: .sensors)
        try container.encodeIfPresent(throttling, forKey: .throttling)
        try container.encode(pressure, forKey: .pressure)
        try container.encodeIfPresent(board, forKey: .board)
        try container.encode(unavailable, forKey: .unavailable)
        try container.encode(isSimulated, forKey: .simulated)
    }
}

extension SourceUnavailable: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case source, reason
    }

    /// Decodes `{"source", "reason"}`; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            source: try container.decode(SensorSourceKind.self, forKey: .source),
            reason: try container.decode(String.self, forKey: .reason))
    }

    /// Encodes `{"source", "reason"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(reason, forKey: .reason)
    }
}
