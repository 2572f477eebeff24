import Testing

@testable import Telemetry

@Suite struct ExpositionTests {
    private func sampleRegistry() throws -> MetricsRegistry {
        let registry = MetricsRegistry()
        let frames = try registry.counter(
            "headroom_frames_total", help: "Frames \"delivered\".\nSecond line \\ end.")
        try frames.increment(by: 3)
        let temperature = try registry.gauge(
            "headroom_temperature_celsius", help: "Temperature.", labelNames: ["sensor", "source"])
        try temperature.set(70, labels: ["sensor": "zone \"b\"\n\\", "source": "thermal_zone"])
        try temperature.set(55.25, labels: ["sensor": "a", "source": "hwmon"])
        try temperature.set(.nan, labels: ["sensor": "c", "source": "hwmon"])
        let phase = try registry.histogram(
            "headroom_launch_phase_seconds", help: "Phase.", labelNames: ["phase"],
            buckets: [0.1, 1])
        for value in [0.05, 0.5, 0.7, 3] {
            try phase.observe(value, labels: ["phase": "start"])
        }
        return registry
    }

    @Test func prometheusTextMatchesVersion004() throws {
        let text = try sampleRegistry().exposition(.prometheusText)
        #expect(
            text == """
                # HELP headroom_frames_total Frames "delivered".\\nSecond line \\\\ end.
                # TYPE headroom_frames_total counter
                headroom_frames_total 3.0
                # HELP headroom_temperature_celsius Temperature.
                # TYPE headroom_temperature_celsius gauge
                headroom_temperature_celsius{sensor="a",source="hwmon"} 55.25
                headroom_temperature_celsius{sensor="c",source="hwmon"} NaN
                headroom_temperature_celsius{sensor="zone \\"b\\"\\n\\\\",source="thermal_zone"} 70.0
                # HELP headroom_launch_phase_seconds Phase.
                # TYPE headroom_launch_phase_seconds histogram
                headroom_launch_phase_seconds_bucket{phase="start",le="0.1"} 1
                headroom_launch_phase_seconds_bucket{phase="start",le="1.0"} 3
                headroom_launch_phase_seconds_bucket{phase="start",le="+Inf"} 4
                headroom_launch_phase_seconds_sum{phase="start"} 4.25
                headroom_launch_phase_seconds_count{phase="start"} 4

                """)
    }

    @Test func openMetricsNamesCounterFamiliesWithoutTotalAndEndsWithEOF() throws {
        let text = try sampleRegistry().exposition(.openMetrics)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.first
                == "# HELP headroom_frames Frames \\\"delivered\\\".\\nSecond line \\\\ end.")
        #expect(lines.contains("# TYPE headroom_frames counter"))
        #expect(lines.contains("headroom_frames_total 3.0"))
        #expect(!lines.contains { $0.hasPrefix("# TYPE headroom_frames_total") })
        #expect(lines.contains("# TYPE headroom_launch_phase_seconds histogram"))
        #expect(text.hasSuffix("\n# EOF\n"))
        #expect(text.components(separatedBy: "# EOF").count == 2)
    }

    @Test func infinitiesUseTheExpositionSpelling() throws {
        let registry = MetricsRegistry()
        let gauge = try registry.gauge("g", help: "G.", labelNames: ["k"])
        try gauge.set(.infinity, labels: ["k": "up"])
        try gauge.set(-.infinity, labels: ["k": "down"])
        let text = registry.exposition(.prometheusText)
        #expect(text.contains("g{k=\"up\"} +Inf\n"))
        #expect(text.contains("g{k=\"down\"} -Inf\n"))
    }

    @Test(arguments: [0.0, 0.001, 0.0025, 1, 2.5, 10, 1e-7, 123_456_789.5])
    func histogramBucketsAreCumulativeAndEndAtCount(observation: Double) throws {
        let registry = MetricsRegistry()
        let histogram = try registry.histogram(
            "h_seconds", help: "H.", buckets: HeadroomMetrics.launchPhaseBuckets)
        try histogram.observe(observation)
        try histogram.observe(0.03)
        let counts = registry.exposition(.prometheusText).split(separator: "\n")
            .filter { $0.hasPrefix("h_seconds_bucket") }
            .map { Int($0.split(separator: " ").last!)! }
        #expect(counts.count == HeadroomMetrics.launchPhaseBuckets.count + 1)
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(counts.last == 2)
        let firstContaining = HeadroomMetrics.launchPhaseBuckets.firstIndex { observation <= $0 }
        if let firstContaining {
            #expect(counts[firstContaining] >= 1)
            if firstContaining > 0 { #expect(counts[firstContaining - 1] <= 1) }
        }
    }
}
