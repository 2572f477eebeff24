import Foundation
import Telemetry
import Testing

/// Handles bound to a series at creation: publishing without label lookups, locks or errors.
struct MetricHandleTests {
    @Test(
        "a gauge handle's series appears at its first set, shares the labelled series, and can be removed"
    )
    func gauge() throws {
        let registry = MetricsRegistry()
        let gauge = try registry.gauge("t_celsius", help: "T.", labelNames: ["sensor"])
        let handle = try gauge.handle(labels: ["sensor": "cpu"])
        #expect(handle.value == nil)
        #expect(!registry.exposition(.prometheusText).contains("t_celsius{"))
        handle.set(41.5)
        #expect(gauge.value(labels: ["sensor": "cpu"]) == 41.5)
        #expect(registry.exposition(.prometheusText).contains("t_celsius{sensor=\"cpu\"} 41.5"))
        try gauge.set(42, labels: ["sensor": "cpu"])
        #expect(handle.value == 42)
        handle.remove()
        #expect(gauge.value(labels: ["sensor": "cpu"]) == nil)
        handle.set(43)
        #expect(gauge.value(labels: ["sensor": "cpu"]) == 43)
        gauge.removeAll()
        #expect(handle.value == nil)
        #expect(throws: MetricError.self) { try gauge.handle(labels: ["zone": "x"]) }
    }

    @Test("a counter handle only goes up and counts exactly from many threads")
    func counter() async throws {
        let counter = try MetricsRegistry().counter("t_total", help: "T.")
        let handle = try counter.handle()
        handle.increment(by: -1)
        handle.increment(by: .nan)
        #expect(handle.value == nil)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<10_000 { handle.increment() } }
            }
        }
        #expect(counter.value() == 80_000)
        try counter.increment(by: 0.5)
        #expect(handle.value == 80_000.5)
    }
}
