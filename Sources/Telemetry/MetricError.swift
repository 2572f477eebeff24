/// A metric that cannot be registered or updated as asked.
///
/// These are programming errors in the caller rather than bad user input, but they are values
/// (never a crash) so a misnamed metric fails a test instead of a fleet.
public enum MetricError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The metric name does not match `[a-zA-Z_:][a-zA-Z0-9_:]*` or breaks a naming rule.
    case invalidName(String, expected: String)
    /// A label name is not `[a-zA-Z_][a-zA-Z0-9_]*`, starts with `__`, repeats, or is reserved.
    case invalidLabelName(metric: String, label: String, expected: String)
    /// The name is already registered with a different kind, help text, labels or buckets.
    case conflictingRegistration(String)
    /// Histogram buckets are not finite and strictly increasing.
    case invalidBuckets(metric: String, buckets: [Double])
    /// An update named other labels than the metric was registered with.
    case labelMismatch(metric: String, expected: [String], got: [String])
    /// A counter was asked to go down or by a value that is not a number.
    case invalidIncrement(metric: String, value: Double)

    /// What went wrong, naming the metric or setting and what was expected.
    public var description: String {
        switch self {
        case .invalidName(let name, let expected):
            return "metric name \"\(name)\": expected \(expected)"
        case .invalidLabelName(let metric, let label, let expected):
            return "metric \(metric): label name \"\(label)\": expected \(expected)"
        case .conflictingRegistration(let name):
            return "metric \(name) is already registered with another kind, help, labels or buckets"
        case .invalidBuckets(let metric, let buckets):
            return
                "metric \(metric): buckets \(buckets): expected finite, strictly increasing bounds"
        case .labelMismatch(let metric, let expected, let got):
            return "metric \(metric): expected labels \(expected), got \(got)"
        case .invalidIncrement(let metric, let value):
            return "counter \(metric): increment \(value): expected a finite value ≥ 0"
        }
    }
}
