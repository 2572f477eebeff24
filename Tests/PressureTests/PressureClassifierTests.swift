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
    classifier.classify(PressureSample(time: time, sensors: sensors))
}

@Suite struct PressureClassifierTests {
    // DESIGN.md's table with H = 80, C = 100: fair 70, serious 80, critical 95, shutdown 100.
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
                time: 0, sensors: [sensor("cpu", 72), sensor("cam", 60, label: "Camera module")],
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
        let reading = classifier.classify(PressureSample(time: 0, pressure: [psi]))
        #expect(reading.thermal == .none)
        #expect(reading.notes.contains { $0.contains("no thermal sensors") })
        #expect(reading.factors.map(\.kind) == [.memoryPressure])
        #expect(reading.headroom.current.isNaN)
    }

    @Test func throttlingCountsTheCapAndNewThrottleEvents() {
        var classifier = PressureClassifier()
        func sample(cap: Int, events: Int) -> PressureSample {
            PressureSample(
                time: 0,
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
}
