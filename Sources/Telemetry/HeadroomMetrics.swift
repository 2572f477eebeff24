/// The metrics every Headroom instance exports, registered under the names that dashboards,
/// alert rules and users rely on (DESIGN.md, "Metrics"). Extend it; never rename a metric.
///
/// The properties are the registered metrics; the methods publish a whole reading at once so
/// that callers cannot leave, say, a stale sensor's last temperature behind.
public struct HeadroomMetrics: Sendable {
    /// The registry these metrics live in; serve it or write it to a textfile.
    public let registry: MetricsRegistry

    /// `headroom_pressure_level`: 0 nominal, 1 fair, 2 serious, 3 critical, 4 shutdown.
    public let pressureLevel: Gauge
    /// `headroom_pressure_factor_level{factor}`: the level each factor asks for (same scale).
    public let pressureFactorLevel: Gauge
    /// `headroom_temperature_celsius{sensor,source}`: the latest readable temperatures.
    public let temperature: Gauge
    /// `headroom_temperature_high_celsius{sensor,source}`: each sensor's high limit `H`.
    public let temperatureHigh: Gauge
    /// `headroom_temperature_critical_celsius{sensor,source}`: each sensor's critical limit `C`.
    public let temperatureCritical: Gauge
    /// `headroom_sensor_stale{sensor,source}`: 1 while a sensor cannot be read, else 0.
    public let sensorStale: Gauge
    /// `headroom_thermal_headroom_ratio`: 1 cool … 0 at the critical limit.
    public let thermalHeadroom: Gauge
    /// `headroom_pressure_samples_total`: pressure readings taken since start.
    public let pressureSamples: Counter
    /// `headroom_hardware_cost_ratio`: the committed configuration's cost over the budget.
    public let hardwareCost: Gauge
    /// `headroom_system_pressure_cost_ratio`: cost over the budget sustainable right now.
    public let systemPressureCost: Gauge
    /// `headroom_pipeline_frame_rate_hertz{kind}`: `kind` is `target` or `actual`.
    public let frameRate: Gauge
    /// `headroom_inference_stride`: the detector runs on every stride-th frame (≥ 1).
    public let inferenceStride: Gauge
    /// `headroom_frames_total`: frames delivered to the pipeline.
    public let frames: Counter
    /// `headroom_frames_dropped_total`: frames dropped before processing.
    public let framesDropped: Counter
    /// `headroom_governor_changes_total`: times the governor changed the pipeline's settings.
    public let governorChanges: Counter
    /// `headroom_launch_phase_seconds{phase}`: duration of each launch phase, one per launch.
    public let launchPhase: Histogram

    /// Bucket bounds for launch phases, in seconds: 1 ms to 10 s.
    public static let launchPhaseBuckets: [Double] = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    /// Registers the Headroom metrics in `registry` (a fresh one by default).
    ///
    /// - Throws: ``MetricError/conflictingRegistration(_:)`` when `registry` already holds one
    ///   of these names with a different definition.
    public init(registry: MetricsRegistry = MetricsRegistry()) throws(MetricError) {
        self.registry = registry
        let sensor = ["sensor", "source"]
        pressureLevel = try registry.gauge(
            "headroom_pressure_level",
            help: "System pressure level: 0 nominal, 1 fair, 2 serious, 3 critical, 4 shutdown.")
        pressureFactorLevel = try registry.gauge(
            "headroom_pressure_factor_level",
            help: "Pressure level each factor asks for (0 nominal ... 4 shutdown).",
            labelNames: ["factor"])
        temperature = try registry.gauge(
            "headroom_temperature_celsius", help: "Sensor temperature in degrees Celsius.",
            labelNames: sensor)
        temperatureHigh = try registry.gauge(
            "headroom_temperature_high_celsius",
            help: "Sensor high limit (serious pressure) in degrees Celsius.", labelNames: sensor)
        temperatureCritical = try registry.gauge(
            "headroom_temperature_critical_celsius",
            help: "Sensor critical limit (shutdown pressure) in degrees Celsius.",
            labelNames: sensor)
        sensorStale = try registry.gauge(
            "headroom_sensor_stale", help: "1 while the sensor cannot be read, else 0.",
            labelNames: sensor)
        thermalHeadroom = try registry.gauge(
            "headroom_thermal_headroom_ratio",
            help: "Thermal headroom: 1 cool, 0 at the critical limit.")
        pressureSamples = try registry.counter(
            "headroom_pressure_samples_total", help: "Pressure readings taken.")
        hardwareCost = try registry.gauge(
            "headroom_hardware_cost_ratio",
            help: "Hardware cost of the committed capture configuration over the budget.")
        systemPressureCost = try registry.gauge(
            "headroom_system_pressure_cost_ratio",
            help: "Cost of the configuration over the budget sustainable at current headroom.")
        frameRate = try registry.gauge(
            "headroom_pipeline_frame_rate_hertz",
            help: "Pipeline frame rate in hertz; kind is target or actual.", labelNames: ["kind"])
        inferenceStride = try registry.gauge(
            "headroom_inference_stride", help: "The detector runs on every stride-th frame.")
        frames = try registry.counter(
            "headroom_frames_total", help: "Frames delivered to the pipeline.")
        framesDropped = try registry.counter(
            "headroom_frames_dropped_total", help: "Frames dropped before processing.")
        governorChanges = try registry.counter(
            "headroom_governor_changes_total",
            help: "Times the governor changed frame rate, stride or detector scale.")
        launchPhase = try registry.histogram(
            "headroom_launch_phase_seconds", help: "Launch phase duration in seconds.",
            labelNames: ["phase"], buckets: Self.launchPhaseBuckets)
    }

    /// Publishes one pressure reading: the overall level (0–4), each factor's level, the thermal
    /// headroom ratio (nil when unknown, which removes the series) and every sensor.
    public func publish(
        level: Int, factorLevels: [String: Int], headroom: Double?,
        sensors: [SensorSample]
    ) {
        pressureLevel.family.set(Double(level), at: [])
        pressureFactorLevel.family.replaceAll(
            with: factorLevels.map { ([$0.key], Double($0.value)) })
        if let headroom {
            thermalHeadroom.family.set(headroom, at: [])
        } else {
            thermalHeadroom.family.remove(at: [])
        }
        // Each family is swapped whole, so a scrape never sees half a reading of it.
        func values(_ value: (SensorSample) -> Double?) -> [([String], Double)] {
            sensors.compactMap { sample in
                value(sample).map { ([sample.sensor, sample.source], $0) }
            }
        }
        temperature.family.replaceAll(with: values(\.celsius))
        temperatureHigh.family.replaceAll(with: values(\.highCelsius))
        temperatureCritical.family.replaceAll(with: values(\.criticalCelsius))
        sensorStale.family.replaceAll(with: values { $0.celsius == nil ? 1 : 0 })
        pressureSamples.family.add(1, at: [])
    }

    /// Publishes the pipeline's current settings and rates.
    public func publishPipeline(
        targetFrameRate: Double, actualFrameRate: Double, inferenceStride stride: Int
    ) {
        frameRate.family.set(targetFrameRate, at: ["target"])
        frameRate.family.set(actualFrameRate, at: ["actual"])
        inferenceStride.family.set(Double(stride), at: [])
    }

    /// Records the duration of one launch phase, in seconds.
    public func recordLaunchPhase(_ phase: String, seconds: Double) {
        launchPhase.family.observe(seconds, at: [phase])
    }
}
