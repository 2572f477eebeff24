/// Allows at most `maximum` requests in any window of `window` seconds of stand time.
public struct RateLimiter: Sendable, Hashable {
    /// The requests allowed per window, ≥ 1.
    public let maximum: Int
    /// The window, in seconds, > 0.
    public let window: Double
    private var accepted: [Double] = []

    /// Creates a limiter of `maximum` requests per `window` seconds.
    public init(maximum: Int, per window: Double = 1) {
        self.maximum = max(1, maximum)
        self.window = window > 0 ? window : 1
    }

    /// The rate, requests per second.
    public var maximumPerSecond: Double { Double(maximum) / window }

    /// Records a request at `time` (seconds) if the limit allows it.
    /// - Returns: whether the request was allowed.
    public mutating func allow(at time: Double) -> Bool {
        accepted.removeAll { $0 <= time - window }
        guard accepted.count < maximum else { return false }
        accepted.append(time)
        return true
    }
}
