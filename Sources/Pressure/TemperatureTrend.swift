/// The recent history of one temperature, fitted with least squares to extrapolate it.
///
/// The points live in a ring and the fit's sums are kept up to date as points come and go, so
/// a sample costs O(1) whatever the window: the classifier adds a point to every sensor's
/// trend 10 times a second. Times are kept relative to a recent origin, and the sums are
/// recomputed from the points every ``capacity`` additions, so rounding never accumulates.
struct TemperatureTrend {
    /// The most points kept: bounds memory at high sample rates.
    static let capacity = 128

    private var times = [Double](repeating: 0, count: capacity)
    private var values = [Double](repeating: 0, count: capacity)
    private var first = 0
    private var count = 0
    /// The absolute time that stored times are relative to.
    private var origin = 0.0
    private var sums = Sums()
    private var additionsSinceRebuild = 0

    /// Σt, Σc, Σt², Σtc over the stored points.
    private struct Sums {
        var time = 0.0, value = 0.0, timeSquared = 0.0, timeValue = 0.0

        mutating func add(_ time: Double, _ value: Double, sign: Double = 1) {
            self.time += sign * time
            self.value += sign * value
            timeSquared += sign * time * time
            timeValue += sign * time * value
        }
    }

    /// How much earlier than `spacing` a point may come and still count: samples due a
    /// second apart arrive a second apart give or take their wake-up latency.
    static let spacingTolerance = 0.1

    /// Adds a point and forgets points older than `window` seconds before it. A point less
    /// than `spacing` seconds after the last (less 10 %, ``spacingTolerance``) is not added
    /// (with no spacing, a point at the same time as the last replaces it), and time going
    /// backwards starts a new trend.
    mutating func add(time: Double, celsius: Double, window: Double, spacing: Double = 0) {
        let least = spacing * (1 - Self.spacingTolerance)
        if let last = lastTime, time <= last || time - last < least {
            if time < last {
                self = TemperatureTrend()
            } else if time - last < least {
                return
            } else {
                removeLast()
            }
        }
        if count == 0 { origin = time }
        if count == Self.capacity { removeFirst() }
        let slot = (first + count) % Self.capacity
        times[slot] = time - origin
        values[slot] = celsius
        count += 1
        sums.add(time - origin, celsius)
        while count > 0, time - (times[first] + origin) > window { removeFirst() }
        additionsSinceRebuild += 1
        if additionsSinceRebuild >= Self.capacity { rebuild() }
    }

    /// The fitted line's temperature `seconds` after `time` (by default the last point), or
    /// NaN with fewer than `minimumSamples` points or no spread in time.
    func forecast(seconds: Double, minimumSamples: Int, from time: Double? = nil) -> Double {
        guard count >= max(2, minimumSamples), let last = time ?? lastTime else { return .nan }
        let n = Double(count)
        let meanTime = sums.time / n
        let meanValue = sums.value / n
        let variance = sums.timeSquared - n * meanTime * meanTime
        let covariance = sums.timeValue - n * meanTime * meanValue
        guard variance > 0 else { return .nan }
        let slope = covariance / variance
        let fitted = meanValue + slope * (last - origin - meanTime)
        return fitted + slope * seconds
    }

    /// The time of the newest point.
    var lastTime: Double? {
        count == 0 ? nil : times[(first + count - 1) % Self.capacity] + origin
    }

    private mutating func removeFirst() {
        sums.add(times[first], values[first], sign: -1)
        first = (first + 1) % Self.capacity
        count -= 1
    }

    private mutating func removeLast() {
        let slot = (first + count - 1) % Self.capacity
        sums.add(times[slot], values[slot], sign: -1)
        count -= 1
    }

    /// Moves the origin to the oldest point and recomputes the sums exactly.
    private mutating func rebuild() {
        additionsSinceRebuild = 0
        guard count > 0 else { return }
        let shift = times[first]
        origin += shift
        sums = Sums()
        for offset in 0..<count {
            let slot = (first + offset) % Self.capacity
            times[slot] -= shift
            sums.add(times[slot], values[slot])
        }
    }
}
