/// A rate of frames, in frames per second: a camera's, a pipeline's, a governor's cap.
///
/// Written as a number where a literal reads best (`let cap: FrameRate = 15`) and coded as a
/// plain number of frames per second in JSON, so documents keep their shape.
public struct FrameRate: ScalarQuantity {
    /// Frames per second; finite and not negative where a frame rate was validated.
    public var framesPerSecond: Double

    /// The number of frames per second (``ScalarQuantity``'s number).
    public var number: Double { framesPerSecond }

    /// A rate of `number` frames per second.
    public init(number: Double) {
        framesPerSecond = number
    }

    /// A rate of `framesPerSecond`.
    public init(framesPerSecond: Double) {
        self.framesPerSecond = framesPerSecond
    }

    /// The rate at which one frame comes every `interval`.
    public init(oneFrameEvery interval: Duration) {
        framesPerSecond = 1 / interval.seconds
    }

    /// No frames at all.
    public static let zero = FrameRate(framesPerSecond: 0)

    /// The time between two frames, in whole nanoseconds (rounded), so that frames on a
    /// virtual clock land on the same instants in every run; the rate must be above zero.
    public var frameInterval: Duration {
        .nanoseconds(Int64((1e9 / framesPerSecond).rounded()))
    }

    /// How many frames come in `duration` at this rate (not rounded).
    public func frames(in duration: Duration) -> Double {
        framesPerSecond * duration.seconds
    }

    /// The rate scaled by `factor` (a share of frames kept, a speed-up).
    public static func * (rate: FrameRate, factor: Double) -> FrameRate {
        FrameRate(framesPerSecond: rate.framesPerSecond * factor)
    }

    /// The rate divided by `divisor` (every `divisor`-th frame).
    public static func / (rate: FrameRate, divisor: Double) -> FrameRate {
        FrameRate(framesPerSecond: rate.framesPerSecond / divisor)
    }

    /// How many times faster `lhs` is than `rhs` (a plain ratio; infinite when `rhs` is zero).
    public static func / (lhs: FrameRate, rhs: FrameRate) -> Double {
        lhs.framesPerSecond / rhs.framesPerSecond
    }

    /// The rates cameras commonly run at, highest first: the steps the capture planner lowers
    /// a camera through, and the governor a client's frame rate.
    public static let usualCameraRates: [FrameRate] = [
        240, 120, 100, 60, 50, 48, 30, 25, 24, 20, 15, 12, 10, 5,
    ]
}
