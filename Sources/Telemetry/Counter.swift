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

    /// A handle bound to the series named by `labels`: incrementing through it is one atomic
    /// compare-and-swap and cannot fail.
    ///
    /// - Throws: ``MetricError/labelMismatch(metric:expected:got:)`` when `labels` does not name
    ///   exactly the registered label names.
    public func handle(labels: [String: String] = [:]) throws(MetricError) -> CounterHandle {
        CounterHandle(cell: family.cell(at: try family.labelValues(labels)))
    }
}

/// One counter series, bound at creation (``Counter/handle(labels:)``).
public struct CounterHandle: Sendable {
    let cell: ScalarCell

    /// Adds `amount` (default 1); a counter only goes up, so a negative or non-finite amount is
    /// ignored.
    public func increment(by amount: Double = 1) {
        if amount.isFinite && amount >= 0 { cell.add(amount) }
    }

    /// The current value, or nil before the first increment.
    public var value: Double? { cell.isPresent ? cell.value : nil }
}
