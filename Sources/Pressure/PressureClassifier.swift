/// Turns samples into readings: DESIGN.md's level rules per sensor and factor, hysteresis on
/// the way down, the overall level as the most severe factor, the headroom forecast and the
/// sustainable budget share.
///
/// A value type holding the state hysteresis and the forecast need; feed it samples in time
/// order with ``classify(_:)``.
public struct PressureClassifier: Sendable {
    /// The rules.
    public let configuration: PressureConfiguration
    private var sensorLevels: [SensorID: PressureLevel] = [:]
    private var factorLevels: [PressureFactor.Kind: PressureLevel] = [:]
    private var trends: [SensorID: TemperatureTrend] = [:]
    private var lastThrottleEvents: Int?
    /// Whether a sensor (by identifier and label) is a camera: label matching is slow enough
    /// to be worth remembering at 10 Hz.
    private var cameraSensors: [SensorID: (label: String, isCamera: Bool)] = [:]

    /// A classifier applying `configuration`.
    public init(configuration: PressureConfiguration = PressureConfiguration()) {
        self.configuration = configuration
    }

    /// The level thresholds for `sensor`: fair at `H − 10`, serious at `H`, critical at the
    /// `hot` trip point or `C − 5`, shutdown at `C`, with the configured overrides applied.
    public func temperatureLadder(for sensor: SensorReading) -> ThresholdLadder {
        let rules = configuration.temperature
        let override = rules.sensors[sensor.id.rawValue]
        var high = override?.high ?? sensor.high?.value
        var critical = override?.critical ?? sensor.critical?.value
        switch (high, critical) {
        case (nil, nil):
            high = rules.defaultHigh
            critical = rules.defaultCritical
        case (nil, let critical?):
            high = critical - rules.highBelowCritical
        case (let high?, nil):
            critical = high + rules.highBelowCritical
        default:
            break
        }
        let h = high ?? rules.defaultHigh
        let c = critical ?? rules.defaultCritical
        let hysteresis = override?.hysteresis ?? sensor.hysteresis?.value ?? rules.hysteresis
        let criticalAt =
            override?.critical == nil
            ? (sensor.hot?.value ?? c - rules.criticalBelowCritical)
            : c - rules.criticalBelowCritical
        return ThresholdLadder(steps: [
            .init(level: .fair, threshold: h - rules.fairBelowHigh, hysteresis: hysteresis),
            .init(level: .serious, threshold: h, hysteresis: hysteresis),
            .init(level: .critical, threshold: criticalAt, hysteresis: hysteresis),
            .init(level: .shutdown, threshold: c, hysteresis: hysteresis),
        ])
    }

    /// Classifies `sample`, updating the hysteresis and trend state.
    public mutating func classify(_ sample: PressureSample) -> PressureReading {
        let rules = configuration.temperature
        let temperatures = sample.temperatures.filter { !rules.ignoredSensors.contains($0.id) }
        var notes = sample.unavailable.map { $0.description }
        var factors: [PressureFactor] = []
        var headroomNow = Double.nan
        var headroomForecast = Double.nan
        let headroomRules = configuration.headroom

        var hottest:
            [PressureFactor.Kind: (PressureLevel, Double, SensorReading, ThresholdLadder)] = [:]
        for sensor in temperatures {
            guard let celsius = sensor.celsius?.value else {
                sensorLevels[sensor.id] = nil
                trends[sensor.id] = nil
                notes.append(
                    "\(sensor.id) (\(sensor.label)) is stale: \(sensor.fault?.description ?? "no value")"
                )
                continue
            }
            let ladder = temperatureLadder(for: sensor)
            let level = ladder.level(of: celsius, previously: sensorLevels[sensor.id] ?? .nominal)
            sensorLevels[sensor.id] = level
            let kind: PressureFactor.Kind =
                isCamera(sensor) ? .cameraTemperature : .systemTemperature
            // Each factor is decided by its most severe sensor, the hottest among equals.
            if hottest[kind].map({ (level, celsius) > ($0.0, $0.1) }) ?? true {
                hottest[kind] = (level, celsius, sensor, ladder)
            }
            let serious = ladder.threshold(of: .serious) ?? rules.defaultHigh
            let scale = max(serious - headroomRules.baseline, 1)
            headroomNow = Self.maxKnown(
                headroomNow, max(0, (celsius - headroomRules.baseline) / scale))
            var trend = trends[sensor.id] ?? TemperatureTrend()
            trend.add(time: sample.time, celsius: celsius, window: headroomRules.window)
            trends[sensor.id] = trend
            let forecast = trend.forecast(
                seconds: headroomRules.forecastSeconds, minimumSamples: headroomRules.minimumSamples
            )
            // Headroom is 0 at or below the baseline; NaN stays NaN (no forecast yet).
            let forecastHeadroom =
                forecast.isNaN ? .nan : max(0, (forecast - headroomRules.baseline) / scale)
            headroomForecast = Self.maxKnown(headroomForecast, forecastHeadroom)
        }
        for (kind, (level, celsius, sensor, ladder)) in hottest.sorted(by: {
            $0.key.rawValue < $1.key.rawValue
        }) {
            factors.append(
                PressureFactor(
                    kind: kind, level: level, value: celsius, unit: "celsius", sensor: sensor.id,
                    detail: Self.explain(sensor, celsius, level, ladder)))
        }

        let live = temperatures.filter { !$0.isStale }
        let thermal: ThermalCoverage
        if !live.isEmpty {
            thermal =
                sample.isSimulated || live.contains { $0.source.isSimulated }
                ? .simulated : .measured
        } else if temperatures.isEmpty {
            thermal = .none
            notes.append("no thermal sensors: the level comes from PSI and CPU throttling only")
        } else {
            thermal = .stale
            notes.append(
                "every thermal sensor is stale: the level comes from PSI and CPU throttling only")
        }

        var entries = sample.sensors
        if let throttling = sample.throttling {
            entries += throttling.sensorEntries
            let share = throttling.throttledShare
            var level = configuration.throttling.ladder.level(
                of: share, previously: factorLevels[.cpuThrottling] ?? .nominal)
            var detail =
                share > 0
                ? "frequency capped at \(Self.percent(1 - share)) of maximum" : "no frequency cap"
            if let events = throttling.throttleEvents, let last = lastThrottleEvents, events > last
            {
                level = max(level, .fair)
                detail += ", \(events - last) throttle events since the last sample"
            }
            lastThrottleEvents = throttling.throttleEvents
            factorLevels[.cpuThrottling] = level
            factors.append(
                PressureFactor(
                    kind: .cpuThrottling, level: level, value: share, unit: "ratio", detail: detail)
            )
        }
        for psi in sample.pressure {
            entries.append(psi.sensorEntry)
            let (kind, ladder): (PressureFactor.Kind, ThresholdLadder) =
                switch psi.resource {
                case .cpu: (.cpuPressure, configuration.cpuPressure.ladder)
                case .memory: (.memoryPressure, configuration.memoryPressure.ladder)
                case .io: (.ioPressure, configuration.ioPressure.ladder)
                }
            let level = ladder.level(
                of: psi.stallPercent, previously: factorLevels[kind] ?? .nominal)
            factorLevels[kind] = level
            factors.append(
                PressureFactor(
                    kind: kind, level: level, value: psi.stallPercent, unit: "percent",
                    detail: "\(psi.resource.rawValue) stalled \(psi.stallPercent)% of the last 10 s"
                ))
        }

        // Most severe first; ties in the order factors are declared (temperatures first).
        let order = PressureFactor.Kind.allCases
        factors.sort {
            ($0.level, order.firstIndex(of: $1.kind)!) > ($1.level, order.firstIndex(of: $0.kind)!)
        }
        let level = factors.map { $0.level }.max() ?? .nominal
        let headroom = HeadroomEstimate(
            current: headroomNow, forecast: headroomForecast,
            forecastSeconds: headroomRules.forecastSeconds)
        return PressureReading(
            time: sample.time, level: level, factors: factors, headroom: headroom,
            sustainableShare: configuration.budget.share(headroom: headroom.planning, level: level),
            simulated: sample.isSimulated || entries.contains { $0.source.isSimulated },
            thermal: thermal, sensors: entries, notes: notes)
    }

    private mutating func isCamera(_ sensor: SensorReading) -> Bool {
        if let known = cameraSensors[sensor.id], known.label == sensor.label {
            return known.isCamera
        }
        let label = sensor.label.lowercased()
        let isCamera = configuration.temperature.cameraLabels.contains {
            label.contains($0.lowercased())
        }
        cameraSensors[sensor.id] = (sensor.label, isCamera)
        return isCamera
    }

    private static func maxKnown(_ a: Double, _ b: Double) -> Double {
        a.isNaN ? b : (b.isNaN ? a : max(a, b))
    }

    private static func percent(_ ratio: Double) -> String {
        "\(Int((ratio * 100).rounded()))%"
    }

    private static func explain(
        _ sensor: SensorReading, _ celsius: Double, _ level: PressureLevel,
        _ ladder: ThresholdLadder
    ) -> String {
        let reading = "\(sensor.label) at \(Celsius(celsius))"
        guard level != .nominal, let threshold = ladder.threshold(of: level) else {
            let fair = ladder.threshold(of: .fair).map { ", fair from \(Celsius($0))" } ?? ""
            return reading + fair
        }
        let verb = celsius >= threshold ? "≥" : "holding (hysteresis) below"
        return "\(reading) \(verb) \(level) threshold \(Celsius(threshold))"
    }
}
