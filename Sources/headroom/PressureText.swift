import CLI
import Pressure

/// Human forms of pressure readings and sensor lists.
enum PressureText {
    /// The sensor table: id, source, label, value, high, critical, state.
    static func sensors(_ sensors: [SensorReading]) -> String {
        var table = TextTable(
            headings: ["sensor", "source", "label", "value", "high", "critical", "state"],
            numericColumns: [3, 4, 5])
        for sensor in sensors {
            table.rows.append([
                sensor.id.rawValue, sensor.source.rawValue, sensor.label, value(of: sensor),
                sensor.high.map(\.description) ?? "-", sensor.critical.map(\.description) ?? "-",
                sensor.fault.map { $0.isNotAvailable ? $0.description : "STALE: \($0)" }
                    ?? (sensor.source.isSimulated ? "simulated" : "ok"),
            ])
        }
        return table.text
    }

    /// The value column: `+45.0 °C`, `83%`, `5.080 V`, `3.58 W`, `306 MHz`, `0x50005`,
    /// `12 events`, or `-` when stale.
    static func value(of sensor: SensorReading) -> String {
        if let celsius = sensor.celsius { return celsius.description }
        guard let value = sensor.value else { return "-" }
        switch sensor.unit {
        case "ratio": return "\((value * 100).fixed(0))%"
        case "percent": return "\(value.fixed(2))%"
        case "volts": return "\(value.fixed(3)) V"
        case "amperes": return "\(value.fixed(3)) A"
        case "watts": return "\(value.fixed(2)) W"
        case "hertz": return "\((value / 1e6).fixed(0)) MHz"
        case "flag": return value == 0 ? "no" : "YES"
        case "flags":
            // Never trap on a value that is not a 32-bit word (a hand-written trace).
            return UInt32(exactly: value).map { FirmwareThrottling(word: $0).hex }
                ?? "\(value.trimmed()) flags"
        default: return "\(value.trimmed()) \(sensor.unit ?? "")"
        }
    }

    /// What the thermal part rests on, in words.
    static func coverage(_ thermal: ThermalCoverage) -> String {
        switch thermal {
        case .measured: "measured"
        case .simulated: "SIMULATED (thermal model or replayed trace)"
        case .none: "NO THERMAL SENSORS on this host: level from power, throttling and PSI only"
        case .stale: "every thermal sensor is STALE: level from power, throttling and PSI only"
        }
    }

    /// A headroom value, or `n/a` for NaN.
    static func headroom(_ value: Double) -> String {
        value.isNaN ? "n/a" : value.fixed(2)
    }

    /// The full status text.
    static func status(_ reading: PressureReading) -> String {
        var lines = [
            "level: \(reading.level.painted(reading.level.name))"
                + (reading.simulated ? "  [SIMULATED]" : ""),
            "thermal: \(coverage(reading.thermal))",
            "headroom: \(headroom(reading.headroom.current)) now, "
                + "\(headroom(reading.headroom.forecast)) in \(reading.headroom.forecastSeconds.trimmed()) s"
                + " (1.0 = serious threshold)",
            "sustainable budget share: \(reading.sustainableShare.fraction.fixed(2))",
            "",
        ]
        var factors = TextTable(headings: ["factor", "level", "why"])
        for factor in reading.factors {
            factors.rows.append([factor.kind.rawValue, factor.level.name, factor.detail])
        }
        lines.append(reading.factors.isEmpty ? "factors: none" : factors.text)
        lines.append("")
        lines.append(sensors(reading.sensors))
        if !reading.notes.isEmpty {
            lines.append("")
            lines += reading.notes.map { "note: \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// One `watch` line: time, level, the main factor, headroom.
    static func line(_ reading: PressureReading, from previous: PressureLevel?) -> String {
        let level = reading.level.painted(reading.level.name)
        let change = previous.map { "\($0) → \(level)" } ?? level
        let why = reading.factors.first?.detail ?? "no factors"
        return "\(reading.time.secondsSinceOrigin.fixed(1)) s  \(change)  \(why)"
            + "  headroom \(headroom(reading.headroom.current))"
            + "  share \(reading.sustainableShare.fraction.fixed(2))"
            + (reading.simulated ? "  [SIMULATED]" : "")
            + (reading.thermal == .none ? "  [no thermal sensors]" : "")
    }
}

extension PressureLevel {
    /// `text` in this level's colour on a terminal: green nominal, yellow fair, red serious,
    /// bold red critical and shutdown.
    func painted(_ text: String) -> String {
        switch self {
        case .nominal: Console.paint(text, .green)
        case .fair: Console.paint(text, .yellow)
        case .serious: Console.paint(text, .red)
        case .critical, .shutdown: Console.paint(text, .boldRed)
        }
    }
}
