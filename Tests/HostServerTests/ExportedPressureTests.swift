import Foundation
import HostServer
import Pressure
import Telemetry
import Testing
import Units

/// Readings kept as they come, made into the exported status when read.
struct ExportedPressureTests {
    /// The reading of one CPU temperature at `seconds`.
    private func reading(
        _ celsius: Double, at seconds: Double, classifier: inout PressureClassifier
    ) -> PressureReading {
        classifier.classify(
            PressureSample(
                time: MonotonicInstant.origin.advanced(by: .seconds(seconds)),
                sensors: [
                    SensorReading(
                        id: "cpu", source: .thermalZone, label: "cpu", celsius: Celsius(celsius),
                        high: Celsius(80), critical: Celsius(100))
                ]))
    }

    @Test func theNewestReadingIsPublishedWhenReadAndEveryReadingIsCounted() throws {
        let metrics = try HeadroomMetrics()
        let exported = ExportedPressure(metrics: metrics)
        #expect(exported.current() == nil)
        var classifier = PressureClassifier()
        let readings = [60.0, 70, 97].enumerated().map {
            reading($0.element, at: Double($0.offset), classifier: &classifier)
        }
        for reading in readings { exported.offer(reading) }
        // Offered, not yet read: nothing is published or counted.
        #expect(metrics.pressureSamples.value() == nil)
        #expect(metrics.pressureLevel.value() == nil)
        let status = try #require(exported.current())
        #expect(status == PressureStatus(readings[2]))
        #expect(status.json == PressureStatus(readings[2]).json)
        #expect(metrics.pressureLevel.value() == Double(readings[2].level.rawValue))
        #expect(
            metrics.temperature.value(labels: [
                "sensor": "cpu", "source": SensorSourceKind.thermalZone.rawValue,
            ]) == 97)
        #expect(metrics.pressureSamples.value() == 3)
        // Read again with nothing new: the same status, nothing more counted.
        #expect(exported.current() == status)
        #expect(metrics.pressureSamples.value() == 3)
        exported.offer(reading(55, at: 3, classifier: &classifier))
        #expect(exported.current()?.sensors.first?.celsius == 55)
        #expect(metrics.pressureSamples.value() == 4)
    }

    @Test func readersOnOtherThreadsMissNoReadingInTheCount() async throws {
        let metrics = try HeadroomMetrics()
        let exported = ExportedPressure(metrics: metrics)
        var classifier = PressureClassifier()
        let readings = (0..<2_000).map {
            reading(50 + Double($0 % 40), at: Double($0) / 10, classifier: &classifier)
        }
        // The sampling thread offers while two "scrapes" read, as server threads do.
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    Thread {
                        for reading in readings { exported.offer(reading) }
                        done.resume()
                    }.start()
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<500 { _ = exported.current() }
                }
            }
        }
        #expect(exported.current() == PressureStatus(readings[1_999]))
        #expect(metrics.pressureSamples.value() == 2_000)
    }
}
