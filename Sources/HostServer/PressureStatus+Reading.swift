import Files
import Pressure
import Telemetry

extension PressureStatus {
    /// The exported form of a pressure reading: levels as numbers, temperature sensors only
    /// (stale ones without a value), unknown headroom as nil, and the reading's
    /// `status --json` form for `/status`.
    public init(_ reading: PressureReading) {
        // Frequency and PSI entries carry a value in a unit; temperature sensors do not. A
        // sensor that is not available (an idle Jetson GPU at -256 °C, an offline zone) is not
        // broken: it is left out rather than exported stale, so no stale-sensor alert fires.
        let temperatures = reading.sensors.filter {
            $0.unit == nil && $0.fault?.isNotAvailable != true
        }
        func known(_ value: Double) -> Double? { value.isNaN ? nil : value }
        self.init(
            level: reading.level.rawValue,
            factorLevels: Dictionary(
                reading.factors.map { ($0.kind.rawValue, $0.level.rawValue) },
                uniquingKeysWith: max),
            headroom: known(reading.headroom.current),
            headroomForecast: known(reading.headroom.forecast),
            sustainableShare: known(reading.sustainableShare.fraction),
            isSimulated: reading.simulated,
            sensors: temperatures.map {
                SensorSample(
                    sensor: $0.id.rawValue, source: $0.source.rawValue, celsius: $0.celsius?.value,
                    highCelsius: $0.high?.value, criticalCelsius: $0.critical?.value)
            },
            board: reading.board.map(BoardStatus.init) ?? BoardStatus(),
            document: Self.document(reading))
    }

    /// The reading's `status --json` form, made when first asked for.
    private static func document(_ reading: PressureReading) -> DeferredText {
        DeferredText { String(decoding: json(reading), as: UTF8.self) }
    }

    /// The reading as `status --json` prints it: pretty, sorted keys.
    private static func json(_ reading: PressureReading) -> [UInt8] {
        JSONStyle.document.encodeExplainingFailure(reading)
    }
}

extension BoardStatus {
    /// The exported form of a board's signals: rails by label, voltages (supply voltages and
    /// rail bus voltages) by id, the firmware's four conditions, GPU load by device.
    public init(_ board: BoardSignals) {
        var volts: [String: Double] = [:]
        for voltage in board.voltages {
            if let value = voltage.volts { volts[voltage.id.rawValue] = value }
        }
        for rail in board.rails {
            if let value = rail.volts { volts[rail.id.rawValue] = value }
        }
        // Rails by label; a label two chips share is told apart by the rail's id.
        var railWatts: [String: Double] = [:]
        for rail in board.rails {
            guard let watts = rail.watts else { continue }
            let name = railWatts[rail.label] == nil ? rail.label : "\(rail.label) (\(rail.id))"
            railWatts[name] = watts
        }
        self.init(
            railWatts: railWatts, volts: volts,
            firmwareConditions: board.firmware.map { word in
                FirmwareThrottling.Reason.allCases.map {
                    FirmwareCondition(
                        reason: $0.rawValue, isActive: word.isActive($0),
                        hasOccurred: word.hasOccurred($0))
                }
            } ?? [],
            gpuLoad: Dictionary(
                board.gpus.compactMap { gpu in gpu.load.map { (gpu.device, $0.fraction) } },
                uniquingKeysWith: max))
    }
}
