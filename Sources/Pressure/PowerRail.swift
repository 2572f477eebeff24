import Files

/// One power rail of a current monitor (INA3221, INA238): voltage, current, power, and the
/// limits and alarms the chip enforces.
///
/// A rail over its warning limit raises the `peakPower` factor to `serious`, a critical alarm
/// to `critical`. Values the chip does not report are `nil`; a rail whose files fail is stale
/// (``fault``), never 0 W.
public struct PowerRail: Hashable, Sendable {
    /// `chip/channel`, such as `ina3221-1-0040/in1`.
    public var id: SensorID
    /// The rail's name from the board (`VDD_IN`, `VDD_CPU_GPU_CV`), or the channel.
    public var label: String
    /// Bus voltage, volts.
    public var volts: Double?
    /// Current, amperes.
    public var amperes: Double?
    /// Power, watts: the chip's own figure where it has one, else volts × amperes.
    public var watts: Double?
    /// The warning current limit (`currN_max`), amperes.
    public var warningAmperes: Double?
    /// The critical current limit (`currN_crit`), amperes.
    public var criticalAmperes: Double?
    /// The warning power limit (`powerN_max`), watts.
    public var warningWatts: Double?
    /// Whether the chip raises its warning alarm (`currN_max_alarm`, `powerN_max_alarm`).
    public var warningAlarm: Bool?
    /// Whether the chip raises its critical alarm (`currN_crit_alarm`).
    public var criticalAlarm: Bool?
    /// Why the rail could not be read; `nil` when it was.
    public var fault: SensorFault?

    /// A rail; leave the values `nil` and give a `fault` for a stale one.
    public init(
        id: SensorID, label: String, volts: Double? = nil, amperes: Double? = nil,
        watts: Double? = nil, warningAmperes: Double? = nil, criticalAmperes: Double? = nil,
        warningWatts: Double? = nil, warningAlarm: Bool? = nil, criticalAlarm: Bool? = nil,
        fault: SensorFault? = nil
    ) {
        self.id = id
        self.label = label
        self.volts = volts
        self.amperes = amperes
        self.watts = watts
        self.warningAmperes = warningAmperes
        self.criticalAmperes = criticalAmperes
        self.warningWatts = warningWatts
        self.warningAlarm = warningAlarm
        self.criticalAlarm = criticalAlarm
        self.fault = fault
    }

    /// Whether the rail is at or over a warning limit: the chip's alarm, or the current or
    /// power measured against the limit.
    public var isOverWarning: Bool {
        if warningAlarm == true { return true }
        if let amperes, let warningAmperes, amperes >= warningAmperes { return true }
        if let watts, let warningWatts, watts >= warningWatts { return true }
        return false
    }

    /// Whether the chip raises its critical alarm, or the current is at the critical limit.
    public var isOverCritical: Bool {
        if criticalAlarm == true { return true }
        if let amperes, let criticalAmperes, amperes >= criticalAmperes { return true }
        return false
    }
}

extension PowerRail: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, label, volts, amperes, watts, warningAmperes, criticalAmperes, warningWatts,
            warningAlarm, criticalAlarm, fault
    }

    /// Decodes the trace / `status --json` form; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(SensorID.self, forKey: .id)
        label = try container.decode(String.self, forKey: .label)
        volts = try container.decodeIfPresent(Double.self, forKey: .volts)
        amperes = try container.decodeIfPresent(Double.self, forKey: .amperes)
        watts = try container.decodeIfPresent(Double.self, forKey: .watts)
        warningAmperes = try container.decodeIfPresent(Double.self, forKey: .warningAmperes)
        criticalAmperes = try container.decodeIfPresent(Double.self, forKey: .criticalAmperes)
        warningWatts = try container.decodeIfPresent(Double.self, forKey: .warningWatts)
        warningAlarm = try container.decodeIfPresent(Bool.self, forKey: .warningAlarm)
        criticalAlarm = try container.decodeIfPresent(Bool.self, forKey: .criticalAlarm)
        fault = try container.decodeIfPresent(String.self, forKey: .fault).map(SensorFault.other)
    }

    /// Encodes the known values (a stale one's reason as `fault`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(volts, forKey: .volts)
        try container.encodeIfPresent(amperes, forKey: .amperes)
        try container.encodeIfPresent(watts, forKey: .watts)
        try container.encodeIfPresent(warningAmperes, forKey: .warningAmperes)
        try container.encodeIfPresent(criticalAmperes, forKey: .criticalAmperes)
        try container.encodeIfPresent(warningWatts, forKey: .warningWatts)
        try container.encodeIfPresent(warningAlarm, forKey: .warningAlarm)
        try container.encodeIfPresent(criticalAlarm, forKey: .criticalAlarm)
        try container.encodeIfPresent(fault?.description, forKey: .fault)
    }
}
