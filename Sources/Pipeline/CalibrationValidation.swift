import Capture
import Units

/// How well the hardware-cost estimator, on a calibrated profile, predicts the utilization
/// measured at configurations the fit did not see.
public struct CalibrationValidation: Hashable, Codable, Sendable {
    /// One held-out configuration: predicted cost beside measured utilization.
    public struct Row: Hashable, Codable, Sendable {
        /// The configuration.
        public var point: CalibrationPoint
        /// The frame rate the pipeline processed (the rate priced), ≤ the point's.
        public var deliveredFrameRate: FrameRate
        /// Frames dropped in the measuring window.
        public var droppedFrames: Int
        /// Measured share of the CPU budget: CPU seconds per second over cores.
        public var measuredUtilization: Double
        /// The estimator's hardware cost of the configuration on the profile.
        public var predictedCost: Double
        /// Whether the pipeline kept up with the configuration; rows that did not are shown
        /// but left out of the error figures.
        public var keptUp: Bool

        /// Creates a row; see each property for units.
        public init(
            point: CalibrationPoint, deliveredFrameRate: FrameRate, droppedFrames: Int,
            measuredUtilization: Double, predictedCost: Double, keptUp: Bool = true
        ) {
            self.point = point
            self.deliveredFrameRate = deliveredFrameRate
            self.droppedFrames = droppedFrames
            self.measuredUtilization = measuredUtilization
            self.predictedCost = predictedCost
            self.keptUp = keptUp
        }

        /// `predictedCost − measuredUtilization`: positive when the estimator overprices.
        public var error: Double { predictedCost - measuredUtilization }
    }

    /// One row per held-out configuration that processed frames, in measuring order.
    public var rows: [Row]

    /// Creates a validation from its rows.
    public init(rows: [Row]) {
        self.rows = rows
    }

    /// Prices each measured configuration on `profile` at the frame rate it delivered and sets
    /// the price beside its measured utilization; configurations that processed no frame are
    /// left out.
    public init(measurements: [CalibrationMeasurement], profile: DeviceProfile) {
        let estimator = HardwareCostEstimator(profile: profile)
        rows = measurements.filter { $0.frames > 0 && $0.seconds > 0 }.map { measurement in
            let session = measurement.point.session(
                profile: profile.name, frameRate: measurement.deliveredFrameRate)
            return Row(
                point: measurement.point, deliveredFrameRate: measurement.deliveredFrameRate,
                droppedFrames: measurement.droppedFrames,
                measuredUtilization: measurement.utilization,
                predictedCost: estimator.hardwareCost(of: session).fraction,
                keptUp: measurement.keptUp)
        }
    }

    /// The rows the error figures count: those that kept up.
    public var scoredRows: [Row] { rows.filter(\.keptUp) }

    /// The mean of `|predicted − measured|` over the rows that kept up, in budget shares
    /// (0.02 = two percentage points of the machine); `nil` without any.
    public var meanAbsoluteError: Double? {
        let scored = scoredRows
        return scored.isEmpty
            ? nil : scored.reduce(0) { $0 + abs($1.error) } / Double(scored.count)
    }

    /// The mean of `|error| / measured` over the rows that kept up with a measured
    /// utilization above 0; `nil` without any.
    public var meanRelativeError: Double? {
        let measured = scoredRows.filter { $0.measuredUtilization > 0 }
        guard !measured.isEmpty else { return nil }
        return measured.reduce(0) { $0 + abs($1.error) / $1.measuredUtilization }
            / Double(measured.count)
    }

    enum CodingKeys: String, CodingKey {
        case rows, meanAbsoluteError, meanRelativeError
    }

    /// Encodes the rows with the mean errors, for `calibrate --json`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encodeIfPresent(meanAbsoluteError, forKey: .meanAbsoluteError)
        try container.encodeIfPresent(meanRelativeError, forKey: .meanRelativeError)
    }

    /// Decodes the rows (the means are recomputed from them).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rows = try container.decode([Row].self, forKey: .rows)
    }
}
