import Locking

/// The metrics every Headroom instance exports, registered under the names that dashboards,
/// alert rules and users rely on (docs/fleet.md). Extend it; never rename a metric.
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
    /// `headroom_thermal_headroom_ratio`: 0 at baseline, 1 at the serious threshold, above 1
    /// past it (Android's `getThermalHeadroom` scale).
    public let thermalHeadroom: Gauge
    /// `headroom_thermal_headroom_forecast_ratio`: the same, forecast a few seconds ahead.
    public let thermalHeadroomForecast: Gauge
    /// `headroom_sustainable_budget_ratio`: share of the device budget sustainable now, 0…1.
    public let sustainableBudget: Gauge
    /// `headroom_simulated`: 1 while any pressure input is simulated (model, replay), else 0.
    public let simulated: Gauge
    /// `headroom_power_watts{rail}`: each power rail's power (INA3221, INA2xx).
    public let powerWatts: Gauge
    /// `headroom_voltage_volts{sensor}`: supply and rail voltages.
    public let voltageVolts: Gauge
    /// `headroom_throttled{reason,when}`: 1 while a Raspberry Pi firmware condition holds
    /// (`when` = `now`) or has held since boot (`when` = `has_occurred`), else 0.
    public let throttled: Gauge
    /// `headroom_gpu_load_ratio{device}`: an integrated GPU's busy share, 0…1.
    public let gpuLoad: Gauge
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
    /// `headroom_storage_remaining_bytes`: the pro video storage reserve's free bytes, falling
    /// while a recording writes into it.
    public let storageRemaining: Gauge
    /// `headroom_storage_write_seconds`: how long each recorded frame's write took.
    public let storageWriteSeconds: Histogram
    /// `headroom_recording_frames_dropped_total`: frames the recorder's queue had no room for.
    public let recordingFramesDropped: Counter
    /// `headroom_tracking_quality_ratio{metric}`: IDF1 and HOTA over the last 30 s against
    /// ground truth (absent without it).
    public let trackingQuality: Gauge
    /// `headroom_service_clients`: pipelines registered with the host service.
    public let serviceClients: Gauge
    /// `headroom_advice_frame_rate_hertz{client,name}`: the frame rate the host service
    /// advises each registered pipeline (0 = pause).
    public let adviceFrameRate: Gauge
    /// `headroom_mqtt_connected{connection}`: 1 while an MQTT connection (`state`, `frigate`)
    /// is up, 0 while it is not (never made, refused, or lost).
    public let mqttConnected: Gauge

    /// The series the pipeline publishes every frame or status, bound once: publishing them
    /// is an atomic store and cannot fail.
    private let bound: BoundSeries
    /// The last status published, without its document: publishing an unchanged status
    /// again is skipped (at 10 Hz most readings repeat the last one).
    private let lastPublished = LockedState<PressureStatus?>(nil)

    private struct BoundSeries: Sendable {
        var pressureLevel: GaugeHandle
        var thermalHeadroom: GaugeHandle
        var thermalHeadroomForecast: GaugeHandle
        var sustainableBudget: GaugeHandle
        var simulated: GaugeHandle
        var pressureSamples: CounterHandle
        var hardwareCost: GaugeHandle
        var systemPressureCost: GaugeHandle
        var targetFrameRate: GaugeHandle
        var actualFrameRate: GaugeHandle
        var inferenceStride: GaugeHandle
        var frames: CounterHandle
        var framesDropped: CounterHandle
        var governorChanges: CounterHandle
        var storageRemaining: GaugeHandle
        var recordingFramesDropped: CounterHandle
    }

    /// Bucket bounds for launch phases, in seconds: 1 ms to 10 s.
    public static let launchPhaseBuckets: [Double] = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    /// Bucket bounds for recorded frames' writes, in seconds: 10 µs to 1 s.
    public static let storageWriteBuckets: [Double] = [
        0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
        0.05, 0.1, 0.25, 1,
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
            help: "Thermal headroom: 0 at baseline, 1 at the serious threshold.")
        thermalHeadroomForecast = try registry.gauge(
            "headroom_thermal_headroom_forecast_ratio",
            help: "Thermal headroom forecast a few seconds ahead (0 baseline, 1 serious).")
        sustainableBudget = try registry.gauge(
            "headroom_sustainable_budget_ratio",
            help: "Share of the device budget sustainable at the current pressure, 0 to 1.")
        simulated = try registry.gauge(
            "headroom_simulated", help: "1 while any pressure input is simulated, else 0.")
        pressureSamples = try registry.counter(
            "headroom_pressure_samples_total", help: "Pressure readings taken.")
        powerWatts = try registry.gauge(
            "headroom_power_watts", help: "Power rail power in watts.", labelNames: ["rail"])
        voltageVolts = try registry.gauge(
            "headroom_voltage_volts", help: "Supply or rail voltage in volts.",
            labelNames: ["sensor"])
        throttled = try registry.gauge(
            "headroom_throttled",
            help:
                "1 while a firmware throttling condition holds (when=now) or has held since boot (when=has_occurred).",
            labelNames: ["reason", "when"])
        gpuLoad = try registry.gauge(
            "headroom_gpu_load_ratio", help: "Integrated GPU busy share, 0 to 1.",
            labelNames: ["device"])
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
        storageRemaining = try registry.gauge(
            "headroom_storage_remaining_bytes",
            help: "Free bytes in the pro video storage reserve.")
        storageWriteSeconds = try registry.histogram(
            "headroom_storage_write_seconds", help: "Time to write one recorded frame, seconds.",
            buckets: Self.storageWriteBuckets)
        recordingFramesDropped = try registry.counter(
            "headroom_recording_frames_dropped_total",
            help: "Frames the recorder dropped because its queue was full.")
        trackingQuality = try registry.gauge(
            "headroom_tracking_quality_ratio",
            help:
                "Tracking quality against ground truth over the last 30 s, 0 to 1; metric is idf1 or hota.",
            labelNames: ["metric"])
        serviceClients = try registry.gauge(
            "headroom_service_clients", help: "Pipelines registered with the host service.")
        adviceFrameRate = try registry.gauge(
            "headroom_advice_frame_rate_hertz",
            help: "The frame rate the host service advises each registered pipeline; 0 = pause.",
            labelNames: ["client", "name"])
        mqttConnected = try registry.gauge(
            "headroom_mqtt_connected",
            help:
                "1 while the MQTT connection is up, 0 while it is not; connection is state or frigate.",
            labelNames: ["connection"])
        bound = BoundSeries(
            pressureLevel: try pressureLevel.handle(),
            thermalHeadroom: try thermalHeadroom.handle(),
            thermalHeadroomForecast: try thermalHeadroomForecast.handle(),
            sustainableBudget: try sustainableBudget.handle(), simulated: try simulated.handle(),
            pressureSamples: try pressureSamples.handle(),
            hardwareCost: try hardwareCost.handle(),
            systemPressureCost: try systemPressureCost.handle(),
            targetFrameRate: try frameRate.handle(labels: ["kind": "target"]),
            actualFrameRate: try frameRate.handle(labels: ["kind": "actual"]),
            inferenceStride: try inferenceStride.handle(), frames: try frames.handle(),
            framesDropped: try framesDropped.handle(),
            governorChanges: try governorChanges.handle(),
            storageRemaining: try storageRemaining.handle(),
            recordingFramesDropped: try recordingFramesDropped.handle())
    }

    /// Publishes the status of a pressure reading. Unknown values (nil) remove their series
    /// rather than export a made-up number; sensors not in `status` leave the exposition. The
    /// readings are counted apart, with ``countPressureReadings(_:)``: a status may be published
    /// for the newest of several readings.
    public func publish(_ status: PressureStatus) {
        var remembered = status
        remembered.document = Self.noDocument
        let isUnchanged = lastPublished.withLock { last in
            defer { last = remembered }
            return last == remembered
        }
        guard !isUnchanged else { return }
        bound.pressureLevel.set(Double(status.level))
        pressureFactorLevel.family.replaceAll(
            with: status.factorLevels.map { ([$0.key], Double($0.value)) })
        func publish(_ value: Double?, to handle: GaugeHandle) {
            if let value, !value.isNaN { handle.set(value) } else { handle.remove() }
        }
        publish(status.headroom, to: bound.thermalHeadroom)
        publish(status.headroomForecast, to: bound.thermalHeadroomForecast)
        publish(status.sustainableShare, to: bound.sustainableBudget)
        bound.simulated.set(status.isSimulated ? 1 : 0)
        // Each family is swapped whole, so a scrape never sees half a reading of it.
        func values(_ value: (SensorSample) -> Double?) -> [([String], Double)] {
            status.sensors.compactMap { sample in
                value(sample).map { ([sample.sensor, sample.source], $0) }
            }
        }
        temperature.family.replaceAll(with: values(\.celsius))
        temperatureHigh.family.replaceAll(with: values(\.highCelsius))
        temperatureCritical.family.replaceAll(with: values(\.criticalCelsius))
        sensorStale.family.replaceAll(with: values { $0.celsius == nil ? 1 : 0 })
        let board = status.board
        powerWatts.family.replaceAll(with: board.railWatts.map { ([$0.key], $0.value) })
        voltageVolts.family.replaceAll(with: board.volts.map { ([$0.key], $0.value) })
        throttled.family.replaceAll(
            with: board.firmwareConditions.flatMap { condition in
                [
                    ([condition.reason, "now"], condition.isActive ? 1.0 : 0),
                    ([condition.reason, "has_occurred"], condition.hasOccurred ? 1.0 : 0),
                ]
            })
        gpuLoad.family.replaceAll(with: board.gpuLoad.map { ([$0.key], $0.value) })
    }

    /// Counts `count` more pressure readings taken, in `headroom_pressure_samples_total`.
    public func countPressureReadings(_ count: Int) {
        bound.pressureSamples.increment(by: Double(count))
    }

    /// The document of every remembered status: statuses compare by their values alone.
    private static let noDocument = DeferredText(text: "")

    /// Publishes the pipeline's current settings and rates.
    public func publishPipeline(
        targetFrameRate: Double, actualFrameRate: Double, inferenceStride stride: Int
    ) {
        bound.targetFrameRate.set(targetFrameRate)
        bound.actualFrameRate.set(actualFrameRate)
        bound.inferenceStride.set(Double(stride))
    }

    /// Publishes a recording's progress: the reserve's remaining bytes (when it records
    /// through one) and the frames it dropped since the last call.
    public func publishRecording(remainingBytes: Int64?, newlyDropped: Int64) {
        if let remainingBytes { bound.storageRemaining.set(Double(remainingBytes)) }
        if newlyDropped > 0 { bound.recordingFramesDropped.increment(by: Double(newlyDropped)) }
    }

    /// Publishes the tracking quality over the recent window.
    public func publishTrackingQuality(idf1: Double, hota: Double) {
        trackingQuality.family.replaceAll(with: [(["idf1"], idf1), (["hota"], hota)])
    }

    /// Publishes the host service's clients: how many there are, and the frame rate advised to
    /// each, by its id and name; the series of clients not listed go, in the same step, so a
    /// scrape never sees a registered client missing.
    public func publishServiceClients(
        _ clients: [(id: String, name: String, advisedFrameRate: Double)]
    ) {
        serviceClients.family.set(Double(clients.count), at: [])
        adviceFrameRate.family.replaceAll(
            with: clients.map { ([$0.id, $0.name], $0.advisedFrameRate) })
    }

    /// Publishes whether the MQTT connection `name` (`state`, `frigate`) is up.
    public func publishMQTTConnection(_ name: String, isConnected: Bool) {
        mqttConnected.family.set(isConnected ? 1 : 0, at: [name])
    }

    /// Publishes the committed session's hardware cost.
    public func publishHardwareCost(_ cost: Double) { bound.hardwareCost.set(cost) }

    /// Publishes the session's cost over the budget sustainable now.
    public func publishSystemPressureCost(_ cost: Double) { bound.systemPressureCost.set(cost) }

    /// Counts frames delivered to the pipeline and frames dropped before it.
    public func countFrames(delivered: Int, dropped: Int) {
        bound.frames.increment(by: Double(delivered))
        bound.framesDropped.increment(by: Double(dropped))
    }

    /// Counts one change of the governor's settings.
    public func countGovernorChange() { bound.governorChanges.increment() }

    /// Records one recorded frame's write time, in seconds.
    public func recordStorageWrite(seconds: Double) {
        storageWriteSeconds.family.observe(seconds, at: [])
    }

    /// Records the duration of one launch phase, in seconds.
    public func recordLaunchPhase(_ phase: String, seconds: Double) {
        launchPhase.family.observe(seconds, at: [phase])
    }
}
