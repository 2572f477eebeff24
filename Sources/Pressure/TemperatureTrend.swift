/// The recent history of one temperature, fitted with least squares to extrapolate it.
struct TemperatureTrend {
    private var points: [(time: Double, celsius: Double)] = []

    /// The most points kept: bounds memory and the fit's cost at high sample rates.
    static let capacity = 128

    /// Adds a point and forgets points older than `window` seconds before it; a point at the
    /// same time as the last replaces it, and time going backwards starts a new trend.
    mutating func add(time: Double, celsius: Double, window: Double) {
        if let last = points.last, time <= last.time {
            if time < last.time { points.removeAll() } else { points.removeLast() }
        }
        points.append((time, celsius))
        let stale = points.prefix { time - $0.time > window }.count
        let excess = max(0, points.count - stale - Self.capacity)
        if stale + excess > 0 { points.removeFirst(stale + excess) }
    }

    /// The temperature extrapolated `seconds` past the last point, or NaN with fewer than
    /// `minimumSamples` points or no spread in time.
    func forecast(seconds: Double, minimumSamples: Int) -> Double {
        guard points.count >= max(2, minimumSamples), let last = points.last else { return .nan }
        // Plain loops: key-path maps over tuples instantiate generic metadata at run time,
        // which cost more than the fit itself.
        let count = Double(points.count)
        var sumTime = 0.0
        var sumValue = 0.0
        for point in points {
            sumTime += point.time
            sumValue += point.celsius
        }
        let meanTime = sumTime / count
        let meanValue = sumValue / count
        var covariance = 0.0
        var variance = 0.0
        for point in points {
            covariance += (point.time - meanTime) * (point.celsius - meanValue)
            variance += (point.time - meanTime) * (point.time - meanTime)
        }
        guard variance > 0 else { return .nan }
        let slope = covariance / variance
        let fitted = meanValue + slope * (last.time - meanTime)
        return fitted + slope * seconds
    }
}
