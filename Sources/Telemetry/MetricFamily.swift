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
    /// The series exported and those a handle holds: scalar cells (a removed one is kept, absent,
    /// only while a handle holds it, so the handle stays bound) and histogram states.
    private let series = LockedState<[[String]: Series]>([:])

    private enum Series {
        case scalar(ScalarCell)
        case histogram(HistogramState)
    }

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

    /// The cell of the scalar series `key`, created (not yet exported) when it is new.
    func cell(at key: [String]) -> ScalarCell {
        series.withLock { all in
            if case .scalar(let cell) = all[key] { return cell }
            let cell = ScalarCell()
            all[key] = .scalar(cell)
            return cell
        }
    }

    func set(_ value: Double, at key: [String]) {
        cell(at: key).store(value)
    }

    func add(_ amount: Double, at key: [String]) {
        cell(at: key).add(amount)
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
        series.withLock { Self.drop(key, from: &$0) }
    }

    /// Takes series `key` out of the export: a scalar cell a handle still holds stays, marked
    /// absent (the handle's next value brings it back); anything else goes for good, so that
    /// series that come and go (clients, sensors) keep no memory once gone.
    private static func drop(_ key: [String], from all: inout [[String]: Series]) {
        guard case .scalar(var cell) = all.removeValue(forKey: key) else { return }
        if isKnownUniquelyReferenced(&cell) { return }
        cell.remove()
        all[key] = .scalar(cell)
    }

    /// How many series are kept, exported or not (for tests: gone series must not pile up).
    var keptSeriesCount: Int { series.withLock { $0.count } }

    /// Replaces every series of a gauge at once with `values`.
    func replaceAll(with values: [([String], Double)]) {
        series.withLock { all in
            // Nothing before and nothing now (a host without such sensors): nothing to do.
            if values.isEmpty && all.isEmpty { return }
            let kept = Set(values.map(\.0))
            for key in all.keys.filter({ !kept.contains($0) }) { Self.drop(key, from: &all) }
            for (key, value) in values {
                if case .scalar(let cell) = all[key] {
                    cell.store(value)
                } else {
                    let cell = ScalarCell()
                    cell.store(value)
                    all[key] = .scalar(cell)
                }
            }
        }
    }

    func removeAll() {
        series.withLock { all in
            for (key, entry) in all {
                if case .scalar(let cell) = entry { cell.remove() } else { all[key] = nil }
            }
        }
    }

    func value(at key: [String]) -> SeriesValue? {
        series.withLock { all in
            switch all[key] {
            case .scalar(let cell): cell.isPresent ? .scalar(cell.value) : nil
            case .histogram(let state): .histogram(state)
            case nil: nil
            }
        }
    }

    /// Every exported series, sorted by label values so that the exposition is stable.
    func snapshot() -> [(labelValues: [String], value: SeriesValue)] {
        let all: [([String], SeriesValue)] = series.withLock { all in
            all.compactMap { key, entry in
                switch entry {
                case .scalar(let cell): cell.isPresent ? (key, .scalar(cell.value)) : nil
                case .histogram(let state): (key, .histogram(state))
                }
            }
        }
        return all.sorted { $0.0.lexicographicallyPrecedes($1.0) }
            .map { (labelValues: $0.0, value: $0.1) }
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
