import CLI
import Files
import FoundationEssentials
import History
import LaunchTiming
import Reports

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom launch report|history|compare|measure`: launch reports and the launch history.
enum LaunchCommand {
    /// The subcommands, each with the options it accepts: declarations of ``Options``, so a
    /// name cannot drift from the option it stands for.
    enum Subcommand: String, CaseIterable {
        case report, history, compare, measure
        case importReports = "import"
        /// One launch of `measure`'s, in a fresh process (``LaunchMeasure/runOnceName``).
        case runOnce = "run-once"

        /// The options `launch SUBCOMMAND` accepts.
        func options(_ all: Options) -> [any OptionDeclaration] {
            switch self {
            case .report: [all.db, all.format, all.out, all.from, all.outDir]
            case .importReports: [all.db, all.label, all.pid]
            case .history: [all.db, all.runs, all.label, all.json, all.check]
            case .compare: [all.db, all.json, all.alpha, all.minChange]
            case .measure:
                [
                    all.db, all.session, all.runs, all.noDeferred, all.label, all.json,
                    all.outDir, all.frames, all.ready, all.timeout, all.output,
                ]
            case .runOnce: [all.session, all.noDeferred, all.label, all.frames]
            }
        }
    }

    static let command = Command(
        name: "launch",
        forms: [
            UsageForm(
                "report [RUN]", ["--format", .oneOf(["--out", "--out-dir"]), "--from", "--db"]),
            UsageForm("history", ["--runs", "--label", "--json", "--check", "--db"]),
            UsageForm("compare A B", ["--alpha", "--min-change", "--json", "--db"]),
            UsageForm(
                "measure",
                [
                    "--session", "--runs", "--no-deferred", "--frames", "--label", "--out-dir",
                    "--json", "--db",
                ]),
            UsageForm(
                "measure",
                [
                    "--runs", "--label", "--ready", "--timeout", "--output", "--out-dir", "--json",
                    "--db",
                ], then: "-- CMD ARGS..."),
            UsageForm("import FILE...", ["--label", "--pid", "--db"]),
        ],
        summary: "Launch timelines: report, history (p50/p95 per phase), compare, measure, import.",
        details: """
            report: one run's timeline (RUN: a run id, LABEL or LABEL~N for its newest run,
            default the newest run; --from FILE re-exports a JSON report instead) as JSON, CSV,
            Chrome trace-event JSON (open in ui.perfetto.dev or chrome://tracing), Markdown or a
            self-contained HTML waterfall, to stdout or atomically to --out; --out-dir DIR writes
            every run RUN selects (e.g. deferred) as DIR/run-ID.EXT.
            history: p50 and p95 of every phase's duration and every mark's time (@name) over
            the last N runs (default 20); --check verifies the database (exit 1 if damaged).
            compare: A and B select runs (12, 10-19, LABEL, LABEL~N, last~N); per phase, the
            change of the median and a Mann–Whitney test over the runs; exit 1 when B regresses
            significantly (p < --alpha, default 0.05) by more than --min-change (default 0.05,
            5 %) and 0.5 ms.
            measure: launches the session (default: a 4K30 preview with deferred photo and movie
            outputs, examples/sessions/launch-photo-movie.json) N times (default 10) in fresh
            processes and stores each run, labelled "deferred" or, with --no-deferred (every
            output started before the first frame), "no-deferred"; --out-dir also writes each
            run's JSON report there.
            measure -- CMD ARGS...: launches any program N times, each in a fresh process with a
            pipe as descriptor 3 and HEADROOM_TRACE_FD=3 in its environment; it writes one
            JSON trace event a line, {"ph": "B"|"E"|"X"|"i", "name", "ts": µs on
            CLOCK_MONOTONIC (optional), "dur" (X)}; `printf '{"ph":"i","name":"ready"}\n' >&3`
            from a shell. app.init, session.configure, session.start, output.init,
            first_frame and deferred.start are Headroom's own phases; other names are kept.
            The launch ends at the event --ready (default ready; the program is then stopped)
            or at the program's exit; times count from the process's creation. A crash, a
            non-zero exit or no ready within --timeout (default 60 s) is stored as a failed run
            (exit 1). The program's output passes through (to stderr with --json), or goes to
            --output FILE; its stdin is /dev/null. Label: the program's (or script's) name.
            import: adds JSON reports (from another machine, or --out-dir) to the history, or
            the events of one process of a Chrome trace-event file (an array, or
            {"traceEvents": [...]}, as Chrome and Perfetto write it; --pid picks the process
            when it holds several).
            The history is $XDG_DATA_HOME/headroom/history.sqlite3 unless --db PATH.
            """,
        options: Options.self,
        run: { arguments in
            let (subcommand, rest) = try subcommand(arguments)
            switch subcommand {
            case .report: return try report(arguments, rest)
            case .importReports: return try importReports(arguments, rest)
            case .history: return try LaunchHistoryText.history(arguments, rest)
            case .compare: return try LaunchHistoryText.compare(arguments, rest)
            case .measure:
                if let command = arguments.afterSeparator {
                    return try await ProgramLaunchMeasure.measure(arguments, command: command)
                }
                return try await LaunchMeasure.measure(arguments, rest)
            case .runOnce: return try await LaunchMeasure.runOnce(arguments, rest)
            }
        })

    /// `headroom launch`'s options, shared by its subcommands (``Subcommand/options(_:)`` says
    /// which subcommand takes which).
    struct Options: CommandOptions {
        let db = Option<String?>.path("--db", "PATH", "the history database")
        let format = Option<LaunchReportFormat>.choice("--format", "report format", default: .json)
        let out = Option<Destination?>.output(
            "--out", "PATH", "write the report to PATH atomically instead of stdout")
        let from = Option<String?>.path(
            "--from", "FILE", "report: read this JSON report instead of the history")
        /// History: the runs summarized; measure: the launches made.
        let runs = Option<Int?>.integer(
            "--runs", "N",
            "history: runs to summarize (default 20); measure: launches to make"
                + " (default 10, at most 10000)", in: 1...100_000)
        let label = Option<String?>.text(
            "--label", "LABEL", "history: only runs with LABEL; measure, import: label runs")
        let alpha = Option<Double>.number(
            "--alpha", "P", "compare: significance level", in: 0.0001...0.5, default: 0.05)
        let minChange = Option<Double>.number(
            "--min-change", "R", "compare: smallest relative change that counts", in: 0...10,
            default: 0.05)
        let session = Option<String?>.path("--session", "FILE", "measure: the session to launch")
        let frames = Option<String?>.path(
            "--frames", "FILE", "measure: frames from this .y4m file (default: a pattern)")
        let noDeferred = Option<Bool>.flag(
            "--no-deferred", "measure: start every output before the first frame")
        let ready = Option<String?>.text(
            "--ready", "NAME", "measure -- CMD: the event that ends the launch (default ready)")
        let timeout = Option<Duration?>.seconds(
            "--timeout", "S",
            "measure -- CMD: seconds to say ready before the run fails (default 60)",
            in: 0.01...86_400)
        let output = Option<String?>.path(
            "--output", "FILE", "measure -- CMD: the program's stdout and stderr into FILE")
        let pid = Option<Int?>.integer(
            "--pid", "PID", "import: the process of a Chrome trace to import",
            in: 0...Int(Int32.max))
        let outDir = Option<Destination?>.output(
            "--out-dir", "DIR", "report, measure: write each run's report into DIR", .directory)
        let check = Option<Bool>.flag("--check", "history: check the database's integrity")
        let json = Option<Bool>.flag("--json", "print JSON")
    }

    /// The subcommand named first and its operands, every rule between the options checked
    /// before any work: each option given applies to the subcommand (``Subcommand``),
    /// `measure`'s to what it measures (a session or a command), `report`'s `--out-dir` not
    /// with `--out` or `--from`.
    private static func subcommand(_ arguments: Parsed<Options>) throws(UsageError)
        -> (subcommand: Subcommand, rest: [String])
    {
        guard let name = arguments.positionals.first, let subcommand = Subcommand(rawValue: name)
        else {
            throw UsageError(
                description:
                    "expected a subcommand: report, history, compare, measure or import"
                    + (arguments.positionals.first.map { ", got \"\($0)\"" } ?? ""))
        }
        let allowed = Set(subcommand.options(Options()).map(\.spec.name))
        let given = arguments.givenNames
        if let option = given.first(where: { !allowed.contains($0) }) {
            throw UsageError(description: "\(option) does not apply to `launch \(name)`")
        }
        let rest = Array(arguments.positionals.dropFirst())
        if subcommand == .report, arguments[\.outDir] != nil,
            arguments[\.out] != nil || arguments[\.from] != nil
        {
            throw UsageError(description: "--out-dir writes runs of the history; drop --out/--from")
        }
        if subcommand == .measure, let command = arguments.afterSeparator {
            guard !command.isEmpty, rest.count == command.count else {
                throw UsageError(
                    description: command.isEmpty
                        ? "expected a command after --"
                        : "unexpected argument \"\(rest[0])\" before --")
            }
            for option in ProgramLaunchMeasure.sessionOptions where given.contains(option) {
                throw UsageError(
                    description: "\(option) measures Headroom's own session;"
                        + " drop it or the command")
            }
        } else if subcommand == .measure {
            for option in ProgramLaunchMeasure.programOptions where given.contains(option) {
                throw UsageError(description: "\(option): only with a command (-- CMD ARGS...)")
            }
        }
        return (subcommand, rest)
    }

    /// Adds JSON reports (from `report --format json`, `measure --out-dir`, another machine)
    /// to the history, each validated first.
    private static func importReports(_ arguments: Parsed<Options>, _ files: [String]) throws
        -> Int32
    {
        guard !files.isEmpty else {
            throw UsageError(description: "expected one or more JSON report FILEs")
        }
        let processID = arguments[\.pid]
        let reports = try files.map { file in
            let document = try parsed(InputFile.read(file), file: file)
            var report: LaunchReport
            if ChromeTrace.isTrace(document) {
                report = try ChromeTrace.report(
                    document, file: file, processID: processID, label: arguments[\.label])
            } else {
                guard processID == nil else {
                    throw UsageError(
                        description: "--pid: \(file) is a launch report, not a Chrome trace")
                }
                report = try LaunchReport.decode(document, file: file)
            }
            if let label = arguments[\.label] { report.label = label }
            return report
        }
        let store = try store(arguments[\.db], isWriting: true)
        // All or nothing: every file was validated above, and the runs go in one transaction.
        let outcomes = try store.importRuns(reports)
        var added: [String] = []
        for (file, outcome) in zip(files, outcomes) {
            switch outcome {
            case .added(let id): added.append(id.description)
            case .alreadyImported(let id):
                Console.error("headroom launch import: note: \(file) is already run \(id); skipped")
            }
        }
        Console.out(
            "imported \(added.count) run(s) into \(store.path)"
                + (added.isEmpty ? "" : ": \(added.joined(separator: " "))"))
        return 0
    }

    /// `data` as JSON, errors naming `file`.
    private static func parsed(_ data: [UInt8], file: String) throws(ConfigurationError)
        -> JSONValue
    {
        do { return try JSONParser.parse(data) } catch { throw error.inFile(file) }
    }

    /// The history named by `--db` (`given`), or the default one; a command that adds to it
    /// (`isWriting`) is refused before its work when it can only be read.
    static func store(_ given: String?, mustExist: Bool = false, isWriting: Bool = false)
        throws -> HistoryStore
    {
        let path =
            given ?? HistoryStore.defaultPath(environment: ProcessFacts.environment)
        // SQLite takes "" for a temporary database, where a history would be lost.
        guard !path.isEmpty else {
            throw UsageError(description: "--db: expected a path, got an empty one")
        }
        var status = stat()
        if stat(path, &status) == 0 {
            // SQLite would open /dev/null, and create /dev/null-journal beside it.
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw UsageError(
                    description: "--db: \(path) is not a regular file; expected a history file")
            }
        } else if mustExist {
            throw UsageError(description: "--db: no history at \(path)")
        }
        let store = try HistoryStore(path: path)
        if isWriting && store.isReadOnly {
            throw UsageError(
                description:
                    "--db: \(path) can only be read here (a read-only place); expected a history to add to"
            )
        }
        return store
    }

    /// Parses a run selector typed on the command line.
    static func selector(_ text: String) throws(UsageError) -> RunSelector {
        do {
            return try RunSelector(parsing: text)
        } catch {
            throw UsageError(description: error.description)
        }
    }

    private static func report(_ arguments: Parsed<Options>, _ rest: [String]) throws -> Int32 {
        guard rest.count <= 1 else {
            throw UsageError(description: "expected at most one RUN, got \(rest.count)")
        }
        let format = arguments[\.format]
        let report: LaunchReport
        if let file = arguments[\.from] {
            guard rest.isEmpty else {
                throw UsageError(description: "give either RUN or --from FILE, not both")
            }
            report = try LaunchReport.decode(InputFile.read(file), file: file)
        } else {
            let store = try store(arguments[\.db])
            let runs = try store.runs(matching: selector(rest.first ?? "last~1"))
            guard let newest = runs.first else {
                Console.error("headroom launch report: no run matches \"\(rest.first ?? "last")\"")
                return 2
            }
            if let directory = arguments[\.outDir]?.path {
                for run in runs {
                    let path = "\(directory)/run-\(run.id).\(format.fileExtension)"
                    try format.write(store.report(run.id), to: path)
                }
                Console.out("wrote \(runs.count) report(s) to \(directory)")
                return 0
            }
            report = try store.report(newest.id)
        }
        if let path = arguments[\.out]?.path {
            try format.write(report, to: path)
        } else {
            Console.out(String(decoding: format.render(report), as: UTF8.self))
        }
        return 0
    }
}
