/// Why measurements could not be turned into a profile.
public enum CalibrationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Fewer than two configurations kept up with their frame rate; `usable` did.
    case tooFewMeasurements(usable: Int)
    /// Drawing frames took no measurable CPU time, so there is no per-pixel cost to scale by.
    case noReadoutTime
    /// Utilization did not grow with the pixel rate across the configurations (a slope of
    /// `slope` per pixel per second), so no pixel budget can be derived.
    case noGrowth(slope: Double)

    /// What went wrong and what was expected.
    public var description: String {
        switch self {
        case .tooFewMeasurements(let usable):
            "calibration needs at least 2 configurations that kept up with their frame rate, got"
                + " \(usable); measure for longer (--seconds) on a quieter machine"
        case .noReadoutTime:
            "drawing frames took no measurable CPU time; expected a positive CPU time per pixel"
        case .noGrowth(let slope):
            "utilization did not grow with the pixel rate (slope \(slope) per pixel/s);"
                + " expected more pixels to cost more CPU — measure for longer (--seconds) on a"
                + " quieter machine"
        }
    }
}
