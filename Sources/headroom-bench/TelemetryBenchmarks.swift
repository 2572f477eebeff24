import Telemetry

/// Telemetry's in-process costs: rendering `/metrics` for a machine with 16 sensors and a
/// pipeline running, and one labelled gauge update. HTTP throughput against node_exporter is
/// measured from a second process by `scripts/bench-metrics.sh`.
let telemetryBenchmarks: [Benchmark] = [
    Benchmark(
        name: "metrics.exposition",
        summary: "render /metrics bytes (Prometheus text): 16 sensors, pipeline, 6 launch phases",
        baselineSummary: "copying a string of the same size into a byte array",
        measure: {
            let metrics = try populatedMetrics()
            let bytes = metrics.registry.expositionBytes(.prometheusText)
            let nanoseconds = nanosecondsPerCall(iterations: 2_000) {
                blackHole(metrics.registry.expositionBytes(.prometheusText))
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let baseline = nanosecondsPerCall(iterations: 2_000) { blackHole(Array(text.utf8)) }
            return Measurement(
                nanoseconds: nanoseconds, baselineNanoseconds: baseline,
                extras: ["bytes": String(bytes.count)])
        }),
    Benchmark(
        name: "metrics.gauge-set",
        summary: "set one gauge series with two labels",
        baselineSummary: "a bare clock_gettime read",
        measure: {
            let gauge = try MetricsRegistry().gauge(
                "bench_celsius", help: "Bench.", labelNames: ["sensor", "source"])
            let labels = ["sensor": "cpu0", "source": "hwmon"]
            var value = 40.0
            let nanoseconds = nanosecondsPerCall(iterations: 200_000) {
                value += 0.001
                try? gauge.set(value, labels: labels)
            }
            return Measurement(
                nanoseconds: nanoseconds, baselineNanoseconds: clockReadNanoseconds())
        }),
    Benchmark(
        name: "metrics.gauge-handle-set",
        summary: "set one gauge series with two labels through a handle bound at creation",
        baselineSummary: "the same set by labels (metrics.gauge-set's path)",
        targetNanoseconds: 50,
        measure: {
            let gauge = try MetricsRegistry().gauge(
                "bench_celsius", help: "Bench.", labelNames: ["sensor", "source"])
            let labels = ["sensor": "cpu0", "source": "hwmon"]
            let handle = try gauge.handle(labels: labels)
            var value = 40.0
            let nanoseconds = nanosecondsPerCall(iterations: 2_000_000) {
                value += 0.001
                handle.set(value)
            }
            let baseline = nanosecondsPerCall(iterations: 200_000) {
                value += 0.001
                try? gauge.set(value, labels: labels)
            }
            return Measurement(nanoseconds: nanoseconds, baselineNanoseconds: baseline)
        }),
    Benchmark(
        name: "metrics.counter-handle-increment",
        summary: "increment one counter series with a label through a handle bound at creation",
        baselineSummary: "the same increment by labels",
        targetNanoseconds: 20,
        measure: {
            let counter = try MetricsRegistry().counter(
                "bench_total", help: "Bench.", labelNames: ["kind"])
            let labels = ["kind": "frame"]
            let handle = try counter.handle(labels: labels)
            let nanoseconds = nanosecondsPerCall(iterations: 2_000_000) { handle.increment() }
            let baseline = nanosecondsPerCall(iterations: 200_000) {
                try? counter.increment(labels: labels)
            }
            return Measurement(nanoseconds: nanoseconds, baselineNanoseconds: baseline)
        }),
]

/// Headroom metrics as a busy instance exports them.
func populatedMetrics() throws -> HeadroomMetrics {
    let metrics = try HeadroomMetrics()
    let sensors = (0..<16).map {
        SensorSample(
            sensor: "coretemp-isa-0000/Core \($0)", source: "hwmon", celsius: 50 + Double($0),
            highCelsius: 85, criticalCelsius: 100)
    }
    metrics.publish(
        PressureStatus(
            level: 1, factorLevels: ["systemTemperature": 1, "cpuPressure": 0], headroom: 0.6,
            headroomForecast: 0.7, sustainableShare: 0.85, sensors: sensors))
    metrics.countPressureReadings(36_000)
    metrics.publishPipeline(targetFrameRate: 30, actualFrameRate: 29.7, inferenceStride: 2)
    for phase in [
        "processStart", "sessionConfiguration", "sessionStart", "outputInitialization",
        "firstPreviewFrame", "deferredStart",
    ] {
        for sample in 0..<20 { metrics.recordLaunchPhase(phase, seconds: 0.01 * Double(sample)) }
    }
    try metrics.frames.increment(by: 123_456)
    try metrics.hardwareCost.set(0.82)
    return metrics
}
