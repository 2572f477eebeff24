import Capture
import Tracking
import Units

/// The hardware-cost model's parameters for this host, fitted to measurements: the pixel
/// budget, the tracking pipeline's weight as a `videoData` output, and the fixed cost of a
/// running camera.
///
/// The estimator prices a calibration point at
/// `pixels/s × (readout + videoDataWeight) / pixelRate + perCameraOverhead`, with readout 1.
/// The fit splits the work per pixel between drawing the frame (readout) and the detector and
/// tracker (the `videoData` consumer) from their thread CPU times, then fits the total
/// utilization (process CPU seconds per second over cores) to that line by least squares.
public struct CalibrationFit: Hashable, Codable, Sendable {
    /// Readout pixels per second the host sustains with every core busy: the profile's
    /// `pixelRate`, > 0.
    public var pixelRate: Double
    /// Work of the detector and tracker per frame in full-frame readout equivalents, > 0.
    public var videoDataWeight: Double
    /// Share of the budget a running camera costs whatever its pixels, 0 ≤ share < 1.
    public var perCameraOverhead: Double
    /// Configurations the fit used.
    public var configurations: Int
    /// Thread CPU seconds per pixel spent drawing frames.
    public var readoutSecondsPerPixel: Double
    /// Thread CPU seconds per pixel spent in the detector and tracker.
    public var consumerSecondsPerPixel: Double

    /// Creates a fit; see each property for units.
    public init(
        pixelRate: Double, videoDataWeight: Double, perCameraOverhead: Double,
        configurations: Int, readoutSecondsPerPixel: Double, consumerSecondsPerPixel: Double
    ) {
        self.pixelRate = pixelRate
        self.videoDataWeight = videoDataWeight
        self.perCameraOverhead = perCameraOverhead
        self.configurations = configurations
        self.readoutSecondsPerPixel = readoutSecondsPerPixel
        self.consumerSecondsPerPixel = consumerSecondsPerPixel
    }

    /// Fits the model to `measurements`; those that did not keep up with their frame rate
    /// (``CalibrationMeasurement/keptUp``) are left out.
    ///
    /// The overhead is the least-squares intercept, or 0 when that would be negative (the
    /// line is then fitted through the origin).
    ///
    /// - Throws: ``CalibrationError`` with fewer than two that kept up, no readout CPU
    ///   time, or a utilization that does not grow with the pixel rate.
    public init(measurements: [CalibrationMeasurement]) throws(CalibrationError) {
        let usable = measurements.filter { $0.keptUp && $0.seconds > 0 }
        guard usable.count >= 2 else { throw .tooFewMeasurements(usable: usable.count) }
        let pixels = usable.reduce(0.0) { $0 + Double($1.frames) * Double($1.point.pixelsPerFrame) }
        let readout = usable.reduce(0.0) { $0 + $1.readoutCPUSeconds } / pixels
        let consumer = usable.reduce(0.0) { $0 + $1.consumerCPUSeconds } / pixels
        guard readout > 0, readout.isFinite else { throw .noReadoutTime }
        let weight = max(consumer / readout, 1e-3)
        // Demand in readout pixels per second, as the estimator counts it, and cameras running.
        let x = usable.map { $0.pixelsPerSecond * (1 + weight) }
        let n = usable.map { Double($0.point.cameras) }
        let u = usable.map(\.utilization)
        var (slope, overhead) = Self.leastSquares(demand: x, cameras: n, utilization: u)
        if overhead < 0 || !overhead.isFinite {
            slope = zip(x, u).reduce(0) { $0 + $1.0 * $1.1 } / x.reduce(0) { $0 + $1 * $1 }
            overhead = 0
        }
        guard slope > 0, slope.isFinite else { throw .noGrowth(slope: slope) }
        self.init(
            pixelRate: 1 / slope, videoDataWeight: weight,
            perCameraOverhead: min(overhead, 0.95), configurations: usable.count,
            readoutSecondsPerPixel: readout, consumerSecondsPerPixel: consumer)
    }

    /// Least squares `utilization ≈ slope × demand + overhead × cameras` (the estimator's
    /// form); with every configuration at one camera this is the ordinary line fit. When the
    /// two columns are proportional (no way to tell them apart) the overhead is 0.
    static func leastSquares(demand x: [Double], cameras n: [Double], utilization u: [Double])
        -> (slope: Double, overhead: Double)
    {
        var xx = 0.0
        var xn = 0.0
        var nn = 0.0
        var xu = 0.0
        var nu = 0.0
        for index in x.indices {
            xx += x[index] * x[index]
            xn += x[index] * n[index]
            nn += n[index] * n[index]
            xu += x[index] * u[index]
            nu += n[index] * u[index]
        }
        let determinant = xx * nn - xn * xn
        guard abs(determinant) > 1e-12 * xx * nn, determinant.isFinite else {
            return (xx > 0 ? xu / xx : 0, 0)
        }
        return ((xu * nn - nu * xn) / determinant, (xx * nu - xn * xu) / determinant)
    }

    /// The device profile these parameters describe, named `name`, for a host with `cores`
    /// online CPUs, measured on `date` (`YYYY-MM-DD`) at `points`.
    ///
    /// Measured: `pixelRate`, `outputWeights.videoData`, `perCameraOverhead`. Derived:
    /// `cameraPorts` (one camera frame loop per core). The rest is taken from
    /// ``DeviceProfile/genericDesktop`` and marked as estimates in `sources`.
    public func profile(
        name: String = ProfileCatalog.hostProfileName, cores: Int, date: String,
        points: [CalibrationPoint], detector: DetectorKind = .blob
    ) -> DeviceProfile {
        let base = DeviceProfile.genericDesktop
        let measured = "measured by headroom calibrate on \(date)"
        var weights = base.outputWeights
        weights.videoData = videoDataWeight
        var formats: [CameraFormat] = []
        for point in points.sorted(by: { $0.pixelsPerFrame > $1.pixelsPerFrame }) {
            var format = point.format
            format.maxFrameRate =
                points.filter { $0.width == point.width && $0.height == point.height }
                .map(\.frameRate).max() ?? point.frameRate
            if !formats.contains(format) { formats.append(format) }
        }
        return DeviceProfile(
            name: name,
            summary:
                "this host (\(cores) CPUs): the synthetic camera, the \(detector.rawValue) detector"
                + " and the tracker on the CPU",
            pixelRate: pixelRate, memoryBandwidth: base.memoryBandwidth, cameraPorts: max(1, cores),
            perCameraOverhead: perCameraOverhead, rawBytesPerPixel: 1,
            binnedReadoutFactor: base.binnedReadoutFactor,
            fullSensorReadoutFactor: base.fullSensorReadoutFactor, outputWeights: weights,
            sensors: [SensorModes(name: "synthetic-scene", formats: formats)],
            sources: [
                "pixelRate":
                    "\(measured): least-squares fit of process CPU use over \(cores) cores at"
                    + " \(configurations) configurations (synthetic scene, detector, tracker)",
                "perCameraOverhead": "\(measured): the fit's intercept",
                "outputWeights":
                    "videoData \(measured) (detector and tracker CPU time per pixel over the"
                    + " camera's); preview, photo and movie are estimates from generic-x86_64",
                "memoryBandwidth": "estimate (not measured): generic-x86_64's figure",
                "cameraPorts": "one camera frame loop per online CPU (\(cores))",
                "rawBytesPerPixel": "the synthetic camera writes 8-bit luma",
                "binnedReadoutFactor": "estimate",
                "fullSensorReadoutFactor": "estimate",
                "sensors": "the resolutions calibration measured, at their highest measured rates",
            ])
    }
}
