import Files

/// What a board reports beyond temperatures in one sample: a Raspberry Pi's firmware
/// throttling word and under-voltage alarm, supply voltages, power rails, GPU activity.
///
/// Read by ``BoardSignalSource``; classified into the `powerSupply` and `peakPower` factors;
/// exported as `headroom_power_watts`, `headroom_voltage_volts`, `headroom_throttled` and
/// `headroom_gpu_load_ratio`.
public struct BoardSignals: Hashable, Sendable {
    /// The Raspberry Pi firmware throttling word; `nil` on other boards, or stale (see
    /// ``firmwareFault``).
    public var firmware: FirmwareThrottling?
    /// Why the firmware word could not be read, when the board has one.
    public var firmwareFault: SensorFault?
    /// Supply voltages and under-voltage alarms.
    public var voltages: [SupplyVoltage]
    /// Power rails of current monitors.
    public var rails: [PowerRail]
    /// GPUs with devfreq load and clock.
    public var gpus: [GPUActivity]

    /// Signals with the given values.
    public init(
        firmware: FirmwareThrottling? = nil, firmwareFault: SensorFault? = nil,
        voltages: [SupplyVoltage] = [], rails: [PowerRail] = [], gpus: [GPUActivity] = []
    ) {
        self.firmware = firmware
        self.firmwareFault = firmwareFault
        self.voltages = voltages
        self.rails = rails
        self.gpus = gpus
    }

    /// Whether the board reported nothing at all.
    public var isEmpty: Bool {
        firmware == nil && firmwareFault == nil && voltages.isEmpty && rails.isEmpty
            && gpus.isEmpty
    }

    /// Whether the board has a supply signal: the firmware word or an under-voltage alarm.
    public var hasSupplySignal: Bool {
        firmware != nil || firmwareFault != nil
            || voltages.contains { $0.underVoltageAlarm != nil }
    }

    /// The entries `sensors` and `status` list for these signals, each value in its unit.
    public var sensorEntries: [SensorReading] {
        var entries: [SensorReading] = []
        if firmware != nil || firmwareFault != nil {
            let entry = SensorReading(
                id: "firmware/get_throttled", source: .firmware,
                label: "Raspberry Pi firmware throttling", value: firmware.map { Double($0.word) },
                unit: "flags", fault: firmwareFault)
            entries.append(entry)
        }
        for voltage in voltages {
            if let alarm = voltage.underVoltageAlarm {
                entries.append(
                    SensorReading(
                        id: SensorID(voltage.id.rawValue + "_lcrit_alarm"), source: .hwmon,
                        label: "\(voltage.label) under-voltage alarm", value: alarm ? 1 : 0,
                        unit: "flag", fault: voltage.fault))
            }
            if voltage.volts != nil || voltage.underVoltageAlarm == nil {
                entries.append(
                    SensorReading(
                        id: voltage.id, source: .hwmon, label: voltage.label,
                        value: voltage.volts, unit: "volts", fault: voltage.fault))
            }
        }
        for rail in rails {
            for (suffix, value, unit) in [
                ("voltage", rail.volts, "volts"), ("current", rail.amperes, "amperes"),
                ("power", rail.watts, "watts"),
            ] where value != nil || rail.fault != nil {
                entries.append(
                    SensorReading(
                        id: SensorID("\(rail.id)/\(suffix)"), source: .hwmon,
                        label: "\(rail.label) \(suffix)", value: value, unit: unit,
                        fault: rail.fault))
            }
        }
        for gpu in gpus {
            if gpu.load != nil || gpu.fault != nil {
                entries.append(
                    SensorReading(
                        id: SensorID("devfreq/\(gpu.device)/load"), source: .devfreq,
                        label: "GPU load", value: gpu.load?.fraction, unit: "ratio",
                        fault: gpu.fault))
            }
            if gpu.hertz != nil || gpu.fault != nil {
                entries.append(
                    SensorReading(
                        id: SensorID("devfreq/\(gpu.device)/frequency"), source: .devfreq,
                        label: "GPU clock", value: gpu.hertz, unit: "hertz", fault: gpu.fault))
            }
        }
        return entries
    }
}

extension BoardSignals: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case firmware, firmwareFault, voltages, rails, gpus
    }

    /// Decodes the trace / `status --json` form; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        firmware = try container.decodeIfPresent(String.self, forKey: .firmware).map {
            text in
            do throws(SensorFault) {
                return try FirmwareThrottling(parsing: text)
            } catch {
                throw decoder.invalidValue(
                    CodingKeys.firmware, "expected a hexadecimal word such as 0x50005, got \(text)")
            }
        }
        firmwareFault = try container.decodeIfPresent(String.self, forKey: .firmwareFault).map(
            SensorFault.other)
        voltages = try container.decodeIfPresent([SupplyVoltage].self, forKey: .voltages) ?? []
        rails = try container.decodeIfPresent([PowerRail].self, forKey: .rails) ?? []
        gpus = try container.decodeIfPresent([GPUActivity].self, forKey: .gpus) ?? []
    }

    /// Encodes the signals; the firmware word as `vcgencmd` prints it (`0x50005`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(firmware?.hex, forKey: .firmware)
        try container.encodeIfPresent(firmwareFault?.description, forKey: .firmwareFault)
        try container.encode(voltages, forKey: .voltages)
        try container.encode(rails, forKey: .rails)
        try container.encode(gpus, forKey: .gpus)
    }
}
