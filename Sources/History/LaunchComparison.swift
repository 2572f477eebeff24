/// How one metric changed between two sets of runs.
public struct MetricChange: Hashable, Codable, Sendable {
    /// What the change says.
    public enum Verdict: String, Codable, Sendable {
        /// Significantly slower, by more than the thresholds.
        case regression
        /// Significantly faster, by more than the thresholds.
        case improvement
        /// No significant change (or too small to matter).
        case unchanged
        /// Too few runs on one side to test (fewer than ``LaunchComparison/minimumRuns``).
        case insufficientData
    }

    /// The metric.
    public var metric: LaunchMetric
    /// Runs in the baseline and in the candidate that have it.
    public var baselineCount: Int
    /// Runs in the candidate that have it.
    public var candidateCount: Int
    /// The baseline's median, in seconds.
    public var baselineMedian: Double
    /// The candidate's median, in seconds.
    public var candidateMedian: Double
    /// The change of the median relative to the baseline (0.2 = 20 % slower).
    public var relativeChange: Double
    /// The Mann–Whitney two-sided p-value; `nil` without enough runs.
    public var pValue: Double?
    /// The verdict.
    public var verdict: Verdict
}

/// Compares the launches of two sets of runs metric by metric: the change of the median, and
/// whether it is significant (Mann–Whitney U over the repeated runs) and large enough to
/// matter. A regression needs both: p below ``significance`` and a median change above
/// ``minimumRelativeChange`` and ``minimumAbsoluteChange``, so noise is not flagged and
/// neither are tiny but consistent shifts.
public struct LaunchComparison: Sendable {
    /// The largest p-value still called significant.
    public var significance: Double
    /// The smallest relative change of the median that counts (0.05 = 5 %).
    public var minimumRelativeChange: Double
    /// The smallest absolute change of the median that counts, in seconds.
    public var minimumAbsoluteChange: Double
    /// The fewest runs per side for a test.
    public static let minimumRuns = 3

    /// A comparison with the given thresholds (defaults: p < 0.05, 5 %, 0.5 ms).
    public init(
        significance: Double = 0.05, minimumRelativeChange: Double = 0.05,
        minimumAbsoluteChange: Double = 0.0005
    ) {
        self.significance = significance
        self.minimumRelativeChange = minimumRelativeChange
        self.minimumAbsoluteChange = minimumAbsoluteChange
    }

    /// The change of every metric present on both sides, phases first.
    public func changes(
        baseline: [LaunchMetric: [Double]], candidate: [LaunchMetric: [Double]]
    ) -> [MetricChange] {
        Set(baseline.keys).intersection(candidate.keys).sorted().compactMap { metric in
            guard let before = baseline[metric], let after = candidate[metric],
                !before.isEmpty, !after.isEmpty
            else { return nil }
            return change(of: metric, baseline: before, candidate: after)
        }
    }

    /// The change of one metric between samples `baseline` and `candidate` (both non-empty).
    public func change(of metric: LaunchMetric, baseline: [Double], candidate: [Double])
        -> MetricChange
    {
        let before = MetricStatistics.percentile(baseline.sorted(), 0.5)
        let after = MetricStatistics.percentile(candidate.sorted(), 0.5)
        let relative = before > 0 ? (after - before) / before : (after > 0 ? .infinity : 0)
        var change = MetricChange(
            metric: metric, baselineCount: baseline.count, candidateCount: candidate.count,
            baselineMedian: before, candidateMedian: after, relativeChange: relative, pValue: nil,
            verdict: .insufficientData)
        guard baseline.count >= Self.minimumRuns, candidate.count >= Self.minimumRuns else {
            return change
        }
        let test = MannWhitneyTest(candidate, baseline)
        change.pValue = test.pValue
        let matters =
            abs(relative) > minimumRelativeChange && abs(after - before) > minimumAbsoluteChange
        if test.pValue < significance && matters {
            change.verdict = after > before ? .regression : .improvement
        } else {
            change.verdict = .unchanged
        }
        return change
    }
}
