import CLI
import Capture
import Daemon
import Files
import FoundationEssentials
import History
import LaunchTiming
import Reports
import Units

/// `headroom launch measure`: launches a session in fresh processes and stores each timeline;
/// each launch is the hidden `headroom launch run-once`, which prints its report as JSON.
enum LaunchMeasure {
    /// The hidden subcommand a measured launch runs.
    static let runOnceName = LaunchCommand.Subcommand.runOnce.rawValue

    /// The session measured when none is given: the shipped
    /// `examples/sessions/launch-photo-movie.json`.
    static let defaultSession = """
        {
          "profile": "generic-x86_64",
          "cameras": [
            { "id": "back",
              "format": { "width": 3840, "height": 2160, "maxFrameRate": 30, "pixelFormat": "nv12" } }
          ],
          "outputs": [
            { "kind": "preview" },
            { "kind": "photo", "camera": "back", "deferredStart": true },
            { "kind": "movie", "camera": "back", "deferredStart": true }
          ]
        }
        """

    /// Launches the session `--runs` times (default 10), each in a fresh process, and stores
    /// every report.
    static func measure(_ arguments: Parsed<LaunchCommand.Options>, _ rest: [String])
        async throws -> Int32
    {
        guard rest.isEmpty else {
            throw UsageError(description: "unexpected argument \"\(rest[0])\"")
        }
        let count = arguments[\.runs] ?? 10
        guard count <= 10_000 else {
            throw UsageError(
                description: "--runs: measure makes at most 10000 launches, got \(count)")
        }
        let deferred = !arguments[\.noDeferred]
        let label = arguments[\.label] ?? (deferred ? "deferred" : "no-deferred")
        // Check the session here so that a bad file is one clear error, not N child failures.
        if let path = arguments[\.session] { _ = try SessionConfiguration.load(from: path) }
        if let path = arguments[\.frames] { _ = try Y4MFrameSource(path: path) }
        let store = try LaunchCommand.store(arguments[\.db], isWriting: true)
        let outDirectory = arguments[\.outDir]
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var words = [LaunchCommand.command.name, runOnceName, "--label", label]
        if let path = arguments[\.session] { words += ["--session", path] }
        if let path = arguments[\.frames] { words += ["--frames", path] }
        if !deferred { words.append("--no-deferred") }

        var stored: [(RunID, LaunchReport)] = []
        for index in 0..<count {
            let report = try ChildLaunch.run(executable: executable, arguments: words)
            let id = try store.add(report)
            if let directory = outDirectory?.path {
                try LaunchReportFormat.json.write(report, to: "\(directory)/run-\(id).json")
            }
            stored.append((id, report))
            if !arguments[\.json] {
                let first =
                    report.timeToFirstPreviewFrame.map {
                        LaunchHistoryText.milliseconds($0.seconds)
                    } ?? "-"
                Console.out(
                    "run \(id) (\(index + 1)/\(count), \(label)): first preview frame \(first) ms")
            }
        }
        let firstFrames = stored.compactMap { $0.1.timeToFirstPreviewFrame?.seconds }.sorted()
        let median = MetricStatistics.percentile(firstFrames, 0.5)
        if arguments[\.json] {
            Console.json(
                MeasureDocument(
                    label: label, runs: stored.map(\.0), medianFirstPreviewFrame: median))
        } else {
            Console.out(
                "median first preview frame over \(count) \(label) launches: "
                    + "\(LaunchHistoryText.milliseconds(median)) ms (stored in \(store.path))")
        }
        return 0
    }

    /// One launch: process start → app init → configuration → start → first preview frame →
    /// every output ready; prints the report as JSON.
    static func runOnce(_ arguments: Parsed<LaunchCommand.Options>, _ rest: [String])
        async throws -> Int32
    {
        let timeline = LaunchTimeline.startingAtProcessStart()
        timeline.begin(.appInit)
        let path = arguments[\.session]
        var configuration =
            try path.map { try SessionConfiguration.load(from: $0) }
            ?? SessionConfiguration.decode(Data(defaultSession.utf8), file: "default session")
        let deferred = !arguments[\.noDeferred]
        if !deferred {
            for index in configuration.outputs.indices {
                configuration.outputs[index].isDeferredStartEnabled = false
            }
        }
        let profile = try ProfileCatalog.forThisUser.profile(configuration.profile)
        let frameSource: any FrameSource =
            try arguments[\.frames].map { try Y4MFrameSource(path: $0) }
            ?? PatternFrameSource()
        let session = CaptureSession(
            configuration: configuration, estimator: HardwareCostEstimator(profile: profile),
            frameSource: frameSource, timeline: timeline, clock: ContinuousRunClock())
        let events = session.events()
        timeline.end(.appInit)

        session.beginConfiguration()
        try session.commitConfiguration()
        // Until frames flow and every output is ready; a session that fails says why once
        // (its error, thrown when capture has stopped).
        do {
            try await session.whileRunning {
                var pending = Set(configuration.outputs.indices)
                var hasFirstFrame = false
                for await event in events {
                    switch event {
                    case .firstPreviewFrame: hasFirstFrame = true
                    case .outputReady(let index, _): pending.remove(index)
                    case .runtimeError: return
                    default: break
                    }
                    if hasFirstFrame && pending.isEmpty { return }
                }
            }
        } catch {
            Console.error("headroom launch \(runOnceName): \(error)")
            return 1
        }
        let report = timeline.report(
            label: arguments[\.label] ?? "",
            metadata: [
                "session": path ?? "examples/sessions/launch-photo-movie.json",
                "deferredStart": String(deferred),
                "host": ProcessFacts.hostName ?? "localhost",
            ])
        Console.out(String(decoding: LaunchReportFormat.json.render(report), as: UTF8.self))
        return 0
    }

    private struct MeasureDocument: Encodable {
        var label: String
        var runs: [RunID]
        var medianFirstPreviewFrame: Double
    }
}
