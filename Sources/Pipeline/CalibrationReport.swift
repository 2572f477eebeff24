import Capture
import Tracking

/// Everything `headroom calibrate` found: the profile it derived, the fit behind it, every
/// measurement, and the held-out validation.
public struct CalibrationReport: Codable, Sendable {
    /// The calibrated profile.
    public var profile: DeviceProfile
    /// The fitted parameters.
    public var fit: CalibrationFit
    /// The measurements the fit used.
    public var fitMeasurements: [CalibrationMeasurement]
    /// The measurements of held-out configurations.
    public var heldOutMeasurements: [CalibrationMeasurement]
    /// Predicted cost beside measured utilization at the held-out configurations.
    public var validation: CalibrationValidation
    /// The day of the calibration, `YYYY-MM-DD` (UTC).
    public var date: String
    /// Online CPUs: the budget.
    public var cores: Int
    /// How much the configurations' width and height were scaled down for this host, 0 < scale
    /// ≤ 1 (see ``HostCalibration/scaled(toSecondsPerPixel:)``).
    public var resolutionScale: Double
    /// How much the configurations' frame rates were scaled down for this host, 0 < scale ≤ 1
    /// (HOG keeps its sizes; see ``HostCalibration/scaled(toSecondsPerPixel:)``).
    public var frameRateScale: Double
    /// The detector measured.
    public var detector: DetectorKind

    /// Creates a report; see each property.
    public init(
        profile: DeviceProfile, fit: CalibrationFit, fitMeasurements: [CalibrationMeasurement],
        heldOutMeasurements: [CalibrationMeasurement], validation: CalibrationValidation,
        date: String, cores: Int, resolutionScale: Double = 1, frameRateScale: Double = 1,
        detector: DetectorKind = .blob
    ) {
        self.detector = detector
        self.profile = profile
        self.fit = fit
        self.fitMeasurements = fitMeasurements
        self.heldOutMeasurements = heldOutMeasurements
        self.validation = validation
        self.date = date
        self.cores = cores
        self.resolutionScale = resolutionScale
        self.frameRateScale = frameRateScale
    }
}

/// Where a calibration is: reported while it measures, for a progress bar.
public struct CalibrationProgress: Sendable {
    /// The configuration being measured.
    public var point: CalibrationPoint
    /// Its position among all configurations, from 0.
    public var index: Int
    /// How many configurations there are.
    public var count: Int
    /// Whether it is held out for validation (rather than fitted).
    public var isHeldOut: Bool
    /// The share of the whole calibration done, 0…1.
    public var fraction: Double
    /// Its measurement, once the configuration is done; `nil` while it runs.
    public var measurement: CalibrationMeasurement?
}
