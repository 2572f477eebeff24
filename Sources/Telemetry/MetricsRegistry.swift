import Locking

/// The metrics of one process: families registered by name, updated from any thread, and
/// rendered on demand in either exposition format.
///
/// Registering the same name twice with the same kind, help, labels and buckets returns the
/// same series, so independent parts of a program can ask for a metric they share.
public final class MetricsRegistry: Sendable {
    private let families = LockedState<[MetricFamily]>([])

    /// Creates an empty registry.
    public init() {}

    /// Registers (or finds) a counter.
    ///
    /// - Parameters:
    ///   - name: `[a-zA-Z_:][a-zA-Z0-9_:]*`, ending in `_total`.
    ///   - help: one line saying what is counted, with its unit.
    ///   - labelNames: the labels every update names, in exposition order.
    /// - Throws: ``MetricError`` for a bad name or label, or a conflicting earlier registration.
    public func counter(_ name: String, help: String, labelNames: [String] = [])
        throws(MetricError) -> Counter
    {
        guard name.hasSuffix("_total"), name.count > "_total".count else {
            throw .invalidName(name, expected: "a counter name ending in _total")
        }
        return Counter(family: try register(name, help, .counter, labelNames, buckets: []))
    }

    /// Registers (or finds) a gauge.
    ///
    /// - Throws: ``MetricError`` for a bad name or label, or a conflicting earlier registration.
    public func gauge(_ name: String, help: String, labelNames: [String] = [])
        throws(MetricError) -> Gauge
    {
        Gauge(family: try register(name, help, .gauge, labelNames, buckets: []))
    }

    /// Registers (or finds) a histogram with the given bucket upper bounds (`+Inf` is implied).
    ///
    /// - Throws: ``MetricError`` for a bad name or label (`le` is reserved), buckets that are
    ///   empty, not finite or not strictly increasing, or a conflicting earlier registration.
    public func histogram(
        _ name: String, help: String, labelNames: [String] = [], buckets: [Double]
    ) throws(MetricError) -> Histogram {
        guard !buckets.isEmpty, buckets.allSatisfy(\.isFinite),
            zip(buckets, buckets.dropFirst()).allSatisfy({ $0 < $1 })
        else { throw .invalidBuckets(metric: name, buckets: buckets) }
        if labelNames.contains("le") {
            throw .invalidLabelName(metric: name, label: "le", expected: "a name other than le")
        }
        return Histogram(family: try register(name, help, .histogram, labelNames, buckets: buckets))
    }

    /// The names of every registered family, in registration order.
    public var metricNames: [String] {
        families.withLock { $0.map(\.name) }
    }

    /// Renders every family in `format`, families in registration order, series sorted by
    /// label values. Families without series still show their `HELP` and `TYPE` lines.
    public func exposition(_ format: ExpositionFormat) -> String {
        String(decoding: expositionBytes(format), as: UTF8.self)
    }

    /// ``exposition(_:)`` as UTF-8 bytes, what the HTTP endpoint sends.
    public func expositionBytes(_ format: ExpositionFormat) -> [UInt8] {
        let all = families.withLock { $0 }
        var writer = ExpositionWriter(format: format)
        for family in all {
            writer.append(family)
        }
        return writer.finish()
    }

    private func register(
        _ name: String, _ help: String, _ kind: MetricKind, _ labelNames: [String],
        buckets: [Double]
    ) throws(MetricError) -> MetricFamily {
        try MetricNameRules.validate(metric: name, labels: labelNames)
        let result: Result<MetricFamily, MetricError> = families.withLock { all in
            if let existing = all.first(where: { $0.name == name }) {
                guard existing.kind == kind, existing.help == help,
                    existing.labelNames == labelNames, existing.buckets == buckets
                else { return .failure(.conflictingRegistration(name)) }
                return .success(existing)
            }
            let family = MetricFamily(
                name: name, help: help, kind: kind, labelNames: labelNames, buckets: buckets)
            all.append(family)
            return .success(family)
        }
        return try result.get()
    }
}
