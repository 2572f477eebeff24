import Capture
import Dock
import Files
import FoundationEssentials
import Governor
import HostServer
import HostService
import LaunchTiming
import Lifecycle
import Locking
import Pressure
import Storage
import Telemetry
import Tracking
import Units

/// One run of the main job (see the module overview). Create it, then `await run(progress:)`.
public final class PipelineRun: Sendable {
    /// The session `headroom run` uses unless given one: a 960×540 camera at 30 fps feeding a
    /// preview and the tracker, and a deferred photo output.
    public static let defaultSession = SessionConfiguration(
        profile: DeviceProfile.genericDesktop.name,
        cameras: [
            CameraConfiguration(
                id: "stand", format: CameraFormat(width: 960, height: 540, maxFrameRate: 30))
        ],
        outputs: [
            CaptureOutput(kind: .preview), CaptureOutput(kind: .videoData),
            CaptureOutput(kind: .photo, isDeferredStartEnabled: true),
        ])

    /// The options.
    public let options: RunOptions
    /// What the run reads from: its video, a pressure replay, the model.
    public let inputs: RunInputs
    /// The launch timeline every phase is marked on.
    public let timeline: LaunchTimeline
    /// The metrics the run publishes as it goes (serve them with an `HTTPServer` whose
    /// endpoint's status is ``exportedPressure``'s `current`: the pressure metrics are
    /// published when read).
    public let metrics: HeadroomMetrics
    /// The run's pressure readings for `/metrics` and `/status`, published into ``metrics``
    /// when read.
    public let exportedPressure: ExportedPressure
    /// The host service of the run: its governor decides for the run's pipeline, one client
    /// of it like any other (``GovernedPipeline``), and serving it (`ServiceRoutes`, as
    /// `run --serve` does) lets other pipelines on the host share the budget with the run. Its
    /// time is the run's clock.
    public let service: HostService
    /// The run's clock, made for it.
    private let clock: any RunClock

    /// The time between progress samples (and the unit of time-at-level figures).
    static let samplePeriod = Duration.milliseconds(500)
    /// The most samples a summary keeps: twenty minutes of them at full resolution; a longer
    /// run's are thinned evenly (``ThinnedSeries``).
    static let keptSamples = 2400
    /// The most governor changes a summary lists (the latest; all are counted).
    static let keptChanges = 1000

    private let state: LockedState<RunState>
    /// The samples the pressure source gave, kept for ``pressureTrace`` when asked.
    private let recordedPressure = LockedState<RecordingSampleSource?>(nil)
    /// What the run saw, kept when it has a report directory.
    private let records: RunRecords?

    /// A run with `options`, reading from `inputs` (``RunOptions/validate(with:)`` checks them
    /// when it runs), marking its phases on `timeline`.
    ///
    /// - Throws: `MetricError` when the built-in metric definitions are unusable (a
    ///   programming error caught at the first run).
    public init(
        options: RunOptions, inputs: RunInputs = RunInputs(),
        timeline: LaunchTimeline = LaunchTimeline()
    ) throws {
        self.options = options
        self.inputs = inputs
        self.timeline = timeline
        records = options.outputs.reportDirectory.map { _ in RunRecords() }
        metrics = try HeadroomMetrics()
        exportedPressure = ExportedPressure(metrics: metrics)
        let clock = options.timing.makeClock()
        self.clock = clock
        service = HostService(
            configuration: HostGovernorConfiguration(
                policy: options.policy, lease: options.lease,
                processorCount: ProcessInfo.processInfo.activeProcessorCount),
            clock: clock, catalog: options.catalog, metrics: metrics)
        state = LockedState(RunState())
    }

    /// The inference setting a run starts at: the policy ladder's heaviest.
    private static func heaviest(_ options: RunOptions) -> InferenceSetting {
        options.policy.inferenceLadder.first ?? InferenceSetting(stride: 1, scale: 1)
    }

    /// Runs for ``RunOptions/duration`` (or until cancelled, or until a given pressure source
    /// runs out, or a video ends), calling `progress` with a sample every half second of the
    /// run's clock, and returns the summary.
    ///
    /// The run is a group of services on one clock (a `ServiceGroup`): capture
    /// (``CaptureService``: the session's camera loop, the frame loop in it, ``FrameLoop``),
    /// the pressure observer (`PressureObserver`, as `serve`'s) whose readings go to the
    /// governor (``RunGovernance``), the progress sampler (``ProgressSampler``), the stand's motors, the
    /// run's timer and, for a video, its end, the `extra` services given (`run --serve`'s
    /// HTTP server, which ends with the run), and the writers of the recording and the
    /// annotated video (``MovieRecorder``, ``AnnotationWriter``: threads of their own, stopped
    /// once the rest have returned, so they write every frame given them). The first to end
    /// the run — a failure, or cancellation (SIGINT or SIGTERM in `headroom run`) — stops the
    /// others; the writers finish whatever happened, and the summary covers what ran
    /// (marked ``RunSummary/wasInterrupted`` when cancelled, with ``RunSummary/failure``
    /// when a service failed).
    ///
    /// A failure once the run has started — capture that cannot start or stops, a video that
    /// cannot be read — ends the run: the summary then says why (``RunSummary/failure``).
    ///
    /// - Throws: ``SessionOverBudgetError`` when the session does not fit its profile,
    ///   ``ConfigurationError`` for an invalid session, or ``StorageError`` when the movie
    ///   output cannot record (a busy or empty reserve): the run has not started.
    public func run(
        progress: @escaping @Sendable (RunSample) -> Void = { _ in },
        alongside extra: [Service] = []
    ) async throws -> RunSummary {
        timeline.mark(.appInit)
        let configuration = options.configuration
        try options.validate(with: inputs)
        let camera = configuration.cameras[0]
        let clock = self.clock
        // Holds a virtual clock still while the run is set up.
        let setup = clock.enroll()
        var hasLeftSetup = false
        defer { if !hasLeftSetup { setup.leave() } }
        let estimator = HardwareCostEstimator(profile: options.profile)
        let pose = CameraPose()
        let footage = footage(camera: camera, pose: pose)
        // Closed in the teardown, off the pool; here only when the run fails before it.
        defer { inputs.video?.close() }
        let session = CaptureSession(
            configuration: configuration, estimator: estimator, frameSource: footage.frameSource,
            timeline: timeline, clock: clock)
        session.beginConfiguration()
        let estimate = try session.commitConfiguration()
        metrics.publishHardwareCost(estimate.hardwareCost.fraction)
        let stand = try SimulatedStand(motors: StandMotors(camera: pose))
        await stand.setSystemTracking(false)

        let start = clock.now
        let costModel = SystemPressureCost(estimator: estimator, configuration: configuration)
        // Governed, the run's pipeline is one client of the host governor; ungoverned, it
        // takes no part (and the host's other clients share what is left without it).
        let pipeline =
            options.governance == .off
            ? nil
            : try GovernedPipeline(
                service: service, costModel: costModel,
                qualityTable: options.qualityTable, rungQuality: options.rungQuality,
                requestedFrameRate: options.trackedFrameRate, priority: options.priority)
        defer {
            pipeline?.leave()
            service.close()
        }
        let settings =
            pipeline.map(RunSettings.governed)
            ?? .fixed(
                PipelineSettings(
                    frameRate: options.trackedFrameRate, inference: Self.heaviest(options)))
        let pressure = pressureSource(start: start, settings: settings)
        let recorder = try startRecording(camera: camera)
        let annotator = try options.outputs.annotation.map {
            try AnnotationWriter(
                path: $0, width: camera.format.width, height: camera.format.height,
                frameRate: camera.frameRate,
                stillsDirectory: options.outputs.reportDirectory
                    ?? URL(fileURLWithPath: $0).deletingLastPathComponent().path)
        }
        let frames = FrameLoop(
            stage: try TrackingStage(
                inference: Self.heaviest(options), frameRate: options.trackedFrameRate,
                detector: options.detector, personModel: inputs.personModel, records: records),
            state: state, settings: settings.current,
            latenessReceiver: options.governance == .full ? pipeline : nil, footage: footage,
            stand: stand, clock: clock, recorder: recorder,
            annotator: annotator, metrics: metrics, videoFrameRate: inputs.video?.frameRate,
            trackedFrameRate: options.trackedFrameRate)
        session.consumeVideoFrames(with: frames.consume)
        let capture = CaptureService(session: session)
        let services =
            services(
                clock: clock, start: start, capture: capture, frames: frames, stand: stand,
                pressure: pressure, pipeline: pipeline, settings: settings,
                costModel: costModel, recorder: recorder, progress: progress) + extra
            + [recorder?.service, annotator?.service].compactMap { $0 }

        // The run's time ends with the video, in the thread that finds its end: on virtual
        // time nothing happens after that instant, however late the group hears of it.
        inputs.video?.whenFinished { clock.halt() }
        var end = ServiceGroup.End.cancelled
        var failure: (any Error)?
        do {
            try capture.start()
            hasLeftSetup = true
            end = try await ServiceGroup(services, on: clock).run(setup: setup)
        } catch {
            failure = error
        }
        // Teardown, in one place, however the services ended (capture has stopped with them).
        var elapsed = clock.now.duration(since: start)
        // On virtual time a video's run lasts until its last frame: the clock halts where the
        // next frame was due, one frame interval later.
        if options.timing == .virtual, options.playsVideo,
            let last = state.withLock({ $0.lastFrameTime })
        {
            elapsed = last.duration(since: start)
        }
        // Closing waits for ffmpeg to end (up to two seconds) and for the reader thread.
        if let video = inputs.video { await BlockingWork.run { video.close() } }
        session.consumeVideoFrames(with: nil)
        let recording = await recorder?.finish()
        let annotation = await annotator?.finish()

        var result = summary(
            estimate: estimate, stage: frames.trackingStage, isSimulated: pressure.isSimulated,
            notes: pressure.notes)
        result.recording = recording
        result.annotation = annotation
        result.notes += endNotes(
            recording: recording, annotation: annotation, stand: await stand.refusedCommands)
        if let directory = options.outputs.reportDirectory {
            let written = await writeRecords(into: directory)
            result.trackingFiles = written.paths
            result.notes += written.notes
        }
        let truthFrames = options.groundTruth.map(\.frame)
        if result.quality == nil, let first = truthFrames.min(), let last = truthFrames.max() {
            result.notes.append(
                "the ground truth scored nothing: its frames \(first)–\(last) are not among the"
                    + " \(inputs.video?.framesRead ?? 0) frames read from the video")
        }
        // A run that ended early (stopped, or its pressure source ran out) reports what ran.
        result.duration = min(elapsed, options.duration)
        if let failure {
            // A failure (capture stopped, say) ends the run; its report says why.
            result.failure = String(describing: failure)
            result.notes.append(
                "the run failed after \(result.duration.seconds.fixed(1)) s: \(failure); the figures cover what ran"
            )
        } else if end == .cancelled {
            result.wasInterrupted = true
            // A video played to its end has no length of its own here: only the time it ran.
            let planned =
                options.duration == RunOptions.videoDuration
                ? "" : " of \(options.duration.seconds.trimmed()) s"
            result.notes.append(
                "interrupted after \(result.duration.seconds.fixed(1)) s\(planned); the figures"
                    + " cover what ran")
        }
        for phase in result.launch.phases where phase.isComplete {
            metrics.recordLaunchPhase(phase.name, seconds: phase.duration.seconds)
        }
        return result
    }

    /// The run's services, in the order a virtual clock runs those due at the same instant.
    private func services(
        clock: any RunClock, start: MonotonicInstant, capture: CaptureService,
        frames: FrameLoop, stand: SimulatedStand, pressure: RunPressure,
        pipeline: GovernedPipeline?,
        settings: RunSettings, costModel: SystemPressureCost, recorder: MovieRecorder?,
        progress: @escaping @Sendable (RunSample) -> Void
    ) -> [Service] {
        let observer = PressureObserver(
            source: pressure.source, interval: options.pressureInterval, clock: clock,
            triggers: pressure.triggers)
        let governance = RunGovernance(
            service: service, pipeline: pipeline, capture: capture, frames: frames,
            video: inputs.video,
            state: state, metrics: metrics, exported: exportedPressure, start: start)
        let sampler = ProgressSampler(
            state: state, settings: settings, costModel: costModel, recorder: recorder,
            metrics: metrics, clock: clock, start: start, progress: progress)
        let end = start.advanced(by: options.duration)
        var services = [
            // Waits on its cameras, which are on the clock themselves, and on the governor.
            Service("capture", ending: .runsUntilCancelled, isOnClock: false) {
                try await capture.run()
            },
            // Ends when its source runs out (a replayed trace).
            Service("pressure", ending: .endsGroup) {
                await observer.run(onReading: governance.take, settle: governance.settle)
            },
            Service("stand", ending: .runsUntilCancelled) { try await stand.run(clock: clock) },
            Service("progress", ending: .runsUntilCancelled) { try await sampler.run() },
            Service("timer", ending: .endsGroup) { try await clock.sleep(until: end) },
        ]
        if let video = inputs.video {
            services.append(
                Service("video's end", ending: .endsGroup, isOnClock: false) {
                    await video.waitUntilFinished()
                })
        }
        return services
    }

    /// What the user should know of how the outputs and the footage ended.
    private func endNotes(
        recording: RecordingReport?, annotation: AnnotationReport?, stand: RefusedCommands
    ) -> [String] {
        let (captureFailures, commands) = state.withLock {
            ($0.captureFailures, $0.refusedMotorCommands)
        }
        let refused = commands + stand
        var notes = captureFailures
        if let reason = refused.firstReason {
            notes.append(
                "the stand refused \(refused.count) motor command(s), the first because \(reason)")
        }
        if let recording, recording.endReason != .finished {
            notes.append(
                "the recording ended early (\(recording.endReason.rawValue)): "
                    + "\(recording.problem ?? "") — \(recording.path) holds its \(recording.frames) whole frames"
            )
        }
        if let problem = annotation?.problem {
            notes.append("the annotated video was not written: \(problem)")
        }
        if let problem = inputs.video?.problem {
            notes.append(
                "the video was not read to its end: \(problem); the figures cover the frames before it"
            )
        }
        return notes
    }

    /// The run's pixels: the given video, or the synthetic scene seen from `pose`.
    private func footage(camera: CameraConfiguration, pose: CameraPose) -> Footage {
        var scene = SyntheticScene.Configuration()
        switch (options.source, inputs.video) {
        case (.video(_, _, let truth), let video?):
            return .video(video, groundTruth: truth)
        case (.scene(let seed, let style), _):
            scene.seed = seed
            scene.style = style
        case (.video, nil):
            // Refused by validate(with:) before the run starts.
            preconditionFailure("a video run without its video")
        }
        return .scene(
            SceneFrameSource(
                scene: scene, width: camera.format.width, height: camera.format.height,
                pose: pose))
    }

    /// Starts the session's movie output, if it has one and a destination was given.
    private func startRecording(camera: CameraConfiguration) throws -> MovieRecorder? {
        guard let destination = options.outputs.recording,
            let index = options.configuration.outputs.firstIndex(where: { $0.kind == .movie })
        else { return nil }
        let output = options.configuration.outputs[index]
        guard output.camera == nil || output.camera == camera.id else {
            throw ConfigurationError(
                path: "outputs[\(index)].camera",
                problem:
                    "run records the tracked camera \"\(camera.id)\" (the first); got \"\(output.camera ?? "")\""
            )
        }
        return try MovieRecorder(
            output: output, camera: camera, destination: destination,
            storageDirectory: options.outputs.storageDirectory, metrics: metrics)
    }

    /// Writes what the run saw (`detections.txt`, `tracks.txt`) into `directory`: the run's
    /// report directory at its end, or where its report goes when that directory failed (a
    /// full disk), so that nothing it promised is lost. Returns the paths written and a note
    /// for each file that was not; nothing without a report directory.
    public func writeRecords(into directory: String) async -> (paths: [String], notes: [String]) {
        guard let records else { return ([], []) }
        return await BlockingWork.run { records.write(into: directory) }
    }

    /// The pressure samples the run took (its sensors or model, or the given source), as a
    /// trace that `--trace` replays; empty unless ``RunOptions/Outputs/recordsPressure``.
    public var pressureTrace: PressureTrace {
        recordedPressure.withLock { $0?.trace } ?? PressureTrace(samples: [])
    }

    // MARK: - Pressure

    /// Where the run's pressure comes from: the given source (a trace); on real time, the
    /// host's sensors, unless the scenario simulates or the host has none; otherwise the
    /// scenario's thermal model (labelled simulated), heated by the pipeline's modelled work —
    /// with the host's PSI and throttling on real time, alone on virtual time.
    ///
    /// On real time with the host's PSI, the observer also samples at once when a PSI trigger
    /// fires (as `serve`'s does); where triggers cannot be armed, a note says why.
    private func pressureSource(start: MonotonicInstant, settings: RunSettings) -> RunPressure {
        var chosen: RunPressure
        if let given = inputs.pressureSource {
            chosen = RunPressure(
                source: given, isSimulated: true,
                notes: ["pressure comes from a given source, not this host"])
        } else {
            let (source, isSimulated, notes) = modelledPressure(start: start, settings: settings)
            chosen = RunPressure(source: source, isSimulated: isSimulated, notes: notes)
            if options.timing == .real {
                switch PSITrigger.arm(for: PressureClassifier().configuration) {
                case .success(let triggers): chosen.triggers = triggers
                case .failure(let reason):
                    chosen.notes.append("PSI triggers are not armed (\(reason)): sampling alone")
                }
            }
        }
        if options.outputs.recordsPressure {
            let recorded = RecordingSampleSource(chosen.source)
            recordedPressure.withLock { $0 = recorded }
            chosen.source = recorded
        }
        return chosen
    }

    /// Where a run's pressure comes from, and what the report says of it.
    private struct RunPressure {
        var source: any SampleSource
        /// Whether the temperatures are not this host's.
        var isSimulated: Bool
        var notes: [String]
        /// The PSI triggers the observer also wakes on (real time, the host's PSI).
        var triggers: [PSITrigger] = []
    }

    /// The host's sensors, or the scenario's thermal model (see
    /// ``pressureSource(start:settings:)``).
    private func modelledPressure(start: MonotonicInstant, settings: RunSettings)
        -> (source: any SampleSource, isSimulated: Bool, notes: [String])
    {
        let scenario = options.scenario
        // A video runs until it ends (its length unknown, within a day): its room follows the
        // scenario's own length, as the scene's does, unless --seconds says otherwise.
        let duration =
            !options.playsVideo || options.duration < RunOptions.videoDuration
            ? options.duration : scenario.defaultDuration
        var system = PressureSampler.system()
        var why = "scenario \(scenario.name) simulates the machine's temperature"
        if options.timing == .virtual {
            system = PressureSampler(temperatureSources: [])
            why = "the run is on virtual time"
        } else {
            let hasSensors =
                system.sample(at: start)?.sensors.contains {
                    $0.isTemperature && $0.celsius != nil && !$0.isStale
                } ?? false
            if hasSensors && !scenario.alwaysSimulates { return (system, false, []) }
            if !hasSensors { why = "no thermal sensors on this host" }
        }
        let model = ThermalModel(
            ambient: scenario.ambient(at: .zero, runDuration: duration),
            riseAtFullLoad: scenario.riseAtFullLoad,
            timeConstant: scenario.timeConstant)
        let full = PipelineSettings(
            frameRate: options.trackedFrameRate, inference: Self.heaviest(options))
        let load = ModelledLoad(full: full) { settings.current }
        system.temperatureSources = [
            ThermalModelSource(
                model: model, load: load, high: Celsius(scenario.high),
                critical: Celsius(scenario.critical),
                ambient: { time in
                    let instant = MonotonicInstant(secondsSinceOrigin: time)
                    return scenario.ambient(
                        at: instant.duration(since: start), runDuration: duration)
                })
        ]
        return (
            system, true,
            [
                "\(why): temperatures come from a thermal model (SIMULATED) heated by the pipeline's modelled work at its current settings"
            ]
        )
    }

    // MARK: - Summary

    /// `scene seed 1 (two-tone)` or the video's input.
    private var sourceDescription: String {
        switch options.source {
        case .video(let input, _, _): "\(input)"
        case .scene(let seed, let style): "scene seed \(seed) (\(style.rawValue))"
        }
    }

    /// The run's summary from `stage` and the run's state. The tracking quality is computed
    /// outside the state's lock.
    private func summary(
        estimate: HardwareCostEstimate, stage: TrackingStage, isSimulated: Bool, notes: [String]
    ) -> RunSummary {
        let state = self.state.withLock { $0 }
        return RunSummary(
            scenario: options.scenario.name, governance: options.governance,
            seed: options.seed ?? 0,
            duration: options.duration, hardwareCost: estimate.hardwareCost.fraction,
            profile: options.profile.name,
            isSimulated: isSimulated, peakTemperature: state.extremes.peakTemperature,
            worstLevel: state.extremes.worstLevel,
            timeAtSeriousOrWorse: Self.samplePeriod * state.extremes.samplesAtSeriousOrWorse,
            framesProcessed: stage.framesProcessed,
            framesDropped: state.framesDropped,
            detectorCalls: stage.detectorCalls,
            networkCalls: stage.follower.detector.networkCalls, rungs: stage.rungs,
            source: sourceDescription,
            detector: options.detector, quality: stage.quality(), trackCount: stage.trackCount,
            tracksStartedPerMinute: stage.seconds > 0
                ? Double(stage.trackCount) / stage.seconds * 60 : 0,
            meanFramingError: stage.meanFramingError,
            governorChanges: state.changes, governorChangeCount: state.changeCount,
            samples: state.samples.values, timing: options.timing,
            launch: timeline.report(
                label: "run", metadata: ["scenario": options.scenario.name]),
            notes: notes + [stage.follower.detector.problem].compactMap { $0 })
    }
}
