import Locking

/// One registered metric: its descriptor and the current value of each labelled series.
///
/// Series are keyed by their label values in the order of `labelNames`; a series exists from
/// its first update until it is removed, so an unknown value is absent rather than 0.
final class MetricFamily: Sendable {
    let name: String
    let help: String
    let kind: MetricKind
    let labelNames: [String]
    /// Upper bounds of a histogram's buckets, without the implicit `+Inf`.
    let buckets: [Double]
    private let series = LockedState<[[String]: SeriesValue]>([:])

    init(name: String, help: String, kind: MetricKind, labelNames: [String], buckets: [Double]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.labelNames = labelNames
        self.buckets = buckets
    }

    /// The label values of `labels` in registration order, or why they do not fit.
    func labelValues(_ labels: [String: String]) throws(MetricError) -> [String] {
        if labels.isEmpty && labelNames.isEmpty { return [] }
        var values: [String] = []
        values.reserveCapacity(labelNames.count)
        for name in labelNames {
            guard let value = labels[name] else { throw mismatch(labels) }
            values.append(value)
        }
        guard labels.count == labelNames.count else { throw mismatch(labels) }
        return values
    }

    private func mismatch(_ labels: [String: String]) -> MetricError {
        .labelMismatch(metric: name, expected: labelNames, got: labels.keys.sorted())
    }

    func set(_ value: Double, at key: [String]) {
        series.withLock { $0[key] = .scalar(value) }
    }

    func add(_ amount: Double, at key: [String]) {
        series.withLock { all in
            if case .scalar(let current) = all[key] {
                all[key] = .scalar(current + amount)
            } else {
                all[key] = .scalar(amount)
            }
        }
    }

    func observe(_ value: Double, at key: [String]) {
        let bucketIndex = buckets.firstIndex { value <= $0 } ?? buckets.count
        series.withLock { all in
            var state: HistogramState
            if case .histogram(let current) = all[key] {
                state = current
            } else {
                state = HistogramState(bucketCounts: Array(repeating: 0, count: buckets.count + 1))
            }
            state.bucketCounts[bucketIndex] += 1
            state.sum += value
            state.count += 1
            all[key] = .histogram(state)
        }
    }

    func remove(at key: [String]) {
        _ = series.withLock { $0.removeValue(forKey: key) }
    }

    /// Replaces every series of a gauge at once with `values`.
    func replaceAll(with values: [([String], Double)]) {
        var fresh: [[String]: SeriesValue] = [:]
        for (key, value) in values { fresh[key] = .scalar(value) }
        series.withLock { $0 = fresh }
    }

    func removeAll() {
        series.withLock { $0.removeAll() }
    }

    func value(at key: [String]) -> SeriesValue? {
        series.withLock { $0[key] }
    }

    /// Every series, sorted by label values so that the exposition is stable.
    func snapshot() -> [(labelValues: [String], value: SeriesValue)] {
        let all = series.withLock { $0 }
        return all.sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .map { (labelValues: $0.key, value: $0.value) }
    }
}

/// The current state of one series.
enum SeriesValue: Sendable, Equatable {
    case scalar(Double)
    case histogram(HistogramState)
}

/// A histogram series: per-bucket (non-cumulative) counts, the last one for `+Inf`.
struct HistogramState: Sendable, Equatable {
    var bucketCounts: [UInt64]
    var sum: Double = 0
    var count: UInt64 = 0
}
