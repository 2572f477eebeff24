import Files

/// One supply voltage a board reports: a value (`inN_input`) and, on a Raspberry Pi, the
/// firmware's under-voltage alarm (`rpi_volt`'s `in0_lcrit_alarm`).
public struct SupplyVoltage: Hashable, Sendable {
    /// `chip/channel`, such as `rpi_volt/in0` or `rp1_adc/in1`.
    public var id: SensorID
    /// The channel's label, or the channel.
    public var label: String
    /// The voltage, volts; `nil` where the chip reports only an alarm.
    public var volts: Double?
    /// Whether the voltage is below its critical minimum now (`inN_lcrit_alarm`).
    public var underVoltageAlarm: Bool?
    /// Why it could not be read; `nil` when it was.
    public var fault: SensorFault?

    /// A supply voltage; give a `fault` for a stale one.
    public init(
        id: SensorID, label: String, volts: Double? = nil, underVoltageAlarm: Bool? = nil,
        fault: SensorFault? = nil
    ) {
        self.id = id
        self.label = label
        self.volts = volts
        self.underVoltageAlarm = underVoltageAlarm
        self.fault = fault
    }
}

extension SupplyVoltage: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, label, volts, underVoltageAlarm, fault
    }

    /// Decodes the trace / `status --json` form; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(SensorID.self, forKey: .id)
        label = try container.decode(String.self, forKey: .label)
        volts = try container.decodeIfPresent(Double.self, forKey: .volts)
        underVoltageAlarm = try container.decodeIfPresent(Bool.self, forKey: .underVoltageAlarm)
        fault = try container.decodeIfPresent(String.self, forKey: .fault).map(SensorFault.other)
    }

    /// Encodes the known values (a stale one's reason as `fault`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(volts, forKey: .volts)
        try container.encodeIfPresent(underVoltageAlarm, forKey: .underVoltageAlarm)
        try container.encodeIfPresent(fault?.description, forKey: .fault)
    }
}
