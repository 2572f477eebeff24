/// What a metric family measures, which decides how it is updated and exposed.
public enum MetricKind: String, Sendable, Hashable {
    /// A value that only goes up (reset only by a restart); its name ends in `_total`.
    case counter
    /// A value that goes up and down.
    case gauge
    /// Observations counted into cumulative buckets, with their sum and count.
    case histogram
}
