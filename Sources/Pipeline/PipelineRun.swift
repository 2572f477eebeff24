import Capture
import Dock
import Files
import Foundation
import Governor
import LaunchTiming
import Locking
import Pressure
import Storage
import Telemetry
import Tracking

/// The options of one run of the main job.
public struct RunOptions: Sendable {
    /// How long to run, seconds.
    public var seconds: Double
    /// The conditions played.
    public var scenario: RunScenario
    /// The seed of the synthetic scene.
    public var seed: UInt64
    /// Whether the governor adapts the pipeline (off: settings stay as requested).
    public var isGovernorEnabled: Bool
    /// The capture session; its first camera feeds the tracking pipeline.
    public var configuration: SessionConfiguration
    /// The device profile the session is priced on.
    public var profile: DeviceProfile
    /// The governor's policy.
    public var policy: GovernorPolicy
    /// Whether the governor also sheds load when the pipeline misses its frame deadlines (a
    /// busy host); off, it follows pressure only, so a run's settings do not depend on how
    /// fast this machine is (tests, deterministic demos).
    public var shedsForLateness = true
    /// The tracking quality table the governor consults.
    public var qualityTable: QualityTable
    /// Seconds between pressure readings.
    public var pressureInterval: Double
    /// The thermal model's load reference (process CPU share at full settings); `nil` measures it.
    public var loadReference: Double?
    /// Where pressure samples come from instead of the host and the scenario's model: a
    /// recorded trace, or a test's fixture. Its times are seconds on the monotonic clock; the
    /// run ends early when it runs out (returns `nil`).
    public var pressureSource: (any SampleSource)?
    /// Whether the run keeps every pressure sample it takes, for ``PipelineRun/pressureTrace``
    /// (`--record-pressure`); off, a long run does not grow with them.
    public var recordsPressure = false
    /// Where the session's movie output records (a Y4M file); `nil` records nothing.
    public var recordingDestination: String?
    /// Real video instead of the synthetic scene (`--source`); `nil` renders the scene. The
    /// session's first camera should have the video's size and frame rate.
    public var video: VideoFrameSource?
    /// Ground truth for ``video``: MOTChallenge records numbered by video frame (1 = first).
    public var videoGroundTruth: [MOTRecord] = []
    /// The detector the pipeline runs.
    public var detector: DetectorKind = .blob
    /// How the synthetic scene's people look.
    public var sceneStyle: SceneStyle = .twoTone
    /// Where to write the annotated video (`--annotate`); `nil` writes none. Its stills go
    /// into ``reportDirectory``.
    public var annotationDestination: String?
    /// Where the run's reports go (the annotated stills are written there).
    public var reportDirectory = "."
    /// The pro video storage reserve a movie output with `usesProVideoStorage` records into.
    public var storageDirectory = StorageReserve.defaultDirectory(
        environment: ProcessInfo.processInfo.environment)

    /// The frame rate of the tracked camera (the session's first), frames per second: what
    /// the pipeline starts at and what the governor's frame-rate cap is applied below.
    public var trackedFrameRate: Double { configuration.cameras.first?.frameRate ?? 30 }

    /// Options with the defaults of `headroom run`.
    public init(
        seconds: Double? = nil, scenario: RunScenario = .standard, seed: UInt64 = 1,
        isGovernorEnabled: Bool = true,
        configuration: SessionConfiguration = PipelineRun.defaultSession,
        profile: DeviceProfile = .genericDesktop, policy: GovernorPolicy = GovernorPolicy(),
        qualityTable: QualityTable = .standard, pressureInterval: Double = 0.5,
        loadReference: Double? = nil
    ) {
        self.seconds = seconds ?? scenario.defaultSeconds
        self.scenario = scenario
        self.seed = seed
        self.isGovernorEnabled = isGovernorEnabled
        self.configuration = configuration
        self.profile = profile
        self.policy = policy
        self.qualityTable = qualityTable
        self.pressureInterval = pressureInterval
        self.loadReference = loadReference
    }
}

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
    /// The launch timeline every phase is marked on.
    public let timeline: LaunchTimeline
    /// The metrics the run publishes as it goes (serve them with an `HTTPServer`).
    public let metrics: HeadroomMetrics

    /// Seconds between progress samples (and the unit of time-at-level figures).
    static let samplePeriod = 0.5
    /// Seconds of footage between refreshes of the live recent-identity figure.
    static let recentIdentityPeriod = 2.0
    /// The most samples a summary keeps: twenty minutes of them at full resolution; a longer
    /// run's are thinned evenly (``ThinnedSeries``).
    static let keptSamples = 2400
    /// The most governor changes a summary lists (the latest; all are counted).
    static let keptChanges = 1000

    /// Mutable state shared by the run's tasks. The tracking stage is not in it while frames
    /// flow: the frame loop owns it then, so the detector and tracker never run under the lock.
    private struct State {
        var settings: PipelineSettings
        /// The tracking stage, while the frame loop is not running (before and after it).
        var stage: TrackingStage?
        /// Frames processed and detector runs so far, published by the frame loop.
        var framesProcessed = 0
        var detectorCalls = 0
        var reading: PressureReading?
        var samples = ThinnedSeries<RunSample>(capacity: PipelineRun.keptSamples)
        /// The latest sample (kept or thinned out).
        var lastSample: RunSample?
        var extremes = PressureExtremes()
        /// The latest governor changes, and how many there were in all.
        var changes: [GovernorChange] = []
        var changeCount = 0
        var captureRun = 0
        var framesDropped = 0
        var lastFrameNumber: Int?
        var lastFrameTime: MonotonicInstant?
        var subjects = 0
        var periodFrames = 0
        /// Frames of this period whose processing ended after the next frame was due.
        var periodLateFrames = 0
        var periodFramingError = 0.0
        /// IDF1 over the last 30 s, as the frame loop last computed it.
        var recentIDF1: Double?
        /// The share of the last period's frames that missed their deadline (processed late
        /// or dropped): the pipeline's own lateness, which the governor sheds load for.
        var lateShare = 0.0
        var statusDocument: DeferredText?
        /// The samples the observer took, for ``PipelineRun/pressureTrace``.
        var pressure: RecordingSampleSource?
    }

    private let state: LockedState<State>
    /// Signalled when the governor restarts capture it had stopped; the frame loop waits on it.
    private let captureResumedStream: AsyncStream<Void>
    private let captureResumed: AsyncStream<Void>.Continuation

    /// A run with `options`, marking its phases on `timeline`.
    ///
    /// - Throws: `TrackerConfigurationError` or `MetricError` when the built-in tracker or
    ///   metric definitions are unusable (a programming error caught at the first run).
    public init(options: RunOptions, timeline: LaunchTimeline = LaunchTimeline()) throws {
        self.options = options
        self.timeline = timeline
        metrics = try HeadroomMetrics()
        let frameRate = options.trackedFrameRate
        let heaviest = options.policy.inferenceLadder.first ?? InferenceSetting(stride: 1, scale: 1)
        (captureResumedStream, captureResumed) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state = LockedState(
            State(
                settings: PipelineSettings(frameRate: frameRate, inference: heaviest),
                stage: try TrackingStage(
                    inference: heaviest, framesPerSecond: frameRate, detector: options.detector)))
    }

    /// Runs for ``RunOptions/seconds`` (or until cancelled, or until a given pressure source
    /// runs out), calling `progress` with a sample every half second, and returns the summary.
    ///
    /// Cancelling the task (SIGINT or SIGTERM in `headroom run`) ends the run early but still
    /// returns its summary, covering what ran and marked ``RunSummary/wasInterrupted``.
    ///
    /// - Throws: ``SessionOverBudgetError`` when the session does not fit its profile,
    ///   ``ConfigurationError`` for an invalid session, ``StorageError`` when the movie output
    ///   cannot record (a busy or empty reserve), or a capture error.
    public func run(progress: @escaping @Sendable (RunSample) -> Void = { _ in }) async throws
        -> RunSummary
    {
        timeline.mark(.appInit)
        let configuration = options.configuration
        try configuration.validate()
        let camera = configuration.cameras[0]
        let estimator = HardwareCostEstimator(profile: options.profile)
        let pose = CameraPose()
        let footage = footage(camera: camera, pose: pose)
        defer { options.video?.close() }
        let session = CaptureSession(
            configuration: configuration, estimator: estimator, frameSource: footage.frameSource,
            timeline: timeline)
        session.beginConfiguration()
        let estimate = try session.commitConfiguration()
        metrics.publishHardwareCost(estimate.hardwareCost)
        let stand = try SimulatedStand(motors: StandMotors(camera: pose))
        await stand.setSystemTracking(false)

        let start = MonotonicClock.now()
        let load = ReferencedLoad(reference: options.loadReference)
        let (sampler, isSimulated, notes): (any SampleSource, Bool, [String]) =
            options.pressureSource.map {
                ($0, true, ["pressure comes from a given source, not this host"])
            }
            ?? pressureSampler(load: load, start: start)
        var observed = sampler
        if options.recordsPressure {
            let recorded = RecordingSampleSource(sampler)
            state.withLock { $0.pressure = recorded }
            observed = recorded
        }
        let observer = PressureObserver(source: observed, interval: options.pressureInterval)
        let governor = Governor(
            policy: options.policy,
            costModel: SystemPressureCost(estimator: estimator, configuration: configuration),
            qualityTable: options.qualityTable)

        let recorder = try startRecording(camera: camera)
        let annotator = try options.annotationDestination.map {
            try AnnotationWriter(
                path: $0, width: camera.format.width, height: camera.format.height,
                frameRate: camera.frameRate)
        }
        try session.startRunning()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await observer.run() }
            group.addTask { try await stand.run() }
            group.addTask {
                await self.followPressure(
                    observer, governor: governor, session: session, start: start)
            }
            group.addTask {
                try await self.processFrames(
                    session: session, footage: footage, stand: stand, recorder: recorder,
                    annotator: annotator)
            }
            if let video = self.options.video {
                group.addTask { await video.waitUntilFinished() }
            }
            group.addTask {
                try await self.sampleProgress(
                    start: start, session: session, governor: governor, recorder: recorder,
                    progress: progress)
            }
            group.addTask { try? await Task.sleep(for: .seconds(self.options.seconds)) }
            // The run ends at its time, or earlier when a video ends, or a given pressure
            // source (a trace) runs out and the observer stops, or when it is cancelled: then
            // the first child to notice may end with CancellationError, and the run still
            // reports what ran.
            do {
                try await group.next()
            } catch is CancellationError {}
            group.cancelAll()
        }
        let wasInterrupted = Task.isCancelled
        let elapsed = MonotonicClock.now().seconds(since: start)
        await session.stopRunning()
        var result = summary(
            estimate: estimate, session: session, isSimulated: isSimulated, notes: notes,
            loadReference: load.reference)
        if let recorder {
            let recording = await recorder.finish()
            result.recording = recording
            if recording.endReason != .finished {
                result.notes.append(
                    "the recording ended early (\(recording.endReason.rawValue)): "
                        + "\(recording.problem ?? "") — \(recording.path) holds its \(recording.frames) whole frames"
                )
            }
        }
        if let annotator {
            result.annotation = await annotator.finish(stillsInto: options.reportDirectory)
            if let problem = result.annotation?.problem {
                result.notes.append("the annotated video was not written: \(problem)")
            }
        }
        let truthFrames = options.videoGroundTruth.map(\.frame)
        if result.quality == nil, let first = truthFrames.min(), let last = truthFrames.max() {
            result.notes.append(
                "the ground truth scored nothing: its frames \(first)–\(last) are not among the"
                    + " \(options.video?.framesRead ?? 0) frames read from the video")
        }
        if let problem = options.video?.problem {
            result.notes.append(
                "the video was not read to its end: \(problem); the figures cover the frames before it"
            )
        }
        // A run that ended early (stopped, or its pressure source ran out) reports what ran.
        result.seconds = min(elapsed, options.seconds)
        if wasInterrupted {
            result.wasInterrupted = true
            result.notes.append(
                "interrupted after \(String(format: "%.1f", result.seconds)) s of \(String(format: "%g", options.seconds)) s; the figures cover what ran"
            )
        }
        for phase in result.launch.phases where phase.isComplete {
            metrics.recordLaunchPhase(phase.name, seconds: phase.duration)
        }
        return result
    }

    /// The run's pixels: the given video, or the synthetic scene seen from `pose`.
    private func footage(camera: CameraConfiguration, pose: CameraPose) -> Footage {
        if let video = options.video {
            return .video(video, groundTruth: options.videoGroundTruth)
        }
        var scene = SyntheticScene.Configuration()
        scene.seed = options.seed
        scene.style = options.sceneStyle
        return .scene(
            SceneFrameSource(
                scene: scene, width: camera.format.width, height: camera.format.height,
                pose: pose))
    }

    /// Starts the session's movie output, if it has one and a destination was given.
    private func startRecording(camera: CameraConfiguration) throws -> MovieRecorder? {
        guard let destination = options.recordingDestination,
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
            storageDirectory: options.storageDirectory, metrics: metrics)
    }

    /// The pressure samples the run took (its sensors or model, or the given source), as a
    /// trace that `--trace` replays; empty unless ``RunOptions/recordsPressure``.
    public var pressureTrace: PressureTrace {
        state.withLock { $0.pressure?.trace } ?? PressureTrace(samples: [])
    }

    /// The latest pressure reading as `status --json` prints it, for `/status`.
    public var statusJSON: String? { state.withLock { $0.statusDocument }?.text }

    // MARK: - Pressure

    /// The pressure sources: the host's real sensors, unless the scenario simulates or the host
    /// has none, in which case PSI and throttling plus the labelled thermal model.
    private func pressureSampler(load: ReferencedLoad, start: MonotonicInstant)
        -> (sampler: PressureSampler, isSimulated: Bool, notes: [String])
    {
        var system = PressureSampler.system()
        let hasSensors =
            system.sample(at: 0)?.sensors.contains {
                $0.isTemperature && $0.celsius != nil && !$0.isStale
            } ?? false
        if hasSensors && !options.scenario.alwaysSimulates {
            return (system, false, [])
        }
        let scenario = options.scenario
        let seconds = options.seconds
        let model = ThermalModel(
            ambient: scenario.ambient(at: 0, runSeconds: seconds),
            riseAtFullLoad: scenario.riseAtFullLoad,
            timeConstant: scenario.timeConstant)
        let thermal = ThermalModelSource(
            model: model, load: load, high: Celsius(scenario.high),
            critical: Celsius(scenario.critical),
            ambient: { _ in
                scenario.ambient(
                    at: MonotonicClock.now().seconds(since: start), runSeconds: seconds)
            })
        system.temperatureSources = [thermal]
        let why =
            hasSensors
            ? "scenario \(scenario.name) simulates the machine's temperature"
            : "no thermal sensors on this host"
        return (
            system, true,
            [
                "\(why): temperatures come from a thermal model (SIMULATED) driven by this process's CPU use"
            ]
        )
    }

    /// Feeds every reading to the governor and applies its changes to the capture session and
    /// the detector.
    private func followPressure(
        _ observer: PressureObserver, governor: Governor, session: CaptureSession,
        start: MonotonicInstant
    ) async {
        for await reading in observer.readings() {
            let status = PressureStatus(reading)
            metrics.publish(status)
            state.withLock { state in
                state.reading = reading
                state.statusDocument = status.document
            }
            let lateShare = options.shedsForLateness ? state.withLock { $0.lateShare } : 0
            guard options.isGovernorEnabled,
                let change = governor.update(with: reading, lateShare: lateShare)
            else {
                continue
            }
            var relative = change
            relative.time = MonotonicClock.now().seconds(since: start)
            metrics.countGovernorChange()
            state.withLock { state in
                state.changes.append(relative)
                if state.changes.count > Self.keptChanges { state.changes.removeFirst() }
                state.changeCount += 1
                state.settings = change.to
            }
            session.limitFrameRate(to: change.to.frameRate)
            if change.from.isCapturing && !change.to.isCapturing {
                await session.stopRunning()
            } else if !change.from.isCapturing && change.to.isCapturing {
                try? session.startRunning()
                captureResumed.yield()
            }
        }
    }

    // MARK: - Frames

    /// Takes the session's frames through the tracking stage and drives the stand; while
    /// capture is stopped for pressure, waits for the governor to restart it. The stage is
    /// this loop's own while it runs: the detector and tracker run outside any lock, and only
    /// the per-frame bookkeeping is shared.
    private func processFrames(
        session: CaptureSession, footage: Footage, stand: SimulatedStand,
        recorder: MovieRecorder?, annotator: AnnotationWriter?
    ) async throws {
        guard var stage = state.withLock({ $0.stage.take() }) else { return }
        defer { state.withLock { $0.stage = stage } }
        var resumptions = captureResumedStream.makeAsyncIterator()
        // The last video frame seen (a video's position runs on across capture restarts).
        var lastSourceIndex: Int?
        // When (footage seconds) the live recent-identity figure is next refreshed.
        var recentRefresh = Self.recentIdentityPeriod
        while !Task.isCancelled {
            guard session.isRunning else {
                // Capture is stopped for pressure: wait for the governor to restart it (the
                // stream ends, and the wait with it, when the run is cancelled).
                guard await resumptions.next() != nil else { return }
                continue
            }
            let run = state.withLock { state in
                state.lastFrameNumber = nil
                defer { state.captureRun += 1 }
                return state.captureRun
            }
            for await frame in session.videoFrames(bufferLimit: 2) {
                // A video frame seen already (the video has ended, or the session outpaces
                // it) is no new picture: skip it. Video frames never seen were dropped.
                var skippedVideoFrames: Int?
                // Between two video frames, the video's own time passed (whatever the pace):
                // the tracker's motion and the identities per minute are in video time.
                var videoInterval: Double?
                if case .video = footage, frame.sourceIndex == nil {
                    // No video frame yet (or a video without any): no picture to process.
                    continue
                }
                if let index = frame.sourceIndex {
                    if let last = lastSourceIndex, index <= last {
                        footage.frameConsumed(frame)
                        continue
                    }
                    skippedVideoFrames = index - (lastSourceIndex.map { $0 + 1 } ?? 0)
                    if let last = lastSourceIndex, let rate = options.video?.frameRate {
                        videoInterval = Double(index - last) / rate
                    }
                    lastSourceIndex = index
                }
                recorder?.record(frame)
                let cameraPose = footage.trackerPose(stand: await stand.motors.pose)
                let people = footage.groundTruth(for: frame, run: run)
                let (interval, inference) = state.withLock { state in
                    let interval =
                        videoInterval
                        ?? state.lastFrameTime.map { frame.timestamp.seconds(since: $0) }
                        ?? 1 / options.trackedFrameRate
                    // Numbers the pipeline never saw were skipped by the camera or by us.
                    state.framesDropped +=
                        skippedVideoFrames
                        ?? frame.number - (state.lastFrameNumber.map { $0 + 1 } ?? 0)
                    state.lastFrameNumber = frame.number
                    state.lastFrameTime = frame.timestamp
                    return (interval, state.settings.inference)
                }
                if inference != stage.inference { stage.apply(inference) }
                let step = stage.process(
                    frame, pose: cameraPose, interval: interval, people: people)
                footage.frameConsumed(frame)
                annotator?.offer(
                    frame.luma,
                    annotation: FrameAnnotation(
                        tracks: step.outcome.tracks, primary: step.outcome.subjects.first,
                        framing: step.outcome.framing))
                state.withLock { state in
                    state.subjects = step.outcome.subjects.count
                    state.periodFrames += 1
                    state.periodFramingError += step.framingError
                    state.framesProcessed = stage.framesProcessed
                    state.detectorCalls = stage.detectorCalls
                }
                try? await stand.setAngularVelocity(
                    yaw: step.outcome.command.yaw, pitch: step.outcome.command.pitch)
                footage.pointCamera(at: await stand.motors.pose)
                if stage.seconds >= recentRefresh, let recent = stage.recentIdentity() {
                    recentRefresh = stage.seconds + Self.recentIdentityPeriod
                    state.withLock { $0.recentIDF1 = recent.idf1 }
                    metrics.publishTrackingQuality(idf1: recent.idf1, hota: recent.hota)
                }
                // Late: the next frame was due before this one was done with.
                let spent = MonotonicClock.now().seconds(since: frame.timestamp)
                state.withLock { state in
                    if spent > 1 / max(state.settings.frameRate, 1) { state.periodLateFrames += 1 }
                }
            }
        }
    }

    // MARK: - Samples

    private func sampleProgress(
        start: MonotonicInstant, session: CaptureSession, governor: Governor,
        recorder: MovieRecorder?, progress: @Sendable (RunSample) -> Void
    ) async throws {
        let period = Self.samplePeriod
        let clock = ContinuousClock()
        var next = clock.now
        while true {
            next += .seconds(period)
            try await Task.sleep(until: next, clock: clock)
            let sample = state.withLock { state -> RunSample in
                let reading = state.reading
                let temperatures =
                    reading?.sensors.compactMap { $0.isStale ? nil : $0.celsius?.value } ?? []
                let share = reading?.sustainableShare ?? 1
                let sample = RunSample(
                    time: MonotonicClock.now().seconds(since: start),
                    level: reading?.level ?? .nominal,
                    cause: reading.flatMap { reading in
                        reading.level > .nominal
                            ? reading.factors.max { $0.level < $1.level }?.kind.rawValue : nil
                    },
                    temperature: temperatures.max(), isSimulated: reading?.simulated ?? false,
                    targetFrameRate: state.settings.frameRate,
                    actualFrameRate: Double(state.periodFrames) / period,
                    stride: state.settings.inference.stride, scale: state.settings.inference.scale,
                    isCapturing: state.settings.isCapturing, subjects: state.subjects,
                    framingError: state.periodFrames > 0
                        ? state.periodFramingError / Double(state.periodFrames)
                        : FramingError.missed,
                    systemPressureCost: governor.costModel.cost(
                        atFrameRate: state.settings.frameRate, sustainableShare: share),
                    framesProcessed: state.framesProcessed,
                    framesDropped: state.framesDropped, governorChanges: state.changeCount,
                    detectorCalls: state.detectorCalls,
                    latestChangeTime: state.changes.last?.time, recentIDF1: state.recentIDF1)
                let dropped = sample.framesDropped - (state.lastSample?.framesDropped ?? 0)
                if let previous = state.lastSample {
                    metrics.countFrames(
                        delivered: sample.framesProcessed - previous.framesProcessed,
                        dropped: dropped)
                }
                let due = state.periodFrames + dropped
                state.lateShare =
                    due > 0 ? Double(state.periodLateFrames + dropped) / Double(due) : 0
                state.periodLateFrames = 0
                state.samples.append(sample)
                state.lastSample = sample
                state.extremes.add(sample)
                state.periodFrames = 0
                state.periodFramingError = 0
                return sample
            }
            metrics.publishPipeline(
                targetFrameRate: sample.targetFrameRate, actualFrameRate: sample.actualFrameRate,
                inferenceStride: sample.stride)
            metrics.publishSystemPressureCost(sample.systemPressureCost)
            recorder?.publish()
            progress(sample)
        }
    }

    // MARK: - Summary

    /// `scene seed 1 (two-tone)` or the video's input.
    private var sourceDescription: String {
        options.video.map { "\($0.input)" }
            ?? "scene seed \(options.seed) (\(options.sceneStyle.rawValue))"
    }

    /// The run's summary. The tracking quality is computed outside the state's lock.
    private func summary(
        estimate: HardwareCostEstimate, session: CaptureSession, isSimulated: Bool, notes: [String],
        loadReference: Double?
    ) -> RunSummary {
        let (stage, state) = self.state.withLock { state in
            guard let stage = state.stage else {
                preconditionFailure("the frame loop hands the tracking stage back when it ends")
            }
            return (stage, state)
        }
        return RunSummary(
            scenario: options.scenario.name, isGovernorEnabled: options.isGovernorEnabled,
            seed: options.seed,
            seconds: options.seconds, hardwareCost: estimate.hardwareCost,
            profile: options.profile.name,
            isSimulated: isSimulated, peakTemperature: state.extremes.peakTemperature,
            worstLevel: state.extremes.worstLevel,
            secondsAtSeriousOrWorse: Double(state.extremes.samplesAtSeriousOrWorse)
                * Self.samplePeriod,
            framesProcessed: stage.framesProcessed,
            framesDropped: state.framesDropped,
            detectorCalls: stage.detectorCalls, source: sourceDescription,
            detector: options.detector, quality: stage.quality(), trackCount: stage.trackCount,
            tracksStartedPerMinute: stage.seconds > 0
                ? Double(stage.trackCount) / stage.seconds * 60 : 0,
            meanFramingError: stage.meanFramingError,
            governorChanges: state.changes, governorChangeCount: state.changeCount,
            samples: state.samples.values,
            launch: timeline.report(
                label: "run", metadata: ["scenario": options.scenario.name]),
            loadReference: loadReference, notes: notes)
    }
}

/// The extremes of a run's pressure samples, kept as they come (the samples themselves are
/// thinned over a long run).
struct PressureExtremes {
    /// The hottest temperature sampled, °C.
    private(set) var peakTemperature: Double?
    /// The most severe level sampled.
    private(set) var worstLevel = PressureLevel.nominal
    /// Samples at `serious` or worse.
    private(set) var samplesAtSeriousOrWorse = 0

    /// Counts one sample.
    mutating func add(_ sample: RunSample) {
        if let temperature = sample.temperature {
            peakTemperature = max(peakTemperature ?? temperature, temperature)
        }
        worstLevel = max(worstLevel, sample.level)
        if sample.level >= .serious { samplesAtSeriousOrWorse += 1 }
    }
}
