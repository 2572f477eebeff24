import CLI
import Files
import FoundationEssentials
import History

/// `headroom launch history` and `headroom launch compare`: the history's figures as tables or
/// JSON.
enum LaunchHistoryText {
    /// p50/p95 per metric over the latest runs.
    static func history(_ arguments: Parsed<LaunchCommand.Options>, _ rest: [String]) throws
        -> Int32
    {
        guard rest.isEmpty else {
            throw UsageError(description: "unexpected argument \"\(rest[0])\"")
        }
        // Checking a history must not create one.
        let store = try LaunchCommand.store(arguments[\.db], mustExist: arguments[\.check])
        if arguments[\.check] {
            let intact = try store.isIntact()
            Console.out("\(store.path): \(intact ? "intact" : "DAMAGED (integrity_check failed)")")
            return intact ? 0 : 1
        }
        let count = arguments[\.runs] ?? 20
        let runs = try store.runs(label: arguments[\.label], limit: count)
        let failed = runs.filter { !$0.isCompleted }
        let timeline = try store.timeline(of: runs.filter(\.isCompleted).map(\.id))
        let statistics = MetricStatistics.all(timeline.samples, meanTimes: timeline.meanTimes)
        if arguments[\.json] {
            Console.json(
                HistoryDocument(
                    runs: runs.count, metrics: statistics,
                    failed: failed.map {
                        .init(id: $0.id, label: $0.label, failure: $0.failure?.description ?? "")
                    }))
            return 0
        }
        guard !runs.isEmpty else {
            Console.out("no runs in \(store.path); `headroom launch measure` adds some")
            return 0
        }
        var table = TextTable(
            headings: ["phase", "runs", "p50 ms", "p95 ms", "min ms", "max ms"],
            numericColumns: [1, 2, 3, 4, 5])
        for metric in statistics {
            table.rows.append([
                metric.metric.description, String(metric.count), milliseconds(metric.p50),
                milliseconds(metric.p95), milliseconds(metric.minimum),
                milliseconds(metric.maximum),
            ])
        }
        let label = arguments[\.label].map { " labelled \"\($0)\"" } ?? ""
        let failedText = failed.isEmpty ? "" : "; \(failed.count) failed, left out of the figures"
        Console.out(
            "\(runs.count) latest runs\(label) (runs \(runs.last!.id)–\(runs.first!.id))\(failedText)\n"
        )
        if !table.rows.isEmpty { Console.out(table.text) }
        if !failed.isEmpty {
            Console.out((table.rows.isEmpty ? "" : "\n") + "failed runs:")
            for run in failed.reversed() {
                Console.out("  run \(run.id) (\(run.label)): \(run.failure?.description ?? "")")
            }
        }
        return 0
    }

    /// Per-metric change between two selections, exit 1 on a significant regression.
    static func compare(_ arguments: Parsed<LaunchCommand.Options>, _ rest: [String]) throws
        -> Int32
    {
        guard rest.count == 2 else {
            throw UsageError(
                description: "expected two run selections A and B, got \(rest.count) arguments")
        }
        let comparison = LaunchComparison(
            significance: arguments[\.alpha], minimumRelativeChange: arguments[\.minChange])
        let store = try LaunchCommand.store(arguments[\.db])
        var samples: [[LaunchMetric: [Double]]] = []
        var failures: [FailureShare] = []
        for text in rest {
            let runs = try store.runs(matching: LaunchCommand.selector(text))
            guard !runs.isEmpty else {
                Console.error("headroom launch compare: no run matches \"\(text)\"")
                return 2
            }
            samples.append(try store.samples(of: runs.filter(\.isCompleted).map(\.id)))
            failures.append(
                FailureShare(failed: runs.count(where: { !$0.isCompleted }), runs: runs.count))
        }
        let changes = comparison.changes(baseline: samples[0], candidate: samples[1])
        // A candidate that fails more often than the baseline regressed, whatever its timings.
        let failsMore = failures[1].share > failures[0].share
        let regressions = changes.filter { $0.verdict == .regression }
        let regressionCount = regressions.count + (failsMore ? 1 : 0)
        if arguments[\.json] {
            Console.json(
                CompareDocument(
                    changes: changes, regressions: regressionCount, failedA: failures[0].failed,
                    failedB: failures[1].failed))
        } else {
            var table = TextTable(
                headings: ["phase", "runs", "A p50 ms", "B p50 ms", "change", "p", "verdict"],
                numericColumns: [1, 2, 3, 4, 5])
            for change in changes {
                table.rows.append([
                    change.metric.description, "\(change.baselineCount)/\(change.candidateCount)",
                    milliseconds(change.baselineMedian), milliseconds(change.candidateMedian),
                    String(printf: "%+.1f%%", change.relativeChange * 100),
                    change.pValue.map { $0.fixed(4) } ?? "-",
                    change.verdict.rawValue,
                ])
            }
            Console.out(table.text)
            if failures.contains(where: { $0.failed > 0 }) {
                Console.out(
                    "\nfailed runs (left out of the figures): A \(failures[0].failed) of"
                        + " \(failures[0].runs), B \(failures[1].failed) of \(failures[1].runs)"
                        + (failsMore ? " — B fails more often: a regression" : ""))
            }
            let names = regressions.map(\.metric.description) + (failsMore ? ["failed runs"] : [])
            Console.out(
                names.isEmpty
                    ? "\nno significant regression from \(rest[0]) to \(rest[1])"
                    : "\n\(names.count) significant regression(s) from \(rest[0]) to \(rest[1]): "
                        + names.joined(separator: ", "))
        }
        return regressionCount == 0 ? 0 : 1
    }

    static func milliseconds(_ seconds: Double) -> String {
        (seconds * 1000).fixed(3)
    }

    private struct HistoryDocument: Encodable {
        struct FailedRun: Encodable {
            var id: RunID
            var label: String
            var failure: String
        }
        var runs: Int
        var metrics: [MetricStatistics]
        var failed: [FailedRun]
    }

    private struct CompareDocument: Encodable {
        var changes: [MetricChange]
        var regressions: Int
        var failedA: Int
        var failedB: Int
    }

    /// How many of a selection's runs failed.
    private struct FailureShare {
        var failed: Int
        var runs: Int
        var share: Double { runs == 0 ? 0 : Double(failed) / Double(runs) }
    }
}
