/// A registered histogram: observations counted into cumulative buckets per label set.
///
/// Obtain one from ``MetricsRegistry/histogram(_:help:labelNames:buckets:)``; copies share the
/// series. Quantiles (p50, p95) are computed by Prometheus with `histogram_quantile`.
public struct Histogram: Sendable {
    let family: MetricFamily

    /// The metric name (the exposition adds `_bucket`, `_sum` and `_count`).
    public var name: String { family.name }

    /// The upper bounds of the buckets, in the metric's unit, without the implicit `+Inf`.
    public var buckets: [Double] { family.buckets }

    /// Counts `value` into the series named by `labels`.
    ///
    /// - Throws: ``MetricError/labelMismatch(metric:expected:got:)`` when `labels` does not name
    ///   exactly the registered label names.
    public func observe(_ value: Double, labels: [String: String] = [:]) throws(MetricError) {
        family.observe(value, at: try family.labelValues(labels))
    }

    /// The number of observations of the series named by `labels` (0 when it does not exist).
    public func count(labels: [String: String] = [:]) -> UInt64 {
        guard let key = try? family.labelValues(labels),
            case .histogram(let state) = family.value(at: key)
        else { return 0 }
        return state.count
    }
}
