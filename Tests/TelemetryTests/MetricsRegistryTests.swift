import Testing

@testable import Telemetry

@Suite struct MetricsRegistryTests {
    @Test func gaugeSeriesAppearOnlyOnceSetAndVanishWhenRemoved() throws {
        let registry = MetricsRegistry()
        let temperature = try registry.gauge(
            "headroom_temperature_celsius", help: "Temperature.", labelNames: ["sensor", "source"])
        #expect(!registry.exposition(.prometheusText).contains("headroom_temperature_celsius{"))
        try temperature.set(61.5, labels: ["sensor": "cpu", "source": "hwmon"])
        #expect(
            registry.exposition(.prometheusText).contains(
                "headroom_temperature_celsius{sensor=\"cpu\",source=\"hwmon\"} 61.5\n"))
        try temperature.remove(labels: ["sensor": "cpu", "source": "hwmon"])
        #expect(!registry.exposition(.prometheusText).contains("headroom_temperature_celsius{"))
    }

    @Test func counterOnlyGoesUp() throws {
        let registry = MetricsRegistry()
        let frames = try registry.counter("headroom_frames_total", help: "Frames.")
        try frames.increment()
        try frames.increment(by: 2)
        #expect(frames.value() == 3)
        #expect(throws: MetricError.invalidIncrement(metric: "headroom_frames_total", value: -1)) {
            try frames.increment(by: -1)
        }
        #expect(throws: MetricError.self) { try frames.increment(by: .nan) }
        #expect(frames.value() == 3)
    }

    @Test func updatesMustNameExactlyTheRegisteredLabels() throws {
        let registry = MetricsRegistry()
        let rate = try registry.gauge("rate_hertz", help: "Rate.", labelNames: ["kind"])
        #expect(
            throws: MetricError.labelMismatch(metric: "rate_hertz", expected: ["kind"], got: [])
        ) { try rate.set(1) }
        #expect(throws: MetricError.self) { try rate.set(1, labels: ["kind": "a", "extra": "b"]) }
        #expect(throws: MetricError.self) { try rate.set(1, labels: ["other": "a"]) }
        #expect(
            registry.exposition(.prometheusText)
                == "# HELP rate_hertz Rate.\n# TYPE rate_hertz gauge\n")
    }

    @Test(arguments: ["", "1abc", "with-dash", "spa ce", "ünicode"])
    func invalidMetricNamesAreRejected(name: String) {
        #expect(throws: MetricError.self) { try MetricsRegistry().gauge(name, help: "x") }
    }

    @Test(arguments: [["__reserved"], ["a:b"], ["x", "x"], ["9"]])
    func invalidLabelNamesAreRejected(labels: [String]) {
        #expect(throws: MetricError.self) {
            try MetricsRegistry().gauge("ok", help: "x", labelNames: labels)
        }
    }

    @Test func counterNamesMustEndInTotal() {
        #expect(throws: MetricError.self) { try MetricsRegistry().counter("frames", help: "x") }
        #expect(throws: MetricError.self) { try MetricsRegistry().counter("_total", help: "x") }
    }

    @Test func registeringTheSameMetricTwiceSharesItsSeries() throws {
        let registry = MetricsRegistry()
        let first = try registry.counter("a_total", help: "A.", labelNames: ["k"])
        let second = try registry.counter("a_total", help: "A.", labelNames: ["k"])
        try first.increment(labels: ["k": "v"])
        try second.increment(labels: ["k": "v"])
        #expect(first.value(labels: ["k": "v"]) == 2)
        #expect(registry.metricNames == ["a_total"])
        #expect(throws: MetricError.conflictingRegistration("a_total")) {
            try registry.gauge("a_total", help: "A.", labelNames: ["k"])
        }
        #expect(throws: MetricError.conflictingRegistration("a_total")) {
            try registry.counter("a_total", help: "A.", labelNames: ["other"])
        }
    }

    @Test(arguments: [[], [1, 1], [2, 1], [1, .infinity], [.nan]] as [[Double]])
    func histogramBucketsMustBeFiniteAndIncreasing(buckets: [Double]) {
        #expect(throws: MetricError.self) {
            try MetricsRegistry().histogram("h_seconds", help: "H.", buckets: buckets)
        }
    }

    @Test func histogramRejectsTheLeLabel() {
        #expect(throws: MetricError.self) {
            try MetricsRegistry().histogram(
                "h_seconds", help: "H.", labelNames: ["le"], buckets: [1])
        }
    }

    @Test func concurrentUpdatesAreAllCounted() async throws {
        let registry = MetricsRegistry()
        let counter = try registry.counter("c_total", help: "C.", labelNames: ["worker"])
        let histogram = try registry.histogram("h_seconds", help: "H.", buckets: [0.5])
        await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in 0..<1000 {
                        try counter.increment(labels: ["worker": String(worker % 2)])
                        try histogram.observe(0.25)
                        _ = registry.exposition(.openMetrics)
                    }
                }
            }
        }
        #expect(counter.value(labels: ["worker": "0"]) == 4000)
        #expect(counter.value(labels: ["worker": "1"]) == 4000)
        #expect(histogram.count() == 8000)
    }
}
