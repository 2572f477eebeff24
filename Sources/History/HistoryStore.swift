import CSQLite
import Files
import FoundationEssentials
import LaunchTiming
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// The launch history: every run's timeline and summary in an SQLite database.
///
/// The database runs in WAL mode, and every run is added in one transaction, so a process
/// killed while writing leaves the previous runs intact and no partial run. Several processes
/// may use the same file; SQLite serializes the writers (waiting up to 5 s for a lock).
public final class HistoryStore: Sendable {
    /// The database file.
    public let path: String
    private let connection: LockedState<SQLiteConnection>

    /// The schema version this code writes (SQLite's `user_version`).
    public static let schemaVersion = 3

    /// The default location: `$XDG_DATA_HOME/headroom/history.sqlite3`, with `XDG_DATA_HOME`
    /// defaulting to `$HOME/.local/share` as the XDG base-directory specification says.
    public static func defaultPath(environment: [String: String]) -> String {
        "\(DataHome.directory(environment: environment))/headroom/history.sqlite3"
    }

    /// Whether the history can only be read: it lies where nothing can be written (a read-only
    /// mount, a directory of someone else's), so it was opened as an immutable file.
    public let isReadOnly: Bool

    /// Opens the history at `path`, creating the file, its directory and the schema if needed.
    /// A history where nothing can be written (a read-only mount) is opened for reading only:
    /// a WAL database otherwise cannot be opened there at all.
    ///
    /// - Throws: ``HistoryError`` when the file cannot be opened, is not a Headroom history,
    ///   or was written by a newer version (or, read-only, by an older one).
    public init(path: String) throws(HistoryError) {
        self.path = path
        let directory = Destination.parent(of: path)
        isReadOnly =
            FileManager.default.fileExists(atPath: path)
            && (access(directory, W_OK) != 0 || access(path, W_OK) != 0)
        if !isReadOnly {
            do {
                try AtomicFile.createDirectories(directory, for: path)
            } catch {
                throw HistoryError(
                    path: path, operation: "create its directory", problem: error.problem)
            }
        }
        let connection = try SQLiteConnection(path: path, readOnly: isReadOnly)
        if isReadOnly {
            try Self.checkReadable(connection)
        } else {
            try connection.executeWaitingWhileBusy(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                operation: "configure")
            try Self.migrate(connection)
        }
        self.connection = LockedState(connection)
    }

    /// A history opened read-only cannot be upgraded: it must have this code's schema.
    private static func checkReadable(_ connection: SQLiteConnection) throws(HistoryError) {
        let current = try schemaVersion(of: connection)
        guard current == schemaVersion else {
            throw HistoryError(
                path: connection.path, operation: "open read-only",
                problem:
                    "schema version \(current), expected \(schemaVersion); open it once where it can be written to upgrade it"
            )
        }
    }

    /// The schema version the file says it has; the statement is done with on return, so
    /// no read transaction stays open (one would make `BEGIN IMMEDIATE` fail at once, without
    /// waiting, while another process creates the schema).
    private static func schemaVersion(of connection: SQLiteConnection) throws(HistoryError)
        -> Int
    {
        let version = try connection.prepare("PRAGMA user_version", operation: "read version")
        _ = try version.step()
        return Int(version.integer(0))
    }

    private static func migrate(_ connection: SQLiteConnection) throws(HistoryError) {
        try connection.transaction("create the schema") { () throws(HistoryError) in
            try migrateInTransaction(connection)
        }
    }

    /// Brings the schema up to date; in a write transaction, so of two processes creating a
    /// new history at once, the second finds the first's schema.
    private static func migrateInTransaction(_ connection: SQLiteConnection)
        throws(HistoryError)
    {
        let current = try schemaVersion(of: connection)
        guard current <= schemaVersion else {
            throw HistoryError(
                path: connection.path, operation: "open",
                problem:
                    "schema version \(current) is newer than \(schemaVersion); upgrade Headroom")
        }
        guard current < schemaVersion else { return }
        if current < 1 { try createVersion1(connection) }
        if current < 2 {
            // A content hash per imported run, so importing it again is recognized.
            try connection.execute(
                """
                ALTER TABLE runs ADD COLUMN content_hash TEXT;
                CREATE UNIQUE INDEX runs_content_hash ON runs(content_hash)
                    WHERE content_hash IS NOT NULL;
                """, operation: "upgrade the schema")
        }
        if current < 3 {
            // Failed launches (their reason as JSON) and a run's notes (a JSON array).
            try connection.execute(
                "ALTER TABLE runs ADD COLUMN failure TEXT; ALTER TABLE runs ADD COLUMN notes TEXT;",
                operation: "upgrade the schema")
        }
        try connection.execute(
            "PRAGMA user_version = \(schemaVersion);", operation: "upgrade the schema")
    }

    private static func createVersion1(_ connection: SQLiteConnection) throws(HistoryError) {
        try connection.execute(
            """
            CREATE TABLE runs (
                id INTEGER PRIMARY KEY, label TEXT NOT NULL, started_at REAL NOT NULL,
                origin TEXT NOT NULL, total_seconds REAL NOT NULL,
                first_preview_seconds REAL, dropped_events INTEGER NOT NULL,
                metadata TEXT NOT NULL);
            CREATE INDEX runs_label ON runs(label, id);
            CREATE TABLE phases (
                run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                position INTEGER NOT NULL, name TEXT NOT NULL, start_seconds REAL NOT NULL,
                duration_seconds REAL NOT NULL, depth INTEGER NOT NULL, parent TEXT,
                complete INTEGER NOT NULL, PRIMARY KEY (run_id, position));
            CREATE TABLE marks (
                run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                position INTEGER NOT NULL, name TEXT NOT NULL, time_seconds REAL NOT NULL,
                PRIMARY KEY (run_id, position));
            CREATE TABLE summaries (
                run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                name TEXT NOT NULL, value REAL NOT NULL, PRIMARY KEY (run_id, name));
            """, operation: "create the schema")
    }

    /// Adds a run: its report and a summary of named figures (frames, drops, pressure…).
    ///
    /// - Returns: the new run's identifier.
    /// - Throws: ``HistoryError``; nothing of the run is stored then.
    @discardableResult
    public func add(_ report: LaunchReport, summary: [String: Double] = [:]) throws(HistoryError)
        -> RunID
    {
        try connection.withLock { connection throws(HistoryError) in
            try connection.transaction("add a run") { () throws(HistoryError) in
                try Self.insert(report, summary: summary, contentHash: nil, into: connection)
            }
        }
    }

    /// What importing one report did.
    public enum ImportOutcome: Hashable, Sendable {
        /// The report was added as this run.
        case added(RunID)
        /// An identical report was imported before, as this run; nothing was added.
        case alreadyImported(RunID)
    }

    /// Imports `reports` all or nothing, in one transaction: a report identical to one imported
    /// before (the same ``contentHash(of:)``, in this call or an earlier one) is skipped and
    /// named by the run that holds it.
    ///
    /// - Returns: one outcome per report, in order.
    /// - Throws: ``HistoryError``; nothing of any report is stored then.
    public func importRuns(_ reports: [LaunchReport]) throws(HistoryError) -> [ImportOutcome] {
        try connection.withLock { connection throws(HistoryError) in
            try connection.transaction("import runs") { () throws(HistoryError) in
                var outcomes: [ImportOutcome] = []
                for report in reports {
                    let hash = Self.contentHash(of: report)
                    let existing = try connection.prepare(
                        "SELECT id FROM runs WHERE content_hash = ?", operation: "import runs")
                    try existing.bind([.text(hash)])
                    if try existing.step() {
                        outcomes.append(.alreadyImported(RunID(existing.integer(0))))
                    } else {
                        outcomes.append(
                            .added(
                                try Self.insert(
                                    report, summary: [:], contentHash: hash, into: connection)))
                    }
                }
                return outcomes
            }
        }
    }

    /// A stable fingerprint of a report's content: 128 bits (FNV-1a and a multiplicative
    /// hash, 64 bits each) over its canonical JSON (sorted keys), in hex. Reports that differ in any
    /// field, the label included, differ here.
    public static func contentHash(of report: LaunchReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(report)) ?? Data()
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second &+ UInt64(byte)) &* 0x9e37_79b9_7f4a_7c15
            second ^= second >> 29
        }
        let hex = { (value: UInt64) in
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return hex(first) + hex(second)
    }

    /// Inserts one run inside the caller's transaction.
    private static func insert(
        _ report: LaunchReport, summary: [String: Double], contentHash: String?,
        into connection: SQLiteConnection
    ) throws(HistoryError) -> RunID {
        let operation = "add a run"
        func json(_ value: some Encodable) -> String {
            String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
        }
        try connection.prepare(
            """
            INSERT INTO runs (label, started_at, origin, total_seconds,
                first_preview_seconds, dropped_events, metadata, content_hash, failure, notes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, operation: operation
        ).run([
            .text(report.label), .real(report.startedAt), .text(report.origin.rawValue),
            .real(report.totalDuration.seconds),
            report.timeToFirstPreviewFrame.map { .real($0.seconds) } ?? .null,
            .integer(Int64(report.droppedEvents)), .text(json(report.metadata)),
            contentHash.map(SQLiteValue.text) ?? .null,
            report.failure.map { .text(json($0)) } ?? .null,
            report.notes.isEmpty ? .null : .text(json(report.notes)),
        ])
        let id = connection.lastInsertRowID
        let phase = try connection.prepare(
            "INSERT INTO phases VALUES (?, ?, ?, ?, ?, ?, ?, ?)", operation: operation)
        for (position, interval) in report.phases.enumerated() {
            try phase.run([
                .integer(id), .integer(Int64(position)), .text(interval.name),
                .real(interval.start.seconds), .real(interval.duration.seconds),
                .integer(Int64(interval.depth)),
                interval.parent.map(SQLiteValue.text) ?? .null,
                .integer(interval.isComplete ? 1 : 0),
            ])
        }
        let mark = try connection.prepare(
            "INSERT INTO marks VALUES (?, ?, ?, ?)", operation: operation)
        for (position, instant) in report.marks.enumerated() {
            try mark.run([
                .integer(id), .integer(Int64(position)), .text(instant.name),
                .real(instant.time.seconds),
            ])
        }
        let figure = try connection.prepare(
            "INSERT INTO summaries VALUES (?, ?, ?)", operation: operation)
        for (name, value) in summary.sorted(by: { $0.key < $1.key }) {
            try figure.run([.integer(id), .text(name), .real(value)])
        }
        return RunID(id)
    }

    /// Runs newest first, optionally only those labelled `label`, at most `limit` of them.
    public func runs(label: String? = nil, limit: Int? = nil) throws(HistoryError) -> [StoredRun] {
        try connection.withLock { connection throws(HistoryError) in
            let statement = try connection.prepare(
                """
                SELECT id, label, started_at, total_seconds, first_preview_seconds, failure
                FROM runs WHERE ?1 IS NULL OR label = ?1 ORDER BY id DESC LIMIT ?2
                """, operation: "list runs")
            try statement.bind([label.map(SQLiteValue.text) ?? .null, .integer(Int64(limit ?? -1))])
            var runs: [StoredRun] = []
            while try statement.step() {
                runs.append(
                    StoredRun(
                        id: RunID(statement.integer(0)), label: statement.text(1),
                        startedAt: statement.real(2),
                        total: .seconds(roundedToNanoseconds: statement.real(3)),
                        firstPreview: statement.isNull(4)
                            ? nil : .seconds(roundedToNanoseconds: statement.real(4)),
                        failure: statement.isNull(5) ? nil : Self.decodeFailure(statement.text(5))))
            }
            return runs
        }
    }

    /// The runs a selector names, newest first.
    ///
    /// - Throws: ``HistoryError`` when a named run does not exist.
    public func runs(matching selector: RunSelector) throws(HistoryError) -> [StoredRun] {
        switch selector {
        case .run(let id):
            guard let run = try runs().first(where: { $0.id == id }) else {
                throw HistoryError(path: path, operation: "find run \(id)", problem: "no such run")
            }
            return [run]
        case .range(let range):
            return try runs().filter { range.contains($0.id.rawValue) }
        case .label(let label, let limit):
            return try runs(label: label, limit: limit)
        case .latest(let count):
            return try runs(limit: count)
        }
    }

    /// The full report of run `id`, as it was added.
    ///
    /// - Throws: ``HistoryError`` when there is no such run.
    public func report(_ id: RunID) throws(HistoryError) -> LaunchReport {
        try connection.withLock { connection throws(HistoryError) in
            let operation = "read run \(id)"
            let run = try connection.prepare(
                """
                SELECT label, started_at, origin, dropped_events, metadata, failure, notes
                FROM runs WHERE id = ?
                """, operation: operation)
            try run.bind([.integer(id.rawValue)])
            guard try run.step() else {
                throw HistoryError(path: path, operation: operation, problem: "no such run")
            }
            let metadata =
                (try? JSONDecoder().decode([String: String].self, from: Data(run.text(4).utf8)))
                ?? [:]
            var report = LaunchReport(
                label: run.text(0), startedAt: run.real(1),
                origin: ReportOrigin(rawValue: run.text(2)) ?? .timelineStart, phases: [],
                marks: [],
                droppedEvents: Int(run.integer(3)), metadata: metadata,
                failure: run.isNull(5) ? nil : Self.decodeFailure(run.text(5)),
                notes: run.isNull(6)
                    ? []
                    : (try? JSONDecoder().decode([String].self, from: Data(run.text(6).utf8)))
                        ?? [])
            let phases = try connection.prepare(
                """
                SELECT name, start_seconds, duration_seconds, depth, parent, complete FROM phases
                WHERE run_id = ? ORDER BY position
                """, operation: operation)
            try phases.bind([.integer(id.rawValue)])
            while try phases.step() {
                report.phases.append(
                    PhaseInterval(
                        name: phases.text(0), start: .seconds(roundedToNanoseconds: phases.real(1)),
                        duration: .seconds(roundedToNanoseconds: phases.real(2)),
                        depth: Int(phases.integer(3)),
                        parent: phases.isNull(4) ? nil : phases.text(4),
                        isComplete: phases.integer(5) != 0))
            }
            let marks = try connection.prepare(
                "SELECT name, time_seconds FROM marks WHERE run_id = ? ORDER BY position",
                operation: operation)
            try marks.bind([.integer(id.rawValue)])
            while try marks.step() {
                report.marks.append(
                    PhaseMark(
                        name: marks.text(0), time: .seconds(roundedToNanoseconds: marks.real(1))))
            }
            return report
        }
    }

    /// The summary figures stored with run `id`.
    public func summary(of id: RunID) throws(HistoryError) -> [String: Double] {
        try connection.withLock { connection throws(HistoryError) in
            let statement = try connection.prepare(
                "SELECT name, value FROM summaries WHERE run_id = ?", operation: "read summary")
            try statement.bind([.integer(id.rawValue)])
            var summary: [String: Double] = [:]
            while try statement.step() { summary[statement.text(0)] = statement.real(1) }
            return summary
        }
    }

    /// Every phase's durations and every mark's times over `runs`, one sample per run (the
    /// first occurrence), keyed by ``LaunchMetric``.
    public func samples(of runs: [RunID]) throws(HistoryError) -> [LaunchMetric: [Double]] {
        try timeline(of: runs).samples
    }

    /// The samples of ``samples(of:)`` and, for each metric, its mean time on the timeline (a
    /// phase's start, a mark's time), so that figures can be listed in the order they happen.
    public func timeline(of runs: [RunID]) throws(HistoryError) -> (
        samples: [LaunchMetric: [Double]], meanTimes: [LaunchMetric: Double]
    ) {
        var samples: [LaunchMetric: [Double]] = [:]
        var times: [LaunchMetric: [Double]] = [:]
        for id in runs {
            let report = try report(id)
            var seen = Set<LaunchMetric>()
            for phase in report.phases where phase.isComplete {
                let metric = LaunchMetric(name: phase.name, kind: .phaseDuration)
                if seen.insert(metric).inserted {
                    samples[metric, default: []].append(phase.duration.seconds)
                    times[metric, default: []].append(phase.start.seconds)
                }
            }
            for mark in report.marks {
                let metric = LaunchMetric(name: mark.name, kind: .markTime)
                if seen.insert(metric).inserted {
                    samples[metric, default: []].append(mark.time.seconds)
                    times[metric, default: []].append(mark.time.seconds)
                }
            }
        }
        return (samples, times.mapValues { $0.reduce(0, +) / Double($0.count) })
    }

    /// Whether SQLite finds the database intact (`PRAGMA integrity_check`).
    public func isIntact() throws(HistoryError) -> Bool {
        try connection.withLock { connection throws(HistoryError) in
            let statement = try connection.prepare(
                "PRAGMA integrity_check", operation: "check integrity")
            return try statement.step() && statement.text(0) == "ok"
        }
    }

    /// A stored failure; one this version cannot read still marks the run as failed.
    private static func decodeFailure(_ text: String) -> LaunchFailure {
        (try? JSONDecoder().decode(LaunchFailure.self, from: Data(text.utf8)))
            ?? .notStarted("unreadable failure record \(text.prefix(80))")
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}
