import TestSupport
import Testing

@testable import Pressure

/// A temperature sensor with the given limits.
func sensor(
    _ id: String, _ celsius: Double?, high: Double? = 80, critical: Double? = 100,
    hot: Double? = nil, hysteresis: Double? = nil, label: String? = nil,
    source: SensorSourceKind = .libsensors
) -> SensorReading {
    SensorReading(
        id: SensorID(id), source: source, label: label ?? id, celsius: celsius.map(Celsius.init),
        high: high.map(Celsius.init), critical: critical.map(Celsius.init),
        hot: hot.map(Celsius.init),
        hysteresis: hysteresis.map(Celsius.init), fault: celsius == nil ? .noData : nil)
}

func classify(
    _ sensors: [SensorReading], with classifier: inout PressureClassifier, at time: Double = 0
)
    -> PressureReading
{
    classifier.classify(PressureSample(time: instant(time), sensors: sensors))
}

@Suite struct PressureClassifierTests {
    // docs/pressure.md's table with H = 80, C = 100: fair 70, serious 80, critical 95, shutdown 100.
    @Test(arguments: [
        (69.9, PressureLevel.nominal), (70, .fair), (79.9, .fair), (80, .serious), (94.9, .serious),
        (95, .critical), (99.9, .critical), (100, .shutdown), (120, .shutdown),
    ])
    func everyLevelBoundary(celsius: Double, expected: PressureLevel) {
        var classifier = PressureClassifier()
        #expect(classify([sensor("cpu", celsius)], with: &classifier).level == expected)
    }

    @Test func theHotTripPointStartsCritical() {
        var classifier = PressureClassifier()
        let hot = sensor("zone", 90, high: 80, critical: 100, hot: 90)
        #expect(classify([hot], with: &classifier).level == .critical)
    }

    @Test func missingLimitsAreDerived() {
        // Missing H: H = C − 15.
        let ladder = PressureClassifier().temperatureLadder(
            for: sensor("a", 50, high: nil, critical: 110))
        #expect(ladder.threshold(of: .serious) == 95)
        #expect(ladder.threshold(of: .fair) == 85)
        #expect(ladder.threshold(of: .critical) == 105)
        #expect(ladder.threshold(of: .shutdown) == 110)
        // Missing both: H = 80, C = 100.
        let defaults = PressureClassifier().temperatureLadder(
            for: sensor("b", 50, high: nil, critical: nil))
        #expect(defaults.threshold(of: .serious) == 80)
        #expect(defaults.threshold(of: .shutdown) == 100)
    }

    @Test func leavingALevelNeedsTheHysteresisMargin() {
        var classifier = PressureClassifier()
        let path: [(Double, PressureLevel)] = [
            (81, .serious), (79, .serious), (77.1, .serious), (77, .fair), (68, .fair),
            (67, .nominal), (70, .fair), (96, .critical), (93, .critical), (92, .serious),
        ]
        for (time, (celsius, expected)) in path.enumerated() {
            let level = classify([sensor("cpu", celsius)], with: &classifier, at: Double(time))
                .level
            #expect(level == expected, "at \(celsius) °C")
        }
    }

    @Test func aTripPointsOwnHysteresisReplacesTheDefault() {
        var classifier = PressureClassifier()
        _ = classify([sensor("zone", 81, hysteresis: 1)], with: &classifier)
        #expect(
            classify([sensor("zone", 79.5, hysteresis: 1)], with: &classifier).level == .serious)
        #expect(classify([sensor("zone", 78.9, hysteresis: 1)], with: &classifier).level == .fair)
    }

    @Test func theOverallLevelIsTheMostSevereFactor() {
        var classifier = PressureClassifier()
        let psi = [
            PSIReading(
                resource: .io, some: .init(avg10: 65, avg60: 0, avg300: 0, totalMicroseconds: 0),
                full: nil)
        ]
        let reading = classifier.classify(
            PressureSample(
                time: .origin,
                sensors: [sensor("cpu", 72), sensor("cam", 60, label: "Camera module")],
                pressure: psi))
        #expect(reading.level == .serious)
        #expect(reading.factors.first?.kind == .ioPressure)
        #expect(reading.factors.contains { $0.kind == .systemTemperature && $0.level == .fair })
        #expect(reading.factors.contains { $0.kind == .cameraTemperature && $0.sensor == "cam" })
    }

    @Test func staleSensorsAreNeverReadAsZero() {
        var classifier = PressureClassifier()
        _ = classify([sensor("cpu", 85)], with: &classifier)
        let reading = classify([sensor("cpu", nil)], with: &classifier)
        #expect(reading.thermal == .stale)
        #expect(reading.factors.isEmpty)
        #expect(reading.headroom.current.isNaN)
        #expect(reading.sensors[0].celsius == nil)
        #expect(reading.notes.contains { $0.contains("stale") })
    }

    @Test func aHostWithoutThermalSensorsSaysSo() {
        var classifier = PressureClassifier()
        let psi = PSIReading(
            resource: .memory, some: .init(avg10: 1, avg60: 1, avg300: 1, totalMicroseconds: 5),
            full: .init(avg10: 0, avg60: 0, avg300: 0, totalMicroseconds: 1))
        let reading = classifier.classify(PressureSample(time: .origin, pressure: [psi]))
        #expect(reading.thermal == .none)
        #expect(reading.notes.contains { $0.contains("no thermal sensors") })
        #expect(reading.factors.map(\.kind) == [.memoryPressure])
        #expect(reading.headroom.current.isNaN)
    }

    @Test func throttlingCountsTheCapAndNewThrottleEvents() {
        var classifier = PressureClassifier()
        func sample(cap: Int, events: Int) -> PressureSample {
            PressureSample(
                time: .origin,
                throttling: CPUThrottling(
                    policies: [
                        .init(
                            name: "policy0", currentKHz: 800_000, capKHz: cap, maximumKHz: 3_000_000
                        )
                    ],
                    throttleEvents: events))
        }
        #expect(classifier.classify(sample(cap: 3_000_000, events: 10)).level == .nominal)
        #expect(classifier.classify(sample(cap: 3_000_000, events: 12)).level == .fair)
        #expect(classifier.classify(sample(cap: 3_000_000, events: 12)).level == .nominal)
        // Half the frequency is the ladder's critical, but throttling alone stops at serious.
        #expect(classifier.classify(sample(cap: 1_500_000, events: 12)).level == .serious)
    }

    @Test func hotterNeverMeansALowerLevel() {
        let ladder = PressureClassifier().temperatureLadder(for: sensor("cpu", 0))
        var previous = PressureLevel.nominal
        for tenth in stride(from: -390, through: 1490, by: 1) {
            let level = ladder.level(of: Double(tenth) / 10)
            #expect(level >= previous)
            previous = level
        }
    }

    @Test func simulatedSourcesAreLabelled() {
        var classifier = PressureClassifier()
        let reading = classify([sensor("model/cpu", 50, source: .model)], with: &classifier)
        #expect(reading.simulated)
        #expect(reading.thermal == .simulated)
    }

    /// A sample that brings nothing new gets the previous reading again: over a long
    /// sequence of mostly repeated values, heating and cooling through every level with
    /// PSI, throttling and board alarms coming and going, the readings are exactly those of
    /// a classifier that classifies every sample in full — and PSI's other averages and totals
    /// moving at every sample, as they do at every refresh, without a stall percentage moving.
    @Test func reusingReadingsForUnchangedSamplesChangesNothing() {
        var reusing = PressureClassifier()
        var full = PressureClassifier()
        full.reusesUnchangedReadings = false
        var generator = LinearCongruentialGenerator(seed: 7)
        var celsius = 60.0
        var psi = 10.0
        var alarm = false
        var events = 0
        for step in 0..<3_000 {
            // Values change about one sample in eight, as a hwmon driver's cache does at 10 Hz.
            if Int.random(in: 0..<8, using: &generator) == 0 {
                celsius = min(110, max(20, celsius + Double.random(in: -6...6, using: &generator)))
            }
            if Int.random(in: 0..<40, using: &generator) == 0 {
                psi = Double.random(in: 0...99, using: &generator)
            }
            if Int.random(in: 0..<100, using: &generator) == 0 { alarm.toggle() }
            if Int.random(in: 0..<50, using: &generator) == 0 { events += 1 }
            let sample = PressureSample(
                time: instant(Double(step) / 10),
                sensors: [sensor("cpu", celsius), sensor("cam", celsius - 5, label: "Camera")],
                throttling: CPUThrottling(
                    policies: [
                        .init(name: "policy0", currentKHz: 1, capKHz: 2, maximumKHz: 2)
                    ], throttleEvents: events),
                pressure: [
                    PSIReading(
                        resource: .io,
                        some: .init(
                            avg10: psi, avg60: Double(step % 7), avg300: 0,
                            totalMicroseconds: UInt64(step)),
                        full: nil),
                    // Memory is classified on `full avg10`: its `some` line changes nothing.
                    PSIReading(
                        resource: .memory,
                        some: .init(
                            avg10: Double(step % 5), avg60: 0, avg300: 0,
                            totalMicroseconds: UInt64(step * 2)),
                        full: .init(
                            avg10: psi / 2, avg60: 0, avg300: 0,
                            totalMicroseconds: UInt64(step))),
                ],
                board: BoardSignals(rails: [
                    PowerRail(
                        id: "ina/in1", label: "VDD_IN", volts: 5, amperes: 1, watts: 5,
                        criticalAlarm: alarm)
                ]))
            #expect(reusing.classify(sample) == full.classify(sample), "step \(step)")
        }
        // Most samples were repeats: values change one sample in eight, and a trend point is
        // due once a second.
        #expect(reusing.repeatedReadings > 1_500)
        #expect(full.repeatedReadings == 0)
    }
}

/// A small deterministic generator for property tests (Knuth's MMIX constants).
struct LinearCongruentialGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 33)
    }
}
