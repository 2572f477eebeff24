/// A registered counter: a value per label set that only goes up.
///
/// Obtain one from ``MetricsRegistry/counter(_:help:labelNames:)``; copies share the series.
public struct Counter: Sendable {
    let family: MetricFamily

    /// The metric name, ending in `_total`.
    public var name: String { family.name }

    /// Adds `amount` (default 1) to the series named by `labels`, creating it at 0 first.
    ///
    /// - Throws: ``MetricError/labelMismatch(metric:expected:got:)`` when `labels` does not name
    ///   exactly the registered label names; ``MetricError/invalidIncrement(metric:value:)`` when
    ///   `amount` is negative or not finite.
    public func increment(by amount: Double = 1, labels: [String: String] = [:])
        throws(MetricError)
    {
        guard amount.isFinite, amount >= 0 else {
            throw .invalidIncrement(metric: family.name, value: amount)
        }
        family.add(amount, at: try family.labelValues(labels))
    }

    /// The current value of the series named by `labels`, or nil when it does not exist.
    public func value(labels: [String: String] = [:]) -> Double? {
        guard let key = try? family.labelValues(labels),
            case .scalar(let value) = family.value(at: key)
        else { return nil }
        return value
    }
}
