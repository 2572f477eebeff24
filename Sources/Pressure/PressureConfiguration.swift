import Files
import Units

/// The classifier's rules, readable from a JSON file; every key is optional and unknown keys
/// are errors. Defaults are docs/pressure.md's table.
public struct PressureConfiguration: Hashable, Sendable, Codable {
    /// Temperature rules.
    public var temperature = TemperatureRules()
    /// Levels of the throttled share of the maximum CPU frequency (0…1).
    public var throttling = RatioRules(fair: 0.05, serious: 0.25, critical: 0.5, hysteresis: 0.02)
    /// Levels of CPU pressure (`some avg10`, percent); contention, so the factor stops at
    /// `fair` (``PressureFactor/Kind/ceiling``) whatever the higher thresholds say.
    public var cpuPressure = RatioRules(fair: 25, serious: 50, critical: 80, hysteresis: 5)
    /// Levels of memory pressure (`full avg10`, percent).
    public var memoryPressure = RatioRules(fair: 5, serious: 15, critical: 30, hysteresis: 2)
    /// Levels of I/O pressure (`some avg10`, percent); the factor stops at `serious`.
    public var ioPressure = RatioRules(fair: 30, serious: 60, critical: 90, hysteresis: 5)
    /// How headroom is computed and forecast.
    public var headroom = HeadroomRules()
    /// How headroom maps to the sustainable budget share.
    public var budget = SustainableBudget()
    /// When the observer samples slowly.
    public var sampling = SamplingRules()

    /// The defaults.
    public init() {}

    /// Temperature limits, margins and sensor roles.
    public struct TemperatureRules: Hashable, Sendable, Codable {
        /// `H` for sensors that declare neither limit, °C.
        public var defaultHigh = 80.0
        /// `C` for sensors that declare neither limit, °C.
        public var defaultCritical = 100.0
        /// `C − H` used to derive the missing one of the two limits, °C.
        public var highBelowCritical = 15.0
        /// `fair` starts this far below `H`, °C.
        public var fairBelowHigh = 10.0
        /// `critical` starts this far below `C` when there is no `hot` trip point, °C.
        public var criticalBelowCritical = 5.0
        /// The margin to fall below a level's threshold to leave it, unless the sensor declares
        /// its own, °C.
        public var hysteresis = 3.0
        /// Case-insensitive label fragments that make a sensor a camera sensor.
        public var cameraLabels = ["camera"]
        /// Sensors left out of classification (still listed).
        public var ignoredSensors: [SensorID] = []
        /// Sensor labels left out of classification (still listed): by default a Jetson's
        /// `PMIC-Die` zone, which reads a fixed 100 °C rather than a measurement (jetson-stats
        /// leaves it out for the same reason).
        public var ignoredLabels = ["PMIC-Die"]
        /// Per-sensor limits that replace what the hardware declares.
        public var sensors: [String: SensorLimits] = [:]

        /// The defaults.
        public init() {}
    }

    /// Limits for one sensor; a missing field keeps the hardware's or derived value.
    public struct SensorLimits: Hashable, Sendable, Codable {
        /// The high limit `H`, °C.
        public var high: Double?
        /// The critical limit `C`, °C.
        public var critical: Double?
        /// The hysteresis margin, °C.
        public var hysteresis: Double?

        /// Limits with the given values.
        public init(high: Double? = nil, critical: Double? = nil, hysteresis: Double? = nil) {
            self.high = high
            self.critical = critical
            self.hysteresis = hysteresis
        }
    }

    /// Rising thresholds for a non-temperature factor.
    public struct RatioRules: Hashable, Sendable, Codable {
        /// Entry threshold of `fair`.
        public var fair: Double
        /// Entry threshold of `serious`.
        public var serious: Double
        /// Entry threshold of `critical`.
        public var critical: Double
        /// The margin to fall below a threshold to leave its level.
        public var hysteresis: Double

        /// Rules with the given thresholds.
        public init(fair: Double, serious: Double, critical: Double, hysteresis: Double) {
            self.fair = fair
            self.serious = serious
            self.critical = critical
            self.hysteresis = hysteresis
        }

        /// The ladder these rules describe.
        public var ladder: ThresholdLadder {
            ThresholdLadder(steps: [
                .init(level: .fair, threshold: fair, hysteresis: hysteresis),
                .init(level: .serious, threshold: serious, hysteresis: hysteresis),
                .init(level: .critical, threshold: critical, hysteresis: hysteresis),
            ])
        }
    }

    /// Headroom scale and forecast, with Android's meaning (`getThermalHeadroom`).
    public struct HeadroomRules: Hashable, Sendable, Codable {
        /// Headroom is 0 this many °C below a sensor's serious threshold `H` and 1.0 at `H`,
        /// linear between: `(T − (H − span)) / span`.
        public var span = 30.0
        /// How far ahead the forecast looks, seconds (0–60, as Android allows).
        public var forecastSeconds = 10.0
        /// The trend is fitted over this many recent seconds.
        public var window = 30.0
        /// Samples needed before there is a forecast (NaN before).
        public var minimumSamples = 3
        /// The least time between two points of the trend, seconds (less 10 % for wake-up
        /// jitter): faster samples are not added, so a forecast rests on about
        /// `(minimumSamples − 1) × spacing` seconds of history at least.
        public var spacing = 1.0

        /// The defaults.
        public init() {}
    }

    /// When the observer may sample slowly (see ``PressureObserver``).
    public struct SamplingRules: Hashable, Sendable, Codable {
        /// The interval far from every threshold (`slowInterval` in seconds in the file).
        @SecondsCoded public var slowInterval: Duration = .seconds(1)
        /// "Within reach" of a threshold: headroom (now or forecast) at or above this, or a
        /// ratio factor at or above this share of its `fair` threshold, or a power rail at or
        /// above this share of its warning limit.
        public var reach = 0.7

        /// The defaults.
        public init() {}
    }

    /// Reads and validates a configuration file.
    ///
    /// - Throws: ``ConfigurationError`` naming the file and field for syntax errors, unknown
    ///   keys and out-of-order or negative thresholds.
    public static func load(from path: String) throws(ConfigurationError) -> PressureConfiguration {
        let data = try InputFile.read(path)
        return try decodeStrictly(PressureConfiguration.self, from: data, file: path)
    }
}
