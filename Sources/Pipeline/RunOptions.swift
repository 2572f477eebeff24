import Capture
import Governor
import Pressure
import Tracking
import Units

/// The options of one run of the main job, as nested values: what the camera sees, how far the
/// governor goes, where the run writes. Nothing in them is read from the environment.
public struct RunOptions: Sendable {
    /// What the tracked camera sees.
    public enum Source: Sendable {
        /// The synthetic scene, seeded, its people drawn in `style`.
        case scene(seed: UInt64, style: SceneStyle)
        /// Real video (`--source`), with its MOTChallenge ground truth numbered by video frame
        /// (1 = its first; empty when there is none). The session's first camera should have
        /// the video's size and frame rate.
        case video(VideoFrameSource, groundTruth: [MOTRecord])
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
    /// The time between pressure readings (within reach of a threshold).
    public var pressureInterval: Duration
    /// The time the run is played on: real, or virtual (as fast as the machine goes, the same
    /// on any machine; pressure then comes from ``pressureSource`` or the scenario's model).
    public var timing = RunTiming.real
    /// Where pressure samples come from instead of the host and the scenario's model: a
    /// recorded trace, or a test's fixture. Its times are seconds on the run's clock; the run
    /// ends early when it runs out (returns `nil`).
    public var pressureSource: (any SampleSource)?
    /// The detector the pipeline runs.
    public var detector: DetectorKind = .blob
    /// The profiles `run --serve`'s `POST /v1/estimate` prices sessions on: the built-in ones
    /// unless the caller adds this user's calibrated ones.
    public var catalog = ProfileCatalog(calibratedDirectory: nil)
    /// The neural detector's model, which the caller found (the command line, where
    /// `person-model.sh` installs it); nil for the other detectors.
    public var personModel: PersonModel?
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

    /// The video, when the run plays one.
    public var video: VideoFrameSource? {
        if case .video(let video, _) = source { video } else { nil }
    }

    /// The scene's seed; `nil` for a video.
    public var seed: UInt64? {
        if case .scene(let seed, _) = source { seed } else { nil }
    }
}
