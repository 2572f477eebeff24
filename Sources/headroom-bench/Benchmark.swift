import LaunchTiming
import Units

/// One benchmark: a workload timed beside a baseline measured in the same run, so the printed
/// ratio means something on any machine. Register a benchmark by adding it to an area's list
/// (`let captureBenchmarks: [Benchmark]` in `CaptureBenchmarks.swift`) and that list to
/// `Benchmarks.swift`.
struct Benchmark: Sendable {
    /// `area.what`, e.g. `estimate.4-cameras`; what `headroom-bench NAME` selects.
    var name: String
    /// What the workload is, in a few words.
    var summary: String
    /// What the baseline is (e.g. "a bare clock_gettime read").
    var baselineSummary: String
    /// The target the issue sets, in nanoseconds per operation, if any.
    var targetNanoseconds: Double?
    /// The target the issue sets for workload over baseline, if any (1.3 = at most 1.3×).
    var targetRatio: Double? = nil
    /// Measures the workload and its baseline.
    var measure: @Sendable () async throws -> Measurement
}

/// The figures of one benchmark run.
struct Measurement: Sendable, Encodable {
    /// Nanoseconds per operation of the workload (best of several rounds).
    var nanoseconds: Double
    /// Nanoseconds per operation of the baseline (best of several rounds).
    var baselineNanoseconds: Double
    /// Extra figures worth printing (throughput, p99, …), by name.
    var extras: [String: String] = [:]

    /// Workload over baseline.
    var ratio: Double { nanoseconds / baselineNanoseconds }
}

/// Times `body` by running it in rounds of `iterations` calls and keeping the fastest round:
/// the least disturbed by the rest of the machine. Returns nanoseconds per call.
@inline(never)
func nanosecondsPerCall(iterations: Int, rounds: Int = 7, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = MonotonicClock.now()
        for _ in 0..<iterations { body() }
        let elapsed = Double(MonotonicClock.now().nanoseconds - start.nanoseconds)
        best = min(best, elapsed / Double(iterations))
    }
    return best
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A bare monotonic clock read: the baseline for work that should cost "a few clock reads".
@Sendable func clockReadNanoseconds() -> Double {
    nanosecondsPerCall(iterations: 200_000) { blackHole(MonotonicClock.now()) }
}
