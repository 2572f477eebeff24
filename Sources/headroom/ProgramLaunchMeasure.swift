import CLI
import Files
import FoundationEssentials
import History
import LaunchTiming
import Reports

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom launch measure [--runs N] [--ready NAME] [--timeout S] [--output FILE] -- CMD…`:
/// the launch of any program, timed through the trace-descriptor protocol (``TracedLaunch``);
/// every run is stored, a failed one with its reason.
enum ProgramLaunchMeasure {
    /// Interpreters whose script, not themselves, names a run by default.
    private static let interpreters: Set<String> = [
        "sh", "bash", "dash", "zsh", "python", "python3", "node", "ruby", "perl", "env",
    ]

    /// The options that only measure a Headroom session (names of ``LaunchCommand/Options``).
    static let sessionOptions = ["--session", "--frames", "--no-deferred"]
    /// The options that only measure a program (names of ``LaunchCommand/Options``).
    static let programOptions = ["--ready", "--timeout", "--output"]

    /// Launches `command` `--runs` times (default 10) and stores every run (`launch` has
    /// checked its options: none of ``sessionOptions``).
    static func measure(_ arguments: Parsed<LaunchCommand.Options>, command: [String])
        async throws -> Int32
    {
        guard ExecutableSearch.find(command[0]) != nil else {
            throw UsageError(description: "-- \(command[0]): no such program in PATH")
        }
        let count = arguments[\.runs] ?? 10
        guard count <= 10_000 else {
            throw UsageError(
                description: "--runs: measure makes at most 10000 launches, got \(count)")
        }
        let label = arguments[\.label] ?? defaultLabel(command)
        let json = arguments[\.json]
        // The history first: a bad --db must not have truncated --output already.
        let store = try LaunchCommand.store(arguments[\.db], isWriting: true)
        let outDirectory = arguments[\.outDir]
        let output = try outputDestination(arguments[\.output], json: json)
        defer { if case .descriptor(let descriptor) = output { close(descriptor) } }
        let request = TracedLaunchRequest(
            command: command, label: label, readyName: arguments[\.ready] ?? "ready",
            timeout: arguments[\.timeout] ?? .seconds(60), output: output,
            environment: ProcessFacts.environment)
        let stop = StopSignal()
        let stored = try await withSignalCancellation(stop) {
            var stored: [(RunID, LaunchReport)] = []
            for index in 0..<count {
                let report = await TracedLaunch.run(request)
                if report.failure == .interrupted { break }
                let id = try store.add(report)
                if let directory = outDirectory?.path {
                    try LaunchReportFormat.json.write(report, to: "\(directory)/run-\(id).json")
                }
                stored.append((id, report))
                if !json { Console.out(line(id, index, count, report, request.readyName)) }
            }
            return stored
        }
        let completed = stored.filter { $0.1.isCompleted }
        let launches = completed.map { launchSeconds($0.1, request.readyName) }.sorted()
        let median = launches.isEmpty ? nil : MetricStatistics.percentile(launches, 0.5)
        if json {
            Console.json(
                ProgramMeasureDocument(
                    label: label, readyEvent: request.readyName,
                    runs: stored.map {
                        ProgramMeasureDocument.Run(id: $0.0, report: $0.1, ready: request.readyName)
                    },
                    medianLaunchSeconds: median, failed: stored.count - completed.count))
        } else {
            let failed = stored.count - completed.count
            let medianText = median.map { "\(LaunchHistoryText.milliseconds($0)) ms" } ?? "-"
            Console.out(
                "median launch (to \"\(request.readyName)\" or a clean exit) over \(completed.count)"
                    + " completed \(completed.count == 1 ? "launch" : "launches") of \(label):"
                    + " \(medianText)"
                    + (failed > 0 ? "; \(failed) failed" : "") + " (stored in \(store.path))")
        }
        if let code = stop.exitCode {
            Console.error(
                "headroom launch measure: interrupted; the run in progress was not stored")
            return code
        }
        return completed.count == stored.count ? 0 : 1
    }

    /// The launch's length: its ready mark, else its clean exit, else its last event.
    static func launchSeconds(_ report: LaunchReport, _ readyName: String) -> Double {
        (report.time(of: readyName) ?? report.time(of: TracedLaunch.exitMarkName)
            ?? report.totalDuration).seconds
    }

    /// `run 12 (1/10, launch.sh): ready at 123.456 ms`, its notes indented below.
    private static func line(
        _ id: RunID, _ index: Int, _ count: Int, _ report: LaunchReport, _ readyName: String
    ) -> String {
        let head = "run \(id) (\(index + 1)/\(count), \(report.label)): "
        let body: String
        if let failure = report.failure {
            // When it ended, if it did (a program stopped at the timeout did not).
            let ended = report.time(of: TracedLaunch.exitMarkName).map {
                " (after \(LaunchHistoryText.milliseconds($0.seconds)) ms)"
            }
            body = "FAILED: \(failure)\(ended ?? "")"
        } else if let ready = report.time(of: readyName) {
            body = "\(readyName) at \(LaunchHistoryText.milliseconds(ready.seconds)) ms"
        } else {
            body =
                "exited cleanly at \(LaunchHistoryText.milliseconds(launchSeconds(report, readyName))) ms, without \"\(readyName)\""
        }
        return ([head + body] + report.notes.map { "  note: \($0)" }).joined(separator: "\n")
    }

    /// A run's default label: the program's name, or the script's for an interpreter.
    static func defaultLabel(_ command: [String]) -> String {
        let name = { (word: String) in URL(fileURLWithPath: word).lastPathComponent }
        if interpreters.contains(name(command[0])),
            let script = command.dropFirst().first(where: { !$0.hasPrefix("-") })
        {
            return name(script)
        }
        return name(command[0])
    }

    /// `--output FILE` (`path`; truncated once, appended to by every run), else stderr with
    /// `--json` so that stdout stays JSON, else Headroom's own output.
    private static func outputDestination(_ path: String?, json: Bool) throws -> ChildOutput {
        guard let path else {
            return json ? .standardError : .passThrough
        }
        // A stream, not a file replaced whole: /dev/null or a terminal are fine sinks, and a
        // FIFO with a reader. Non-blocking, so a FIFO nobody reads is an error (ENXIO) at once
        // rather than a wait; blocking again once open.
        let descriptor = open(
            path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o644
        )
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFL, O_APPEND) }
        guard descriptor >= 0 else {
            throw UsageError(
                description: "--output: cannot open \(path): \(String(cString: strerror(errno)))")
        }
        return .descriptor(descriptor)
    }

    private struct ProgramMeasureDocument: Encodable {
        struct Run: Encodable {
            var id: RunID
            var launchSeconds: Double
            var failure: String?
            var notes: [String]

            init(id: RunID, report: LaunchReport, ready: String) {
                self.id = id
                launchSeconds = ProgramLaunchMeasure.launchSeconds(report, ready)
                failure = report.failure?.description
                notes = report.notes
            }
        }
        var label: String
        var readyEvent: String
        var runs: [Run]
        var medianLaunchSeconds: Double?
        var failed: Int
    }
}
