/// A figure of a launch that the history tracks across runs: a phase's duration or the time
/// of a mark (such as `firstPreviewFrame`), both in seconds.
public struct LaunchMetric: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Which figure of the phase.
    public enum Kind: String, Codable, Sendable {
        /// How long the phase lasted.
        case phaseDuration
        /// When the mark happened, since the run's origin.
        case markTime
    }

    /// The phase's name.
    public var name: String
    /// Which figure.
    public var kind: Kind

    /// Creates a metric.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Phases first, then marks, each by name.
    public static func < (lhs: LaunchMetric, rhs: LaunchMetric) -> Bool {
        (lhs.kind == .phaseDuration ? 0 : 1, lhs.name) < (
            rhs.kind == .phaseDuration ? 0 : 1, rhs.name
        )
    }

    /// The phase's name, prefixed with `@` for a mark's time (`@firstPreviewFrame`).
    public var description: String { kind == .markTime ? "@\(name)" : name }
}

/// Percentiles of one metric over several runs.
public struct MetricStatistics: Hashable, Codable, Sendable {
    /// The metric.
    public var metric: LaunchMetric
    /// How many runs had it.
    public var count: Int
    /// The median, in seconds.
    public var p50: Double
    /// The 95th percentile, in seconds.
    public var p95: Double
    /// The smallest value, in seconds.
    public var minimum: Double
    /// The largest value, in seconds.
    public var maximum: Double

    /// The statistics of `samples` (at least one), in seconds.
    public init(metric: LaunchMetric, samples: [Double]) {
        let sorted = samples.sorted()
        self.metric = metric
        count = sorted.count
        p50 = Self.percentile(sorted, 0.50)
        p95 = Self.percentile(sorted, 0.95)
        minimum = sorted.first ?? 0
        maximum = sorted.last ?? 0
    }

    /// The `fraction` percentile (0…1) of ascending `sorted` values, interpolating linearly
    /// between the closest ranks; 0 for no values.
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = Double(sorted.count - 1) * min(max(fraction, 0), 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// The statistics of every metric in `samples`: in timeline order when `meanTimes` gives
    /// each metric's mean time (``HistoryStore/timeline(of:)``), phases first and by name
    /// otherwise.
    public static func all(
        _ samples: [LaunchMetric: [Double]], meanTimes: [LaunchMetric: Double] = [:]
    ) -> [MetricStatistics] {
        samples.filter { !$0.value.isEmpty }.keys.sorted { a, b in
            switch (meanTimes[a], meanTimes[b]) {
            case let (x?, y?) where x != y: x < y
            default: a < b
            }
        }.map { MetricStatistics(metric: $0, samples: samples[$0]!) }
    }
}
