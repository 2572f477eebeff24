import CLI
import Capture
import Daemon
import Files
import FoundationEssentials
import Governor
import History
import HostServer
import HostService
import LaunchTiming
import Lifecycle
import Pipeline
import Pressure
import Reports
import Storage
import Telemetry
import Tracking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom run`: the main job.
enum RunCommand {
    static let command = Command(
        name: "run",
        summary:
            "Run the tracking pipeline under pressure, with the governor adapting it (the main job).",
        details: """
            Prices and commits the session (refused when over budget, with the planner's
            suggestion), starts it with deferred start, observes pressure (real sensors where the
            host has them, otherwise PSI plus a thermal model labelled SIMULATED, heated by the
            pipeline's modelled work), runs the synthetic scene through detector, tracker and framing
            to the simulated stand, and lets the governor adapt frame rate and inference. Shows
            live progress, then writes the run report (run.json, run.md, run.html,
            launch.trace.json, launch.md) and what it saw (detections.txt and tracks.txt,
            MOTChallenge lines numbered by video frame) into --out (default runs/<time>) and
            adds the run to the history. --clock virtual plays the scene, or a video file frame
            by frame at its own rate, on virtual time: as fast as the machine goes, the same
            report on any machine (pressure from --trace or the model).
            Scenarios: default (a steady room), thermal-ramp (the room heats up). --compare runs
            the scenario (or plays the video file twice) with the governor on and then off and
            prints both side by side.
            --record PATH records the frames the pipeline sees as a Y4M movie (adding a movie
            output with "usesProVideoStorage": true when the session has none) through the pro
            video storage reserve (see `headroom storage`); a session's own movie output
            records to DIR/movie.y4m. A full reserve ends the recording cleanly, not the run.
            --trace FILE replays pressure from a recorded trace in its own time (instead of this
            host's sensors or the model), so its levels are the same on any machine (use it with
            --governor pressure-only; with --clock virtual the whole run is);
            --record-pressure FILE writes what a run sampled.
            --source runs real video instead of the scene: any file ffmpeg reads (Debian's
            ffmpeg decodes it in a child process), - for YUV4MPEG2 on standard input, or
            v4l2:/dev/video0 for a camera; the session's camera takes the video's size and
            frame rate unless --session is given, and the run ends with the video. --pace file
            (default) takes frames at the video's own rate, skipping those a slow pipeline
            misses; --pace max takes every frame as fast as the pipeline goes (the camera is
            then declared at up to 4x the video's rate, 240 at most). --gt FILE scores
            the tracks against MOTChallenge ground truth numbered by video frame. --detector
            defaults for video to person-ssd, the neural person detector, where its model is
            installed (headroom-person-model; in a source tree scripts/person-model.sh), else
            to hog (OpenCV's HOG people detector), and to blob for the scene; motion (an
            adaptive background model) finds anything that moves. --annotate
            FILE.mp4 writes the frames with boxes, track ids, the primary subject and the
            framing window, encoded by ffmpeg. Every place a run writes (--out, --record,
            --record-pressure, --annotate) is checked before it starts.
            """,
        options: Options.self,
        run: { arguments in
            let (options, firstInputs) = try runOptions(arguments)
            let json = arguments[\.json]
            // Every destination is checked before the run: a run never ends with results it
            // cannot write.
            let out =
                try arguments[\.out]
                ?? Arguments.destination("runs/\(timestamp())", as: .directory, for: "--out")
            let pressureDestination = arguments[\.recordPressure]
            let recordDestination = arguments[\.record]
            let annotationDestination = arguments[\.annotate]
            let traceFile = arguments[\.trace]
            let timeline = LaunchTimeline.startingAtProcessStart()
            let history = try LaunchCommand.store(arguments[\.db], isWriting: true)
            let token = try arguments[\.tokenFile].map(BearerToken.load)

            var summaries: [RunSummary] = []
            // --compare: the governor as asked (on, unless --governor says otherwise), then off.
            let governed = options.governance == .off ? .full : options.governance
            let modes: [RunOptions.Governance] =
                arguments[\.compare] ? [governed, .off] : [options.governance]
            // SIGINT or SIGTERM ends the run early; its report and history row are still
            // written, marked interrupted, and the command exits 130 or 143.
            let stop = StopSignal()
            // Set when a result could not go where it was asked (it went elsewhere, said so).
            var resultsMoved = false
            // Set when a run failed once started; its report is written all the same.
            var hasFailed = false
            for (index, governance) in modes.enumerated() where stop.received == nil {
                let directory =
                    modes.count > 1
                    ? "\(out.path)/governor-\(governance == .off ? "off" : "on")" : out.path
                var outputs = options.outputs
                outputs.recording =
                    recordDestination?.path
                    ?? (options.configuration.outputs.contains { $0.kind == .movie }
                        ? "\(directory)/movie.y4m" : nil)
                outputs.annotation = annotationDestination?.path
                outputs.recordsPressure = pressureDestination != nil
                outputs.reportDirectory = directory
                if outputs.annotation != nil {
                    try AtomicFile.createDirectories(directory)
                }
                // Each pass reads its own inputs: --compare plays a video file again from its
                // start, and replays the trace afresh.
                var inputs = firstInputs
                if index > 0 { inputs.video = try options.openVideo() }
                inputs.pressureSource = try traceFile.map {
                    TraceReplaySource(
                        trace: try PressureTrace.read(from: $0), pacing: .recordedTimes)
                }
                let run = try PipelineRun(
                    options: options.pass(governance: governance, outputs: outputs),
                    inputs: inputs, timeline: index == 0 ? timeline : LaunchTimeline())
                let served = try serve(run, at: arguments[\.serve], token: token)
                // The server's services are the run's and stop with it; this stops it when the
                // run is refused before its services start (over budget).
                defer { served?.server.stop() }
                let display = RunDisplay(
                    isLive: !json && Console.isTerminal, isQuiet: json, duration: options.duration)
                let summary: RunSummary
                do {
                    summary = try await withSignalCancellation(stop) {
                        // Announced once the signals are watched: whoever reads these lines and
                        // stops the run gets its report.
                        if !json {
                            if let served {
                                Console.out(
                                    "serving on \(served.address) (/metrics /healthz /status /v1)")
                            }
                            Console.out(display.header(run.options))
                        }
                        return try await run.run(
                            progress: { display.show($0) },
                            alongside: served?.server.services() ?? [])
                    }
                } catch let error as SessionOverBudgetError {
                    Console.error("headroom run: \(error)")
                    let plan = CapturePlanner(
                        estimator: HardwareCostEstimator(profile: options.profile)
                    )
                    .plan(for: options.configuration)
                    if plan.fits {
                        Console.error(
                            "the planner suggests: \(plan.trades.map(\.description).joined(separator: "; "))"
                                + " (`headroom plan` writes it with --out)")
                    }
                    return 1
                } catch let error as StorageError {
                    display.finish()
                    Console.error(
                        "headroom run: recording: \(error) (see `headroom storage status`;"
                            + " `headroom storage allocate SIZE` sets space aside)")
                    return 1
                }
                display.finish()
                if let recording = summary.recording, recording.endReason != .finished {
                    Console.error(
                        "headroom run: recording ended early: \(recording.endReason.rawValue):"
                            + " \(recording.problem ?? ""); \(recording.path) holds \(recording.frames) whole frames"
                    )
                }
                do {
                    try history.add(summary.launch, summary: historyFigures(summary))
                } catch {
                    Console.error("headroom run: the run was not added to the history: \(error)")
                }
                let files = await writeReports(summary, of: run, to: directory)
                if files.isMoved { resultsMoved = true }
                if let path = pressureDestination?.path {
                    do {
                        try run.pressureTrace.write(to: path)
                    } catch {
                        Console.error("headroom run: --record-pressure: \(error)")
                        resultsMoved = true
                    }
                }
                summaries.append(summary)
                if !json {
                    Console.out(RunDisplay.summaryText(summary))
                    Console.out(
                        "reports: \((files.paths + files.trackingFiles).joined(separator: ", "))\n"
                    )
                }
                if let failure = summary.failure {
                    Console.error(
                        "headroom run: the run failed: \(failure); the report covers what ran")
                    hasFailed = true
                }
            }
            if json {
                Console.json(
                    summaries.count == 1 ? AnyEncodable(summaries[0]) : AnyEncodable(summaries))
            } else if summaries.count == 2 {
                Console.out(RunDisplay.comparisonText(on: summaries[0], off: summaries[1]))
            }
            if let signal = stop.received {
                Console.error(
                    "headroom run: stopped by signal \(signal); the report covers what ran")
            }
            return stop.exitCode ?? (resultsMoved || hasFailed ? 1 : 0)
        })

    /// `headroom run`'s options.
    struct Options: CommandOptions {
        let seconds = Option<Duration?>.seconds(
            "--seconds", "S", "how long to run; by default the scenario's length (20 or 75)",
            in: 1...86_400)
        let scenario = Option<RunScenario>.choice(
            "--scenario", RunScenario.all.map(\.name), "the conditions", default: "default",
            make: { try? RunScenario.named($0) })
        let governor = Option<RunOptions.Governance>.choice(
            "--governor",
            "adapt the pipeline to pressure and to its own missed frame deadlines (on), to"
                + " pressure only, or not at all", default: .full)
        let compare = Option<Bool>.flag(
            "--compare", "run with the governor on, then off, and compare")
        let clock = Option<RunTiming>.choice(
            "--clock",
            "play the run on real time, or on virtual time: as fast as the machine goes, the"
                + " same report on any machine (the scene, or a video file)", default: .real)
        let seed = Option<Int>.integer(
            "--seed", "N", "seed of the synthetic scene", in: 0...Int(Int32.max), default: 1)
        let session = Option<String?>.path(
            "--session", "FILE", "capture session JSON (default: one 960x540@30 camera)")
        let profile = SessionInput.profileOption
        let policy = Option<String?>.path("--policy", "FILE", "governor policy JSON")
        let record = Option<Destination?>.output(
            "--record", "PATH", "record the frames as a Y4M movie to PATH")
        let trace = Option<String?>.path(
            "--trace", "FILE",
            "pressure from a recorded trace, replayed in time (the same levels on any machine)")
        let recordPressure = Option<Destination?>.output(
            "--record-pressure", "FILE", "write the pressure samples the run took as a trace")
        let storage = StorageCommand.storageOption
        let source = Option<String?>.path(
            "--source", "FILE|-|v4l2:DEVICE", "real video instead of the synthetic scene")
        let pace = Option<VideoPacing>.choice(
            "--pace", [VideoPacing.file, .max].map(\.rawValue),
            "take video frames at the video's rate (file) or as fast as they go (max)",
            default: VideoPacing.file.rawValue, make: { VideoPacing(rawValue: $0) }
        ).within("--source")
        let gt = Option<String?>.path(
            "--gt", "FILE", "MOTChallenge ground truth for --source, by video frame"
        ).within("--source")
        let detector = Option<DetectorKind?>.choice(
            "--detector",
            "the detector (default: person-ssd with --source where its model is installed,"
                + " else hog; blob for the scene)")
        let scene = SceneCommand.styleOption
        let annotate = Option<Destination?>.output(
            "--annotate", "FILE.mp4", "write the annotated frames as a video")
        let out = Option<Destination?>.output(
            "--out", "DIR", "where to write the reports (default runs/<time>)", .directory)
        let db = Option<String?>.path("--db", "PATH", "the history database")
        let serve = Option<String?>.text(
            "--serve", "ADDR",
            "serve /metrics, /healthz, /status and API v1 on HOST:PORT while running: other"
                + " pipelines register and share the host's budget with the run")
        let priority = Option<Int>.integer(
            "--priority", "N", "the run's priority among the host's pipelines",
            in: 0...100, default: 50
        ).within("--serve")
        let tokenFile = ServiceAccess.tokenFileOption.within("--serve")
        let json = Option<Bool>.flag("--json", "print the summary as JSON (no live display)")
    }

    /// The files a run's report went to, what it saw went to, and whether they went somewhere
    /// else than asked.
    private struct WrittenReports {
        var paths: [String]
        var trackingFiles: [String]
        var isMoved: Bool
    }

    /// Writes `summary`'s reports into `directory`; when that fails after the run (the disk
    /// filled, the directory went away), writes them and what the run saw (`detections.txt`,
    /// `tracks.txt`, which `run` wrote into `directory` or failed to) into a new directory
    /// under the temporary directory instead, saying so on stderr: a finished run's results
    /// are never lost, and a file that reaches nowhere is named in the report's notes.
    private static func writeReports(
        _ summary: RunSummary, of run: PipelineRun, to directory: String
    ) async -> WrittenReports {
        do {
            return WrittenReports(
                paths: try RunReport.write(summary, to: directory),
                trackingFiles: summary.trackingFiles, isMoved: false)
        } catch {
            Console.error("headroom run: the report could not go into \(directory): \(error)")
        }
        var template = Array(
            (FileManager.default.temporaryDirectory.path + "/headroom-run-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            Console.error("headroom run: nor into a temporary directory; the run is in the history")
            return WrittenReports(paths: [], trackingFiles: [], isMoved: true)
        }
        let fallback = String(cString: made)
        var moved = summary
        let records = await run.writeRecords(into: fallback)
        moved.trackingFiles = records.paths
        moved.notes += records.notes
        moved.notes.append(
            "the report could not go into \(directory): it and what the run saw went into"
                + " \(fallback) instead")
        do {
            let paths = try RunReport.write(moved, to: fallback)
            Console.error("headroom run: the report went into \(fallback) instead")
            return WrittenReports(paths: paths, trackingFiles: records.paths, isMoved: true)
        } catch {
            Console.error("headroom run: nor into \(fallback): \(error); the run is in the history")
            return WrittenReports(paths: [], trackingFiles: records.paths, isMoved: true)
        }
    }

    /// The run's options from the command line, every rule between options checked here, and
    /// the inputs of its first pass: the video (opened, so that the session takes its size
    /// and rate) and the neural detector's model (found and checked before anything starts).
    private static func runOptions(_ arguments: Parsed<Options>) throws -> (
        RunOptions, RunInputs
    ) {
        try arguments.expectNoPositionals()
        if arguments[\.compare] {
            for option in [\Options.record, \.annotate] where arguments.isGiven(option) {
                throw UsageError(
                    description: "\(arguments.name(option)): one per run, not with --compare")
            }
            if let source = arguments[\.source], case .file = VideoInput(argument: source) {
            } else if arguments.isGiven(\.source) {
                throw UsageError(
                    description:
                        "--source: --compare plays the video twice: a file, not a stream or camera")
            }
        }
        if arguments[\.serve] == nil {
            if arguments.isGiven(\.priority) || arguments.isGiven(\.tokenFile) {
                let option = arguments.isGiven(\.priority) ? "--priority" : "--token-file"
                throw UsageError(
                    description: "\(option): applies to --serve's API; give --serve too")
            }
        }
        let clock = arguments[\.clock]
        if clock == .virtual, let source = arguments[\.source] {
            if case .camera = VideoInput(argument: source) {
                throw UsageError(
                    description: "--clock virtual: a camera is live; it runs on real time")
            }
            if arguments.isGiven(\.pace) {
                throw UsageError(
                    description:
                        "--pace: on virtual time the video plays frame by frame at its own rate")
            }
        }
        if arguments[\.source] == nil, arguments[\.gt] != nil || arguments.isGiven(\.pace) {
            throw UsageError(description: "--gt and --pace apply to --source only")
        }
        var options = RunOptions(
            duration: arguments[\.seconds], scenario: arguments[\.scenario],
            source: .scene(seed: UInt64(arguments[\.seed]), style: arguments[\.scene]),
            governance: arguments[\.governor])
        options.timing = clock
        options.priority = arguments[\.priority]
        options.catalog = .forThisUser
        if let session = arguments[\.session] {
            let input = try SessionInput(path: session, profileOverride: arguments[\.profile])
            options.configuration = input.configuration
            options.profile = input.profile
        } else if let profile = arguments[\.profile] {
            options.profile = try SessionInput.profile(profile, override: true, file: nil)
            options.configuration.profile = profile
        }
        if let policy = arguments[\.policy] {
            options.policy = try GovernorPolicy.load(from: policy)
        }
        options.outputs.storageDirectory = arguments[\.storage] ?? StorageCommand.defaultDirectory
        var inputs = RunInputs()
        if let source = arguments[\.source] {
            // On virtual time every frame, each at its time in the video: the same run anywhere.
            let video = try VideoFrameSource(
                input: VideoInput(argument: source),
                pacing: clock == .virtual ? .frameByFrame : arguments[\.pace])
            options.useVideo(
                video, groundTruth: try arguments[\.gt].map(MOTInput.readIdentities) ?? [],
                detector: arguments[\.detector]
                    ?? .forVideo(environment: ProcessFacts.environment),
                keepsDuration: arguments[\.seconds] != nil,
                keepsSession: arguments[\.session] != nil, keepsPolicy: arguments[\.policy] != nil)
            inputs.video = video
        } else {
            options.choose(arguments[\.detector] ?? .blob, keepsPolicy: true)
        }
        if arguments[\.record] != nil { options.addMovieOutput() }
        if options.detector == .personSSD { inputs.personModel = try PersonModelInput.installed() }
        return (options, inputs)
    }

    /// Binds a server of `run`'s metrics and its host service (API v1) at `address`, if given,
    /// and the address it serves on (announced by the caller once signals are watched).
    private static func serve(
        _ run: PipelineRun, at address: String?, token: BearerToken?
    ) throws -> (server: HostServer, address: String)? {
        guard let address else { return nil }
        let listen: ListenAddress
        do throws(HTTPServerError) {
            listen = try ListenAddress(parsing: address)
        } catch {
            throw UsageError(description: "--serve: \(error.description)")
        }
        let server = HostServer(
            service: run.service, metrics: run.metrics, exported: run.exportedPressure,
            listeners: [HTTPServerConfiguration(listen: listen)], token: token)
        let served = ServiceAccess.address(listen, port: try server.bind())
        ServiceAccess.noteReach(of: listen, at: served, token: token, command: "headroom run")
        return (server, served)
    }

    /// The figures stored with the run in the history.
    private static func historyFigures(_ summary: RunSummary) -> [String: Double] {
        var figures: [String: Double] = [
            "framesProcessed": Double(summary.framesProcessed),
            "trackCount": Double(summary.trackCount),
            "framesDropped": Double(summary.framesDropped),
            "governorChanges": Double(summary.governorChangeCount),
            "secondsAtSeriousOrWorse": summary.timeAtSeriousOrWorse.seconds,
            "worstLevel": Double(summary.worstLevel.rawValue),
        ]
        if let peak = summary.peakTemperature { figures["peakTemperatureCelsius"] = peak }
        if let quality = summary.quality {
            figures["idf1"] = quality.idf1
            figures["mota"] = quality.mota
            figures["hota"] = quality.hota
            figures["meanFramingError"] = summary.meanFramingError
        }
        return figures
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        var text = [CChar](repeating: 0, count: 32)
        gmtime_r(&now, &parts)
        let length = strftime(&text, text.count, "%Y%m%d-%H%M%S", &parts)
        return String(decoding: text[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Any encodable value, so one `--json` path prints one summary or several.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
