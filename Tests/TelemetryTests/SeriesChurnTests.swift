import Testing

@testable import Telemetry

/// Series that come and go — a client registered and lapsed, a sensor gone — keep no memory.
struct SeriesChurnTests {
    @Test("series replaced or removed go for good; one a handle holds stays bound")
    func churn() throws {
        let registry = MetricsRegistry()
        let gauge = try registry.gauge("advice_hertz", help: "A.", labelNames: ["client"])
        let held = try gauge.handle(labels: ["client": "held"])
        held.set(1)
        for index in 0..<1000 {
            gauge.family.replaceAll(with: [(["held"], 1), (["c\(index)"], Double(index))])
        }
        #expect(gauge.family.keptSeriesCount == 2)
        #expect(gauge.value(labels: ["client": "c999"]) == 999)
        try gauge.set(5, labels: ["client": "once"])
        try gauge.remove(labels: ["client": "once"])
        gauge.family.replaceAll(with: [])
        // Gone from the export, but the handle's series is kept for it, absent until it sets.
        #expect(gauge.family.keptSeriesCount == 1)
        #expect(!registry.exposition(.prometheusText).contains("advice_hertz{"))
        held.set(2)
        #expect(registry.exposition(.prometheusText).contains("advice_hertz{client=\"held\"} 2"))
    }
}
