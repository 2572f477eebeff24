import Files
import Units

/// Turns samples into readings: docs/pressure.md's level rules per sensor and factor, hysteresis on
/// the way down, the overall level as the most severe factor, the headroom forecast and the
/// sustainable budget share.
///
/// A value type holding the state hysteresis and the forecast need; feed it samples in time
/// order with ``classify(_:)``.
public struct PressureClassifier: Sendable {
    /// The rules.
    public let configuration: PressureConfiguration
    /// What the classifier remembers about one temperature sensor, updated in place.
    private struct SensorState {
        /// The sensor this state belongs to.
        var id: SensorID
        /// The level held (for hysteresis); `nil` after the sensor went stale.
        var level: PressureLevel?
        /// The recent temperatures; `nil` after the sensor went stale.
        var trend: TemperatureTrend?
        /// The label the camera decision was made for, and that decision: label matching is
        /// slow enough to be worth remembering at 10 Hz.
        var camera: (label: String, isCamera: Bool)?
        /// The limits the cached ladder was built from, and that ladder.
        var ladder: (limits: Limits, ladder: ThresholdLadder)?
        /// The last live temperature and the serious threshold it was classified against;
        /// `nil` after the sensor went stale.
        var latest: (celsius: Double, serious: Double)?
    }
    /// The sensor fields a temperature ladder depends on (besides the configuration).
    private struct Limits: Equatable {
        var high, critical, hot, hysteresis: Celsius?
    }
    /// The sensor deciding a temperature factor so far: its position in the sample and the
    /// index of its state (which holds its ladder).
    private struct DecidingSensor {
        var level: PressureLevel
        var celsius: Double
        var position: Int
        var stateIndex: Int

        /// This sensor if it is more severe than `other` (the hotter among equal levels).
        func moreSevere(than other: DecidingSensor?) -> DecidingSensor {
            guard let other, (other.level, other.celsius) >= (level, celsius) else { return self }
            return other
        }
    }
    /// A factor's explanation and what it was built from: rebuilt only when those change.
    private struct Explanation {
        var label: String
        var celsius: Double
        var level: PressureLevel
        var ladder: ThresholdLadder
        var text: String
    }
    /// Every temperature sensor's state, in the order sensors last arrived: sources list their
    /// sensors in the same order every sample, so the next state is almost always the one
    /// after the last, found without hashing (see ``stateIndex(for:after:)``).
    private var sensorStates: [SensorState] = []
    /// Where each sensor's state is in ``sensorStates``, for when the order changes.
    private var stateIndices: [SensorID: Int] = [:]
    private var factorLevels: [PressureFactor.Kind: PressureLevel] = [:]
    private var lastThrottleEvents: Int?
    /// Whether the last sample counted new throttle events: the same counts again are none.
    private var lastSampleCountedEvents = false
    private var explanations: [PressureFactor.Kind: Explanation] = [:]
    /// The last PSI explanation per resource, with the value it was written for.
    private var stallDetails:
        [PSIReading.Resource: (percent: Double, isCapped: Bool, text: String)] = [:]
    /// The notes for the last sample's unavailable sources, reused while they stay the same.
    private var unavailableNotes: (sources: [SourceUnavailable], notes: [String]) = ([], [])
    /// The last sample's inputs besides its temperatures, and the reading made of them: a
    /// sample that brings nothing new gets that reading again (see ``repeats(_:)``).
    private var previous: (sample: PressureSample, reading: PressureReading)?
    /// The earliest time at which a live sensor's trend takes its next point.
    private var nextTrendPoint = -Double.infinity
    /// Whether an unchanged sample gets the previous reading again; tests turn it off to
    /// check that doing so changes nothing.
    var reusesUnchangedReadings = true
    /// How many readings were given again for unchanged samples.
    private(set) var repeatedReadings = 0

    /// A classifier applying `configuration`.
    public init(configuration: PressureConfiguration = PressureConfiguration()) {
        self.configuration = configuration
    }

    /// The level thresholds for `sensor`: fair at `H − 10`, serious at `H`, critical at the
    /// `hot` trip point or `C − 5`, shutdown at `C`, with the configured overrides applied.
    public func temperatureLadder(for sensor: SensorReading) -> ThresholdLadder {
        Self.temperatureLadder(for: sensor, configuration)
    }

    private static func temperatureLadder(
        for sensor: SensorReading, _ configuration: PressureConfiguration
    ) -> ThresholdLadder {
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

    /// What the temperature sensors of one sample add up to.
    private struct TemperatureSummary {
        /// The sensors deciding the system and the camera temperature factors.
        var system, camera: DecidingSensor?
        /// Temperature sensors considered (not ignored), and how many of them gave a value.
        var count = 0, liveCount = 0
        /// Whether any live temperature sensor is from a simulated source.
        var liveSimulated = false
        /// Headroom now and forecast, the most of any sensor; NaN when unknown.
        var headroomNow = Double.nan, headroomForecast = Double.nan
        /// Why stale sensors are stale.
        var staleNotes: [String] = []
    }

    /// Classifies `sample`, updating the hysteresis and trend state.
    public mutating func classify(_ sample: PressureSample) -> PressureReading {
        if let reading = repeats(sample) { return reading }
        let reading = classifyAnew(sample)
        // Kept whole: the sampler hands back the same arrays while its sources' files are
        // unchanged, and comparing an array with itself takes one look at its storage.
        previous = (sample, reading)
        return reading
    }

    /// The previous reading at `sample`'s time when the sample brings nothing new: the same
    /// sensors with the same values, throttling, stall percentages, board signals and
    /// unavailable sources, and no trend point due. Hysteresis, trends and explanations would
    /// all come out the same, so a 10 Hz observer of sensors that update once a second (most
    /// hwmon drivers cache their values) classifies about once a second. Of PSI only what a
    /// reading is made of counts (``PSIReading/stallPercent``): its other averages and its
    /// totals move at every refresh and change nothing. `nil` when anything differs.
    private mutating func repeats(_ sample: PressureSample) -> PressureReading? {
        // The previous sample's parts are looked at where they are kept: binding the pair
        // would copy (retain, then release) every array of both, cold, at every sample.
        guard reusesUnchangedReadings, previous != nil,
            sample.time >= previous!.reading.time,
            sample.time.secondsSinceOrigin < nextTrendPoint, !lastSampleCountedEvents,
            sample.isSimulated == previous!.sample.isSimulated,
            sample.throttling == previous!.sample.throttling,
            sample.pressure == previous!.sample.pressure
                || sample.pressure.elementsEqual(
                    previous!.sample.pressure, by: PSIReading.classifiesAlike),
            sample.board == previous!.sample.board,
            sample.unavailable == previous!.sample.unavailable,
            sample.sensors == previous!.sample.sensors
        else { return nil }
        var reading = previous!.reading
        reading.time = sample.time
        repeatedReadings += 1
        return reading
    }

    /// Classifies `sample` in full.
    private mutating func classifyAnew(_ sample: PressureSample) -> PressureReading {
        if sample.unavailable != unavailableNotes.sources {
            unavailableNotes = (sample.unavailable, sample.unavailable.map { $0.description })
        }
        let configuration = self.configuration
        // Read in place: a sensor is never copied to be classified.
        let temperatures = sample.sensors.withUnsafeBufferPointer {
            summarizeTemperatures($0, time: sample.time.secondsSinceOrigin)
        }
        var notes = unavailableNotes.notes + temperatures.staleNotes
        var factors: [PressureFactor] = []
        for (kind, deciding) in [
            (PressureFactor.Kind.cameraTemperature, temperatures.camera),
            (.systemTemperature, temperatures.system),
        ] {
            // A deciding sensor is live, so `advance` has given its state a ladder.
            guard let deciding, let ladder = sensorStates[deciding.stateIndex].ladder?.ladder
            else { continue }
            let sensor = sample.sensors[deciding.position]
            factors.append(
                PressureFactor(
                    kind: kind, level: deciding.level, value: deciding.celsius, unit: "celsius",
                    sensor: sensor.id,
                    detail: explanation(kind, sensor, deciding.celsius, deciding.level, ladder)))
        }

        let thermal: ThermalCoverage
        if temperatures.liveCount > 0 {
            thermal = sample.isSimulated || temperatures.liveSimulated ? .simulated : .measured
        } else if temperatures.count == 0 {
            thermal = .none
            notes.append("no thermal sensors: the level comes from power, throttling and PSI only")
        } else {
            thermal = .stale
            notes.append(
                "every thermal sensor is stale: the level comes from power, throttling and PSI only"
            )
        }

        // The sample's sensors, then the throttling, PSI and board entries.
        var extraEntries: [SensorReading] = []
        if let board = sample.board {
            factors += [board.supplyFactor, board.peakPowerFactor].compactMap { $0 }
        }
        let firmware = sample.board?.firmware
        if sample.throttling != nil || firmware != nil {
            extraEntries += sample.throttling?.sensorEntries ?? []
            factors.append(throttlingFactor(sample.throttling, firmware: firmware))
        }
        for psi in sample.pressure {
            extraEntries.append(psi.sensorEntry)
            let (kind, ladder): (PressureFactor.Kind, ThresholdLadder) =
                switch psi.resource {
                case .cpu: (.cpuPressure, configuration.cpuPressure.ladder)
                case .memory: (.memoryPressure, configuration.memoryPressure.ladder)
                case .io: (.ioPressure, configuration.ioPressure.ladder)
                }
            // Hysteresis runs on the ladder's own level; the ceiling applies after it.
            let ladderLevel = ladder.level(
                of: psi.stallPercent, previously: factorLevels[kind] ?? .nominal)
            factorLevels[kind] = ladderLevel
            let level = min(ladderLevel, kind.ceiling)
            let percent = psi.stallPercent
            if stallDetails[psi.resource]?.percent != percent
                || stallDetails[psi.resource]?.isCapped != (level < ladderLevel)
            {
                let capped =
                    level < ladderLevel
                    ? " (contention: \(psi.resource.rawValue) pressure alone stops at \(kind.ceiling))"
                    : ""
                stallDetails[psi.resource] = (
                    percent, level < ladderLevel,
                    "\(psi.resource.rawValue) stalled \(percent)% of the last 10 s\(capped)"
                )
            }
            factors.append(
                PressureFactor(
                    kind: kind, level: level, value: percent, unit: "percent",
                    detail: stallDetails[psi.resource]?.text ?? ""))
        }
        extraEntries += sample.board?.sensorEntries ?? []

        // Most severe first; ties in the order factors are declared (temperatures first).
        let order = PressureFactor.Kind.allCases
        factors.sort {
            ($0.level, order.firstIndex(of: $1.kind)!) > ($1.level, order.firstIndex(of: $0.kind)!)
        }
        let level = factors.map { $0.level }.max() ?? .nominal
        let headroom = HeadroomEstimate(
            current: temperatures.headroomNow, forecast: temperatures.headroomForecast,
            forecastSeconds: configuration.headroom.forecastSeconds)
        let entries = sample.sensors + extraEntries
        return PressureReading(
            time: sample.time, level: level, factors: factors, headroom: headroom,
            sustainableShare: configuration.budget.share(headroom: headroom.planning, level: level),
            simulated: sample.isSimulated || entries.contains { $0.source.isSimulated },
            thermal: thermal, sensors: entries, notes: notes, board: sample.board,
            isWithinReach: level > .nominal || isWithinReach(sample, headroom: headroom))
    }

    /// Whether a nominal sample is within reach of a threshold (see
    /// ``PressureConfiguration/SamplingRules/reach``): the observer samples at its configured
    /// rate then, and slowly otherwise.
    private func isWithinReach(_ sample: PressureSample, headroom: HeadroomEstimate) -> Bool {
        let reach = configuration.sampling.reach
        if headroom.planning >= reach { return true }
        if let share = sample.throttling?.throttledShare.fraction,
            share >= reach * configuration.throttling.fair
        {
            return true
        }
        for psi in sample.pressure {
            let rules: PressureConfiguration.RatioRules =
                switch psi.resource {
                case .cpu: configuration.cpuPressure
                case .memory: configuration.memoryPressure
                case .io: configuration.ioPressure
                }
            if psi.stallPercent >= reach * rules.fair { return true }
        }
        return sample.board?.isWithinReach(reach) ?? false
    }

    /// Classifies every temperature sensor of a sample (hysteresis, trend, camera or not) and
    /// finds the sensors deciding the temperature factors and the headroom.
    private mutating func summarizeTemperatures(
        _ sensors: UnsafeBufferPointer<SensorReading>, time: Double
    ) -> TemperatureSummary {
        let configuration = self.configuration
        let rules = configuration.temperature
        let headroomRules = configuration.headroom
        var summary = TemperatureSummary()
        var expectedState = 0
        nextTrendPoint = .infinity
        for position in sensors.indices {
            guard sensors[position].isTemperature else { continue }
            let id = sensors[position].id
            if !rules.ignoredSensors.isEmpty, rules.ignoredSensors.contains(id) { continue }
            if !rules.ignoredLabels.isEmpty, rules.ignoredLabels.contains(sensors[position].label) {
                continue
            }
            summary.count += 1
            let index = stateIndex(for: id, after: &expectedState)
            guard let celsius = sensors[position].celsius?.value else {
                sensorStates[index].level = nil
                sensorStates[index].trend = nil
                sensorStates[index].latest = nil
                let sensor = sensors[position]
                let why = sensor.fault?.description ?? "no value"
                if sensor.fault?.isNotAvailable == true {
                    summary.staleNotes.append("\(sensor.id) (\(sensor.label)): \(why)")
                } else {
                    summary.staleNotes.append("\(sensor.id) (\(sensor.label)) is stale: \(why)")
                }
                continue
            }
            summary.liveCount += 1
            summary.liveSimulated = summary.liveSimulated || sensors[position].source.isSimulated
            let (level, serious, isCamera, forecast) = Self.advance(
                &sensorStates[index], sensor: sensors[position], celsius: celsius, time: time,
                configuration)
            nextTrendPoint = min(
                nextTrendPoint,
                (sensorStates[index].trend?.lastTime ?? time) + headroomRules.spacing
                    * (1 - TemperatureTrend.spacingTolerance))
            let candidate = DecidingSensor(
                level: level, celsius: celsius, position: position, stateIndex: index)
            if isCamera {
                summary.camera = candidate.moreSevere(than: summary.camera)
            } else {
                summary.system = candidate.moreSevere(than: summary.system)
            }
            summary.headroomNow = Self.maxKnown(
                summary.headroomNow,
                Self.headroom(celsius: celsius, serious: serious, span: headroomRules.span))
            // NaN stays NaN (no forecast yet).
            summary.headroomForecast = Self.maxKnown(
                summary.headroomForecast,
                Self.headroom(celsius: forecast, serious: serious, span: headroomRules.span))
        }
        return summary
    }

    /// Moves one live sensor's state to this sample: its level after hysteresis (its ladder is
    /// rebuilt only when its limits change), its serious threshold, whether it is a camera,
    /// and its trend's forecast.
    private static func advance(
        _ state: inout SensorState, sensor: SensorReading, celsius: Double, time: Double,
        _ configuration: PressureConfiguration
    ) -> (level: PressureLevel, serious: Double, isCamera: Bool, forecast: Double) {
        let limits = Limits(
            high: sensor.high, critical: sensor.critical, hot: sensor.hot,
            hysteresis: sensor.hysteresis)
        let ladder: ThresholdLadder
        if let cached = state.ladder, cached.limits == limits {
            ladder = cached.ladder
        } else {
            ladder = temperatureLadder(for: sensor, configuration)
            state.ladder = (limits, ladder)
        }
        let level = ladder.level(of: celsius, previously: state.level ?? .nominal)
        state.level = level
        let isCamera: Bool
        if let known = state.camera, known.label == sensor.label {
            isCamera = known.isCamera
        } else {
            let label = sensor.label.lowercased()
            isCamera = configuration.temperature.cameraLabels.contains {
                label.includes($0.lowercased())
            }
            state.camera = (sensor.label, isCamera)
        }
        let rules = configuration.headroom
        if state.trend == nil { state.trend = TemperatureTrend() }
        state.trend?.add(
            time: time, celsius: celsius, window: rules.window, spacing: rules.spacing)
        // From the last trend point, so the reading stays the same between points.
        let forecast =
            state.trend?.forecast(
                seconds: rules.forecastSeconds, minimumSamples: rules.minimumSamples) ?? .nan
        let serious = ladder.threshold(of: .serious) ?? configuration.temperature.defaultHigh
        state.latest = (celsius, serious)
        return (level, serious, isCamera, forecast)
    }

    /// The index of `id`'s state: `expected` when the sensor comes where it came last time
    /// (one string comparison, usually of the same storage), else looked up or added.
    /// `expected` moves past the state found.
    private mutating func stateIndex(for id: SensorID, after expected: inout Int) -> Int {
        let index: Int
        if expected < sensorStates.count, sensorStates[expected].id == id {
            index = expected
        } else if let known = stateIndices[id] {
            index = known
        } else {
            index = sensorStates.count
            sensorStates.append(SensorState(id: id))
            stateIndices[id] = index
        }
        expected = index + 1
        return index
    }

    /// The explanation of a temperature factor, reused while its inputs stay the same.
    private mutating func explanation(
        _ kind: PressureFactor.Kind, _ sensor: SensorReading, _ celsius: Double,
        _ level: PressureLevel, _ ladder: ThresholdLadder
    ) -> String {
        if let known = explanations[kind], known.celsius == celsius, known.level == level,
            known.label == sensor.label, known.ladder == ladder
        {
            return known.text
        }
        let text = Self.explain(sensor, celsius, level, ladder)
        explanations[kind] = Explanation(
            label: sensor.label, celsius: celsius, level: level, ladder: ladder, text: text)
        return text
    }

    /// The CPU throttling factor: the cpufreq cap's ladder, raised to `fair` by new throttle
    /// events or by a Raspberry Pi firmware cap now, and never above the factor's ceiling.
    private mutating func throttlingFactor(
        _ throttling: CPUThrottling?, firmware: FirmwareThrottling?
    ) -> PressureFactor {
        let share = throttling?.throttledShare.fraction ?? 0
        var level = configuration.throttling.ladder.level(
            of: share, previously: factorLevels[.cpuThrottling] ?? .nominal)
        factorLevels[.cpuThrottling] = level
        var parts: [String] = []
        lastSampleCountedEvents = false
        if let throttling {
            parts.append(
                share > 0
                    ? "frequency capped at \(Self.percent(1 - share)) of maximum"
                    : "no frequency cap")
            if let events = throttling.throttleEvents, let last = lastThrottleEvents,
                events > last
            {
                level = max(level, .fair)
                lastSampleCountedEvents = true
                parts.append("\(events - last) throttle events since the last sample")
            }
            lastThrottleEvents = throttling.throttleEvents
        }
        if let firmware {
            let caps = firmware.active.filter { $0 != .underVoltage }
            if !caps.isEmpty { level = max(level, .fair) }
            parts.append(
                "firmware: "
                    + (caps.isEmpty
                        ? "no cap now" : caps.map(\.phrase).joined(separator: ", ") + " now"))
        }
        let detail = parts.joined(separator: ", ")
        return PressureFactor(
            kind: .cpuThrottling, level: min(level, PressureFactor.Kind.cpuThrottling.ceiling),
            value: share, unit: "ratio", detail: detail)
    }

    /// Android's headroom of a temperature against a serious threshold: 1.0 at the
    /// threshold, 0 `span` °C below it and under, linear between; NaN stays NaN.
    public static func headroom(celsius: Double, serious: Double, span: Double) -> Double {
        celsius.isNaN ? .nan : max(0, (celsius - (serious - span)) / span)
    }

    /// Thermal headroom `forecastSeconds` ahead of `time` (0 for now), the most of any live
    /// sensor, from each sensor's trend as of the last classified sample; NaN without a live
    /// temperature sensor, or, for a forecast, before any trend has enough points.
    public func headroom(forecastSeconds: Double, at time: Double) -> Double {
        let rules = configuration.headroom
        var result = Double.nan
        for state in sensorStates {
            guard let latest = state.latest else { continue }
            let celsius =
                forecastSeconds == 0
                ? latest.celsius
                : (state.trend?.forecast(
                    seconds: forecastSeconds, minimumSamples: rules.minimumSamples, from: time)
                    ?? .nan)
            result = Self.maxKnown(
                result, Self.headroom(celsius: celsius, serious: latest.serious, span: rules.span))
        }
        return result
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
