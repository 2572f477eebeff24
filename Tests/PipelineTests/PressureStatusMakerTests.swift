import Pipeline
import Pressure
import Telemetry
import Testing
import Units

/// The exported status of readings that repeat the last one: the same as made anew.
struct PressureStatusMakerTests {
    /// A sample of one CPU temperature at `seconds`.
    private func sample(_ celsius: Double, at seconds: Double) -> PressureSample {
        PressureSample(
            time: MonotonicInstant.origin.advanced(by: .seconds(seconds)),
            sensors: [
                SensorReading(
                    id: "cpu", source: .thermalZone, label: "cpu", celsius: Celsius(celsius),
                    high: Celsius(80), critical: Celsius(100))
            ])
    }

    @Test func aRepeatedReadingGetsTheStatusMadeAnewWithItsOwnDocument() {
        var classifier = PressureClassifier()
        let first = classifier.classify(sample(60, at: 0))
        let repeated = classifier.classify(sample(60, at: 0.1))
        let changed = classifier.classify(sample(75, at: 0.2))
        #expect(repeated.hasSameValues(as: first))
        #expect(!changed.hasSameValues(as: repeated))
        let maker = PressureStatusMaker()
        let statuses = [first, repeated, changed].map { maker.status(for: $0) }
        // Equal statuses have equal documents: each one has its reading's time.
        #expect(statuses == [first, repeated, changed].map { PressureStatus($0) })
        #expect(statuses[1].json != statuses[0].json)
    }

    @Test func unknownHeadroomIsTheSameValueAndTimeIsNoValue() {
        var classifier = PressureClassifier()
        let reading = classifier.classify(PressureSample(time: .origin))
        #expect(reading.headroom.current.isNaN)
        var later = reading
        later.time = reading.time.advanced(by: .seconds(5))
        #expect(later.hasSameValues(as: reading))
        var hotter = reading
        hotter.level = .serious
        #expect(!hotter.hasSameValues(as: reading))
    }
}
