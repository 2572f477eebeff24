/// A registered gauge: a value per label set that goes up and down.
///
/// Obtain one from ``MetricsRegistry/gauge(_:help:labelNames:)``; copies share the series.
/// A series exists from its first ``set(_:labels:)`` until ``remove(labels:)``, so a reading
/// that is unknown (a stale sensor) is absent from the exposition, never a made-up 0.
public struct Gauge: Sendable {
    let family: MetricFamily

    /// The metric name.
    public var name: String { family.name }

    /// Sets the series named by `labels` to `value` (any Double, including NaN and infinities).
    ///
    /// - Throws: ``MetricError/labelMismatch(metric:expected:got:)`` when `labels` does not name
    ///   exactly the registered label names.
    public func set(_ value: Double, labels: [String: String] = [:]) throws(MetricError) {
        family.set(value, at: try family.labelValues(labels))
    }

    /// Removes the series named by `labels` from the exposition; nothing when it does not exist.
    ///
    /// - Throws: ``MetricError/labelMismatch(metric:expected:got:)`` as ``set(_:labels:)``.
    public func remove(labels: [String: String] = [:]) throws(MetricError) {
        family.remove(at: try family.labelValues(labels))
    }

    /// Removes every series of this gauge.
    public func removeAll() {
        family.removeAll()
    }

    /// The current value of the series named by `labels`, or nil when it does not exist.
    public func value(labels: [String: String] = [:]) -> Double? {
        guard let key = try? family.labelValues(labels),
            case .scalar(let value) = family.value(at: key)
        else { return nil }
        return value
    }

    /// A handle bound to the series named by `labels`: setting through it is one atomic store
    /// (no label lookup, no lock) and cannot fail. Bind handles once, where the labels are
    /// known; the series appears in the exposition at the handle's first ``GaugeHandle/set(_:)``.
    ///
    /// - Throws: ``MetricError/labelMismatch(metric:expected:got:)`` when `labels` does not name
    ///   exactly the registered label names.
    public func handle(labels: [String: String] = [:]) throws(MetricError) -> GaugeHandle {
        GaugeHandle(cell: family.cell(at: try family.labelValues(labels)))
    }
}

/// One gauge series, bound at creation (``Gauge/handle(labels:)``).
public struct GaugeHandle: Sendable {
    let cell: ScalarCell

    /// Sets the series to `value` and exports it.
    public func set(_ value: Double) { cell.store(value) }

    /// Takes the series out of the exposition until it is set again.
    public func remove() { cell.remove() }

    /// The current value, or nil while the series is not exported.
    public var value: Double? { cell.isPresent ? cell.value : nil }
}
