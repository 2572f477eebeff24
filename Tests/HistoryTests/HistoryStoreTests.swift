import Foundation
import History
import LaunchTiming
import Locking
import Testing

func temporaryDatabase() -> String {
    NSTemporaryDirectory() + "history-\(UUID().uuidString)/nested/history.sqlite3"
}

func report(label: String, firstFrame: Double, start: Double = 0.01) -> LaunchReport {
    LaunchReport(
        label: label, startedAt: 1_700_000_000.5, origin: .processStart,
        phases: [
            PhaseInterval(name: "processStart", start: .seconds(0), duration: .seconds(start)),
            PhaseInterval(
                name: "sessionStart", start: .seconds(start),
                duration: .seconds(firstFrame - start - 0.001)),
            PhaseInterval(
                name: "outputInitialization.preview", start: .seconds(start),
                duration: .seconds(0.002), depth: 1,
                parent: "sessionStart"),
        ],
        marks: [PhaseMark(name: "firstPreviewFrame", time: .seconds(firstFrame))],
        metadata: ["session": "s.json", "deferredStart": "true"])
}

@Test func theHistorySurvivesReopening() throws {
    let path = temporaryDatabase()
    let first = report(label: "deferred", firstFrame: 0.05)
    let second = report(label: "baseline", firstFrame: 0.12)
    let ids: [RunID]
    do {
        let store = try HistoryStore(path: path)
        ids = [
            try store.add(first, summary: ["frames": 30, "dropped": 1]), try store.add(second),
        ]
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "WAL mode")
    }
    let reopened = try HistoryStore(path: path)
    #expect(try reopened.isIntact())
    #expect(try reopened.runs().map(\.id) == ids.reversed())
    #expect(try reopened.report(ids[0]) == first)
    #expect(try reopened.report(ids[1]) == second)
    #expect(try reopened.summary(of: ids[0]) == ["frames": 30, "dropped": 1])
    let runs = try reopened.runs(label: "deferred")
    #expect(runs.map(\.firstPreview?.seconds) == [0.05])
    #expect(runs.first?.total.seconds == 0.05)
}

@Test func missingRunsAndUnopenableFilesAreErrorsNamingThem() throws {
    let store = try HistoryStore(path: temporaryDatabase())
    #expect(throws: HistoryError.self) { try store.report(RunID(7)) }
    #expect(throws: HistoryError.self) { try store.runs(matching: .run(RunID(7))) }
    do {
        _ = try HistoryStore(path: "/proc/headroom/history.sqlite3")
        Issue.record("opened a database under /proc")
    } catch {
        #expect(error.path == "/proc/headroom/history.sqlite3")
    }
}

@Test func selectorsPickRunsByIdRangeLabelAndRecency() throws {
    let store = try HistoryStore(path: temporaryDatabase())
    for index in 0..<6 {
        try store.add(report(label: index % 2 == 0 ? "even" : "odd", firstFrame: 0.05))
    }
    let ids = { (text: String) in
        try store.runs(matching: RunSelector(parsing: text)).map(\.id.rawValue)
    }
    #expect(try ids("3") == [3])
    #expect(try ids("2-4") == [4, 3, 2])
    #expect(try ids("even") == [5, 3, 1])
    #expect(try ids("odd~2") == [6, 4])
    #expect(try ids("last~3") == [6, 5, 4])
    #expect(throws: RunSelectorError.self) { try RunSelector(parsing: "5-2") }
    #expect(throws: RunSelectorError.self) { try RunSelector(parsing: "even~0") }
    #expect(throws: RunSelectorError.self) { try RunSelector(parsing: "") }
}

@Test func samplesAndPercentilesPerPhase() throws {
    let store = try HistoryStore(path: temporaryDatabase())
    var ids: [RunID] = []
    for index in 1...10 {
        ids.append(try store.add(report(label: "r", firstFrame: Double(index) / 100)))
    }
    let samples = try store.samples(of: ids)
    let first = LaunchMetric(name: "firstPreviewFrame", kind: .markTime)
    #expect(samples[first]?.count == 10)
    let statistics = MetricStatistics.all(samples)
    #expect(statistics.first?.metric.kind == .phaseDuration)
    let firstFrame = try #require(statistics.first { $0.metric == first })
    #expect(abs(firstFrame.p50 - 0.055) < 1e-12)
    #expect(abs(firstFrame.p95 - 0.0955) < 1e-12)
    #expect(firstFrame.minimum == 0.01 && firstFrame.maximum == 0.1)
    #expect(first.description == "@firstPreviewFrame")
    // In timeline order: each figure where it happens, not by name.
    let timeline = try store.timeline(of: ids)
    let ordered = MetricStatistics.all(timeline.samples, meanTimes: timeline.meanTimes)
    let times = ordered.map { timeline.meanTimes[$0.metric]! }
    #expect(times == times.sorted())
}

@Test func theDefaultPathFollowsXDG() {
    #expect(
        HistoryStore.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
            == "/data/headroom/history.sqlite3")
    #expect(
        HistoryStore.defaultPath(environment: ["HOME": "/home/u"])
            == "/home/u/.local/share/headroom/history.sqlite3")
    #expect(
        HistoryStore.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])
            == "/h/.local/share/headroom/history.sqlite3", "relative paths are ignored per XDG")
}

@Test func importingAnIdenticalReportAgainIsRecognizedAndSkipped() throws {
    let store = try HistoryStore(path: temporaryDatabase())
    let first = report(label: "field", firstFrame: 0.05)
    let second = report(label: "field", firstFrame: 0.06)
    let outcomes = try store.importRuns([first, second, first])
    guard case .added(let firstID) = outcomes[0], case .added = outcomes[1] else {
        Issue.record("expected two added runs, got \(outcomes)")
        return
    }
    #expect(outcomes[2] == .alreadyImported(firstID))
    #expect(
        try store.importRuns([second]).allSatisfy {
            if case .alreadyImported = $0 { true } else { false }
        })
    #expect(try store.runs().count == 2)
    // A different label is different content.
    var relabelled = first
    relabelled.label = "lab"
    #expect(HistoryStore.contentHash(of: relabelled) != HistoryStore.contentHash(of: first))
    #expect(HistoryStore.contentHash(of: first) == HistoryStore.contentHash(of: first))
}

@Test func failedRunsAreStoredWithTheirReasonAndNotes() throws {
    let store = try HistoryStore(path: temporaryDatabase())
    var failed = report(label: "app", firstFrame: 0.05)
    failed.failure = .signalled(11)
    failed.notes = ["1 malformed line(s) ignored"]
    let good = try store.add(report(label: "app", firstFrame: 0.04))
    let bad = try store.add(failed)
    let runs = try store.runs(label: "app")
    #expect(runs.first { $0.id == bad }?.failure == .signalled(11))
    #expect(runs.first { $0.id == good }?.isCompleted == true)
    let read = try store.report(bad)
    #expect(read.failure == .signalled(11))
    #expect(read.notes == failed.notes)
    #expect(try store.report(good).notes.isEmpty)
}

@Test func aVersion2HistoryIsUpgradedKeepingItsRuns() throws {
    let path = temporaryDatabase()
    let id = try HistoryStore(path: path).add(report(label: "old", firstFrame: 0.05))
    // Turn it back into a version-2 database: no failure or notes columns.
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = [
        "python3", "-c",
        """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        db.executescript("ALTER TABLE runs DROP COLUMN failure; ALTER TABLE runs DROP COLUMN notes; PRAGMA user_version = 2;")
        """, path,
    ]
    try sqlite.run()
    sqlite.waitUntilExit()
    try #require(sqlite.terminationStatus == 0)
    let store = try HistoryStore(path: path)
    #expect(try store.report(id).label == "old")
    var failed = report(label: "new", firstFrame: 0.05)
    failed.failure = .exited(status: 2)
    let added = try store.add(failed)
    #expect(try store.report(added).failure == .exited(status: 2))
}

@Test func processesCreatingOneNewHistoryAtOnceAllOpenIt() throws {
    // Each opening is its own connection, as each `launch measure` of a parallel CI job is:
    // the schema is created once, in a write transaction the others wait for.
    for _ in 0..<5 {
        let path = temporaryDatabase()
        let failures = LockedState<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                let store = try HistoryStore(path: path)
                try store.add(report(label: "parallel", firstFrame: 0.1 + Double(index) / 100))
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        let failed = failures.withLock { $0 }
        #expect(failed.isEmpty, "\(failed)")
        #expect(try HistoryStore(path: path).runs(label: "parallel").count == 8)
    }
}
