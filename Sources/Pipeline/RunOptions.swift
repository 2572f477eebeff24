import Capture
import Files
import Governor
import Pressure
import Tracking
import Units

/// The options of one run of the main job, as nested values: what the camera sees, how far the
/// governor goes, where the run writes. A value: what the run opens and reads as it goes (the
/// video, a pressure replay, the model) is passed beside it (``RunInputs``), and nothing in
/// it is read from the environment. ``validate()`` checks the rules between them.
public struct RunOptions: Sendable {
    /// What the tracked camera sees.
    public enum Source: Sendable {
        /// The synthetic scene, seeded, its people drawn in `style`.
        case scene(seed: UInt64, style: SceneStyle)
        /// Real video (`--source`), read at `pacing` (``RunInputs/video`` is it, opened), with
        /// its MOTChallenge ground truth numbered by video frame (1 = its first; empty when
        /// there is none). The session's first camera should have the video's size and frame
        /// rate.
        case video(input: VideoInput, pacing: VideoPacing, groundTruth: [MOTRecord])
    }

    /// How far the governor adapts the pipeline.
    public enum Governance: String, Sendable, CaseIterable, Codable {
        /// To pressure, and to the pipeline's own missed frame deadlines (a busy host).
        case full = "on"
        /// Not at all: the settings stay as requested.
        case off
        /// To pressure alone, so that a run's settings do not depend on how fast this machine
        /// is (tests, replays, demos).
        case pressureOnly = "pressure-only"
    }

    /// Where a run writes besides its summary.
    public struct Outputs: Sendable {
        /// Where the run's reports go: the annotated stills, and what the pipeline saw
        /// (`detections.txt` and `tracks.txt`); `nil` keeps neither file (the stills go
        /// beside the annotated video).
        public var reportDirectory: String?
        /// Where the session's movie output records (a Y4M file); `nil` records nothing.
        public var recording: String?
        /// Where to write the annotated video (`--annotate`); `nil` writes none.
        public var annotation: String?
        /// Whether the run keeps every pressure sample it takes, for
        /// ``PipelineRun/pressureTrace`` (`--record-pressure`); off, a long run does not grow
        /// with them.
        public var recordsPressure = false
        /// The pro video storage reserve a movie output with `usesProVideoStorage` records
        /// into; required for such an output.
        public var storageDirectory: String?

        /// Nothing written but the reports, into the working directory.
        public init() {}
    }

    /// How long to run.
    public var duration: Duration
    /// The conditions played.
    public var scenario: RunScenario
    /// What the camera sees.
    public var source: Source
    /// How far the governor adapts the pipeline.
    public var governance: Governance
    /// The capture session; its first camera feeds the tracking pipeline.
    public var configuration: SessionConfiguration
    /// The device profile the session is priced on.
    public var profile: DeviceProfile
    /// The governor's policy.
    public var policy: GovernorPolicy
    /// The tracking quality table the governor consults.
    public var qualityTable: QualityTable
    /// The quality measured at the ladder's rungs on real footage, for a run without a quality
    /// table (the detector's ``DetectorKind/rungQuality``).
    public var rungQuality: [InferenceSetting: Double] = [:]
    /// The time between pressure readings (within reach of a threshold).
    public var pressureInterval: Duration
    /// The time the run is played on: real, or virtual (as fast as the machine goes, the same
    /// on any machine; pressure then comes from ``RunInputs/pressureSource`` or the scenario's
    /// model).
    public var timing = RunTiming.real
    /// The detector the pipeline runs.
    public var detector: DetectorKind = .blob
    /// The profiles `run --serve`'s `POST /v1/estimate` prices sessions on: the built-in ones
    /// unless the caller adds this user's calibrated ones.
    public var catalog = ProfileCatalog(calibratedDirectory: nil)
    /// Where the run writes.
    public var outputs = Outputs()
    /// The run's pipeline's priority among the host governor's clients, 0–100 (a lower
    /// priority sheds first; other pipelines share the budget through `run --serve`).
    public var priority = 50
    /// How long a pipeline registered through the run's service stays registered without a
    /// request.
    public var lease = Duration.seconds(30)

    /// Options with the defaults of `headroom run`: the scene of seed 1, the governor on.
    public init(
        duration: Duration? = nil, scenario: RunScenario = .standard,
        source: Source = .scene(seed: 1, style: .twoTone), governance: Governance = .full,
        configuration: SessionConfiguration = PipelineRun.defaultSession,
        profile: DeviceProfile = .genericDesktop, policy: GovernorPolicy = GovernorPolicy(),
        qualityTable: QualityTable = .standard,
        pressureInterval: Duration = .milliseconds(500)
    ) {
        self.duration = duration ?? scenario.defaultDuration
        self.scenario = scenario
        self.source = source
        self.governance = governance
        self.configuration = configuration
        self.profile = profile
        self.policy = policy
        self.qualityTable = qualityTable
        self.pressureInterval = pressureInterval
    }

    /// The frame rate of the tracked camera (the session's first): what the pipeline starts at
    /// and what the governor's frame-rate cap is applied below.
    public var trackedFrameRate: FrameRate { configuration.cameras.first?.frameRate ?? 30 }

    /// Whether the run plays a video.
    public var playsVideo: Bool {
        if case .video = source { true } else { false }
    }

    /// The video's ground truth; empty for the scene.
    public var groundTruth: [MOTRecord] {
        if case .video(_, _, let truth) = source { truth } else { [] }
    }

    /// The scene's seed; `nil` for a video.
    public var seed: UInt64? {
        if case .scene(let seed, _) = source { seed } else { nil }
    }

    /// These options for one pass of `headroom run` (`--compare` makes two): governed as
    /// `governance`, writing to `outputs`.
    public func pass(governance: Governance, outputs: Outputs) -> RunOptions {
        var pass = self
        pass.governance = governance
        pass.outputs = outputs
        return pass
    }

    /// Checks the rules between the options, and between them and `inputs`: a session the
    /// run can start (a camera, outputs that make sense), a duration, a priority and a lease
    /// in range, a movie destination only with a movie output, and the inputs the options
    /// need — the video they play, the neural detector's model.
    ///
    /// - Throws: ``ConfigurationError`` naming the option and what was expected.
    public func validate(with inputs: RunInputs) throws(ConfigurationError) {
        try configuration.validate()
        func refuse(_ path: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(path: path, problem: problem)
        }
        guard duration > .zero else { throw refuse("duration", "more than 0 s") }
        guard pressureInterval > .zero else { throw refuse("pressureInterval", "more than 0 s") }
        guard (0...100).contains(priority) else {
            throw refuse("priority", "0–100; got \(priority)")
        }
        guard lease > .zero else { throw refuse("lease", "more than 0 s") }
        if outputs.recording != nil, !configuration.outputs.contains(where: { $0.kind == .movie }) {
            throw refuse("outputs.recording", "a session with a movie output to record")
        }
        switch (source, inputs.video) {
        case (.video(let input, let pacing, _), let video?):
            guard video.input == input, video.pacing == pacing else {
                throw refuse(
                    "inputs.video",
                    "the video the options play (\(input), pace \(pacing.rawValue)); got"
                        + " \(video.input), pace \(video.pacing.rawValue)")
            }
        case (.video(let input, _, _), nil):
            throw refuse("inputs.video", "the video \(input), opened")
        case (.scene, .some):
            throw refuse("inputs.video", "none: the options play the scene")
        case (.scene, nil): break
        }
        if detector == .personSSD, inputs.personModel == nil {
            throw refuse("inputs.personModel", "the person-ssd detector's model")
        }
    }
}
