import Governor
import Pressure

/// The host's state as the bridge publishes it on `PREFIX/NODE/state`: what Home Assistant's
/// entities read with `value_json.FIELD`. Numbers are rounded to what a person reads (0.1 °C,
/// 0.01 of headroom, 1 %), so that a state is published when something a person would see
/// changed, not at every sample. A value the host cannot give is `null` (never 0).
public struct HostStateDocument: Encodable, Hashable, Sendable {
    /// The pressure level's name.
    public var level: String
    /// Whether the CPU is throttled now: the throttling factor above nominal, or the
    /// firmware throttling or capping the ARM.
    public var throttled: Bool
    /// Whether the supply is under-voltage now; `null` on a board without a supply signal.
    public var underVoltage: Bool?
    /// The hottest temperature read, in °C; `null` without a thermal sensor that answered.
    public var temperatureCelsius: Double?
    /// Thermal headroom now (1.0 at the serious threshold); `null` without thermal sensors.
    public var headroom: Double?
    /// Headroom forecast `forecastSeconds` ahead; `null` until the trend is known.
    public var headroomForecast: Double?
    /// How far ahead the forecast looks.
    public var forecastSeconds: Double
    /// The share of the budget sustainable now, in percent; `null` should it not be a number.
    public var sustainablePercent: Double?
    /// The board's power, the largest readable rail, in watts; `null` without power rails.
    public var powerWatts: Double?
    /// Whether any value is simulated (the thermal model or a replayed trace).
    public var simulated: Bool
    /// Each factor above nominal, most severe first: `kind: detail (level)`.
    public var factors: [String]

    enum CodingKeys: String, CodingKey {
        case level, throttled, headroom, simulated, factors
        case underVoltage = "under_voltage"
        case temperatureCelsius = "temperature_c"
        case headroomForecast = "headroom_forecast"
        case forecastSeconds = "forecast_seconds"
        case sustainablePercent = "sustainable_percent"
        case powerWatts = "power_w"
    }

    /// The state `reading` describes.
    public init(_ reading: PressureReading) {
        level = reading.level.name
        let firmware = reading.board?.firmware
        throttled =
            reading.factors.contains { $0.kind == .cpuThrottling && $0.level > .nominal }
            || firmware?.isActive(.throttled) == true
            || firmware?.isActive(.armFrequencyCapped) == true
        underVoltage = reading.board.flatMap { board in
            board.hasSupplySignal ? board.supplyFactor.map { $0.level > .nominal } : nil
        }
        // A value that is not a number is unknown, never published as "NaN".
        temperatureCelsius = reading.sensors.compactMap { $0.celsius?.value }.max()
            .flatMap(Self.known).map { Self.rounded($0, decimals: 1) }
        headroom = Self.known(reading.headroom.current).map { Self.rounded($0, decimals: 2) }
        headroomForecast = Self.known(reading.headroom.forecast).map {
            Self.rounded($0, decimals: 2)
        }
        forecastSeconds = reading.headroom.forecastSeconds
        sustainablePercent = Self.known(reading.sustainableShare.fraction).map {
            Self.rounded($0 * 100, decimals: 0)
        }
        powerWatts = reading.board?.rails.compactMap { $0.fault == nil ? $0.watts : nil }.max()
            .flatMap(Self.known).map { Self.rounded($0, decimals: 1) }
        simulated = reading.simulated
        factors = reading.factors.filter { $0.level > .nominal }.map {
            "\($0.kind.rawValue): \($0.detail) (\($0.level.name))"
        }
    }

    /// Encodes every field, an unknown value as `null` (a template reading it gets `None`,
    /// which Home Assistant shows as unknown, rather than a missing key).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(level, forKey: .level)
        try container.encode(throttled, forKey: .throttled)
        try container.encode(underVoltage, forKey: .underVoltage)
        try container.encode(temperatureCelsius, forKey: .temperatureCelsius)
        try container.encode(headroom, forKey: .headroom)
        try container.encode(headroomForecast, forKey: .headroomForecast)
        try container.encode(forecastSeconds, forKey: .forecastSeconds)
        try container.encode(sustainablePercent, forKey: .sustainablePercent)
        try container.encode(powerWatts, forKey: .powerWatts)
        try container.encode(simulated, forKey: .simulated)
        try container.encode(factors, forKey: .factors)
    }

    private static func known(_ value: Double) -> Double? { value.isFinite ? value : nil }

    /// `value` to `decimals` places, as the nearest double to the decimal (61.3, not
    /// 61.300000000000004).
    private static func rounded(_ value: Double, decimals: Int) -> Double {
        let scale = (0..<decimals).reduce(1.0) { scale, _ in scale * 10 }
        return (value * scale).rounded() / scale
    }
}

/// One registered client as the bridge publishes it on `PREFIX/NODE/clients`, under its key.
public struct ClientStateDocument: Encodable, Hashable, Sendable {
    /// The name it registered with.
    public var name: String
    /// Its id in API v1.
    public var id: String
    /// Its priority (higher keeps quality longer).
    public var priority: Int
    /// The frame rate advised now.
    public var advisedRate: Double
    /// The ladder step advised now (0 is full quality) and its name.
    public var ladderStep: Int
    /// The ladder step's name.
    public var ladderName: String
    /// Whether it is advised to pause (rate 0).
    public var paused: Bool
    /// Why, in words.
    public var reason: String

    enum CodingKeys: String, CodingKey {
        case name, id, priority, paused, reason
        case advisedRate = "advised_rate"
        case ladderStep = "ladder_step"
        case ladderName = "ladder_name"
    }

    /// The state of `client`.
    public init(_ client: HostGovernor.ClientSummary) {
        name = client.registration.name
        id = client.id.rawValue
        priority = client.registration.priority
        advisedRate = (client.advice.frameRate.framesPerSecond * 100).rounded() / 100
        ladderStep = client.advice.ladderStep
        ladderName = client.advice.ladderName
        paused = client.advice.frameRate.framesPerSecond == 0
        reason = client.advice.reason
    }
}
