import Files

/// One sensor's state in one sample: its value and limits, or why it is stale.
///
/// Temperature sensors carry ``celsius`` and their limits; CPU-frequency and PSI entries carry
/// ``value`` in ``unit`` instead. A stale sensor has no value at all (never 0 °C) and a
/// ``fault`` saying why.
public struct SensorReading: Hashable, Sendable, Codable {
    /// The sensor's stable identifier.
    public var id: SensorID
    /// Where the value comes from.
    public var source: SensorSourceKind
    /// A human label, such as `Package id 0` or `x86_pkg_temp`.
    public var label: String
    /// The temperature; `nil` when stale or when this is not a temperature sensor.
    public var celsius: Celsius?
    /// The high limit `H` (hwmon `tempN_max`, or the first passive trip point), when known.
    public var high: Celsius?
    /// The critical limit `C` (hwmon `tempN_crit`, or the critical trip point), when known.
    public var critical: Celsius?
    /// The `hot` trip point of a thermal zone, when there is one.
    public var hot: Celsius?
    /// The hwmon emergency limit (`tempN_emergency`), when known; informative only.
    public var emergency: Celsius?
    /// The hysteresis the hardware declares for its trip points, when it declares one.
    public var hysteresis: Celsius?
    /// Whether the chip raises its alarm flag (`tempN_alarm`), when it has one.
    public var alarm: Bool?
    /// The value of a non-temperature entry (a frequency ratio, a PSI percentage).
    public var value: Double?
    /// The unit of ``value``, such as `ratio` or `percent`.
    public var unit: String?
    /// Why the sensor is stale; `nil` when it gave a value.
    public var fault: SensorFault?

    /// Creates a reading; leave the value `nil` and give a `fault` for a stale sensor.
    public init(
        id: SensorID, source: SensorSourceKind, label: String, celsius: Celsius? = nil,
        high: Celsius? = nil, critical: Celsius? = nil, hot: Celsius? = nil,
        emergency: Celsius? = nil, hysteresis: Celsius? = nil, alarm: Bool? = nil,
        value: Double? = nil, unit: String? = nil, fault: SensorFault? = nil
    ) {
        self.id = id
        self.source = source
        self.label = label
        self.celsius = celsius
        self.high = high
        self.critical = critical
        self.hot = hot
        self.emergency = emergency
        self.hysteresis = hysteresis
        self.alarm = alarm
        self.value = value
        self.unit = unit
        self.fault = fault
    }

    /// Whether the sensor could not be read in this sample.
    public var isStale: Bool { fault != nil }

    /// Whether this entry is a temperature sensor (stale or not).
    public var isTemperature: Bool { unit == nil }

    /// This reading made stale for `fault`, keeping its identity and limits.
    public func stale(_ fault: SensorFault) -> SensorReading {
        var copy = self
        copy.celsius = nil
        copy.value = nil
        copy.alarm = nil
        copy.fault = fault
        return copy
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, source, label, celsius, high, critical, hot, emergency, hysteresis, alarm
        case value, unit, stale, staleReason
    }

    /// Decodes the `status --json` / trace form; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(SensorID.self, forKey: .id)
        source = try container.decode(SensorSourceKind.self, forKey: .source)
        label = try container.decodeIfPresent(String.self, forKey: .label) ?? id.rawValue
        celsius = try container.decodeIfPresent(Celsius.self, forKey: .celsius)
        high = try container.decodeIfPresent(Celsius.self, forKey: .high)
        critical = try container.decodeIfPresent(Celsius.self, forKey: .critical)
        hot = try container.decodeIfPresent(Celsius.self, forKey: .hot)
        emergency = try container.decodeIfPresent(Celsius.self, forKey: .emergency)
        hysteresis = try container.decodeIfPresent(Celsius.self, forKey: .hysteresis)
        alarm = try container.decodeIfPresent(Bool.self, forKey: .alarm)
        value = try container.decodeIfPresent(Double.self, forKey: .value)
        unit = try container.decodeIfPresent(String.self, forKey: .unit)
        let isStale = try container.decodeIfPresent(Bool.self, forKey: .stale) ?? false
        let reason = try container.decodeIfPresent(String.self, forKey: .staleReason)
        fault = isStale ? .other(reason ?? "stale") : nil
        if !isStale, celsius == nil, value == nil {
            throw decoder.invalidValue(
                CodingKeys.celsius, "expected a number (or \"stale\": true), got nothing")
        }
    }

    /// Encodes every field `status --json` promises, with `null` for unknown values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(source, forKey: .source)
        try container.encode(label, forKey: .label)
        try container.encode(celsius, forKey: .celsius)
        try container.encode(high, forKey: .high)
        try container.encode(critical, forKey: .critical)
        try container.encodeIfPresent(hot, forKey: .hot)
        try container.encodeIfPresent(emergency, forKey: .emergency)
        try container.encodeIfPresent(hysteresis, forKey: .hysteresis)
        try container.encodeIfPresent(alarm, forKey: .alarm)
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(unit, forKey: .unit)
        try container.encode(isStale, forKey: .stale)
        try container.encodeIfPresent(fault.map(\.description), forKey: .staleReason)
    }
}
