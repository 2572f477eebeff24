import Governor
import LaunchTiming
import Pressure
import Tracking
import Units

/// What the pipeline looks like at one moment: shown live in the terminal, kept every half
/// second for the reports.
public struct RunSample: Hashable, Sendable, Codable {
    /// The time since the run started.
    @SecondsCoded public var time: Duration
    /// The pressure level.
    public var level: PressureLevel
    /// What set the level: the most severe factor (`systemTemperature`, `cpuPressure`, …);
    /// `nil` at nominal.
    public var cause: String?
    /// The hottest temperature read, °C; `nil` without thermal sensors.
    public var temperature: Double?
    /// Whether the temperature comes from the thermal model rather than a sensor.
    public var isSimulated: Bool
    /// The governor's target frame rate.
    public var targetFrameRate: FrameRate
    /// Frames processed per second over the last sample period.
    public var actualFrameRate: FrameRate
    /// The detector's stride.
    public var stride: Int
    /// The detector's scale.
    public var scale: Double
    /// Whether capture runs (false while shut down for pressure).
    public var isCapturing: Bool
    /// Confirmed subjects in view.
    public var subjects: Int
    /// Mean framing error over the last sample period, picture units.
    public var framingError: Double
    /// Hardware cost at the target frame rate over the sustainable share.
    public var systemPressureCost: Double
    /// Frames processed so far.
    public var framesProcessed: Int
    /// Frames dropped so far (skipped by the capture session or not taken by the pipeline).
    public var framesDropped: Int
    /// Changes the governor has made so far.
    public var governorChanges: Int
    /// Detector runs so far.
    public var detectorCalls: Int
    /// When the latest governor change happened, since the run started (the time the reports
    /// give it); `nil` before the first.
    @OptionalSecondsCoded public var latestChangeTime: Duration? = nil
    /// Identity F1 over the last ``TrackingQuality/recentWindow`` seconds, refreshed every
    /// few seconds; `nil` without ground truth.
    public var recentIDF1: Double? = nil
}

/// What a run produced: its settings history, its quality, its launch.
public struct RunSummary: Hashable, Sendable, Codable {
    /// The scenario's name.
    public var scenario: String
    /// What the governor followed: pressure and the pipeline's own lateness (`on`), pressure
    /// alone (`pressure-only`), or nothing (`off`). Reports name it as it was: a run that
    /// followed pressure alone is not called "governor on".
    public var governance: RunOptions.Governance
    /// Whether the governor adapted the pipeline (to anything).
    public var isGovernorEnabled: Bool { governance != .off }
    /// The seed of the synthetic scene.
    public var seed: UInt64
    /// How long the run lasted (`seconds` in the JSON).
    @SecondsCoded public var duration: Duration
    /// The session's hardware cost on its profile, as committed.
    public var hardwareCost: Double
    /// The profile's name.
    public var profile: String
    /// Whether temperatures came from the thermal model (labelled simulated).
    public var isSimulated: Bool
    /// The hottest temperature seen, °C; `nil` without thermal sensors.
    public var peakTemperature: Double?
    /// The most severe level reached.
    public var worstLevel: PressureLevel
    /// The time spent at `serious` or worse (`secondsAtSeriousOrWorse` in the JSON).
    @SecondsCoded public var timeAtSeriousOrWorse: Duration
    /// Frames the pipeline processed.
    public var framesProcessed: Int
    /// Frames dropped: skipped by the capture session when late, or not taken by the pipeline.
    public var framesDropped: Int
    /// Detector runs.
    public var detectorCalls: Int
    /// The neural detector's network runs (one a region it looked at, up to its budget a
    /// frame); nil for a detector without a network.
    public var networkCalls: Int?
    /// The time at each rung of the inference ladder the run ran at, in the order first run at;
    /// nil in a report written before rungs were counted.
    public var rungs: [RunRung]?
    /// Where the frames came from: `scene seed 1 (two-tone)`, or the video's path.
    public var source: String
    /// The detector that ran.
    public var detector: DetectorKind
    /// How well the run tracked, against ground truth; `nil` when there was none (a video
    /// without `--gt`).
    public var quality: TrackingQuality?
    /// Distinct track identities the tracker gave out.
    public var trackCount: Int
    /// New track identities per minute of run: how much identities churn, with or without
    /// ground truth.
    public var tracksStartedPerMinute: Double
    /// Mean framing error per processed frame, picture units.
    public var meanFramingError: Double
    /// The changes the governor made, in order: all of them, or the latest 1,000 of a long
    /// run's.
    public var governorChanges: [RunGovernorChange]
    /// How many changes the governor made.
    public var governorChangeCount: Int
    /// The samples, every half second; a run longer than twenty minutes keeps at most 2,400,
    /// thinned evenly over its length (every second one, then every fourth, …).
    public var samples: [RunSample]
    /// The time the run was played on.
    public var timing: RunTiming
    /// The launch timeline of the capture pipeline (real time, whatever the run's timing: it
    /// measures the work of starting).
    public var launch: LaunchReport
    /// Things the user should know (no thermal sensors, simulated temperatures, …).
    public var notes: [String]
    /// Whether the run was stopped before its time (SIGINT or SIGTERM); ``duration`` is then
    /// how long it ran.
    public var wasInterrupted = false
    /// Why the run failed once started (capture stopped, say), ending it early; `nil` when
    /// it did not. ``duration`` is then how long it ran.
    public var failure: String?
    /// What the movie output recorded, when the session had one with a destination.
    public var recording: RecordingReport?
    /// The annotated video (`--annotate`), when one was asked for.
    public var annotation: AnnotationReport?
    /// The MOTChallenge files written beside the report: the detector's boxes
    /// (`detections.txt`) and the tracks (`tracks.txt`).
    public var trackingFiles: [String] = []

    private enum CodingKeys: String, CodingKey {
        case scenario, governance, seed, hardwareCost, profile, isSimulated
        case peakTemperature, worstLevel, framesProcessed, framesDropped, detectorCalls
        case networkCalls, rungs, source
        case detector, quality, trackCount, tracksStartedPerMinute, meanFramingError
        case governorChanges, governorChangeCount, samples, timing, launch, notes
        case wasInterrupted, failure, recording, annotation, trackingFiles
        case duration = "seconds"
        case timeAtSeriousOrWorse = "secondsAtSeriousOrWorse"
    }
}

/// How well a run tracked against ground truth: identity, accuracy and HOTA over the whole run,
/// and identity over its last stretch (a tracker whose identities decay shows it there first).
public struct TrackingQuality: Hashable, Sendable, Codable {
    /// The stretch of run the whole-run figures cover (`seconds` in the JSON).
    @SecondsCoded public var duration: Duration
    /// Identity F1 over the whole run, 0…1.
    public var idf1: Double
    /// Multiple-object tracking accuracy over the whole run, ≤ 1.
    public var mota: Double
    /// Identity switches over the whole run.
    public var identitySwitches: Int
    /// Higher-order tracking accuracy (TrackEval's HOTA) over the whole run, 0…1.
    public var hota: Double
    /// HOTA's detection accuracy, 0…1.
    public var detA: Double
    /// HOTA's association accuracy, 0…1.
    public var assA: Double
    /// Identity F1 over the last ``recentSeconds`` only.
    public var recentIDF1: Double
    /// The stretch the recent figure covers: ``TrackingQuality/recentWindow``, or the whole
    /// run when it is shorter (`recentSeconds` in the JSON).
    @SecondsCoded public var recentDuration: Duration

    /// The stretch the recent identity figure covers.
    public static let recentWindow = Duration.seconds(30)

    /// Creates the figures.
    public init(
        duration: Duration, idf1: Double, mota: Double, identitySwitches: Int, hota: Double,
        detA: Double, assA: Double, recentIDF1: Double, recentDuration: Duration
    ) {
        self.duration = duration
        self.idf1 = idf1
        self.mota = mota
        self.identitySwitches = identitySwitches
        self.hota = hota
        self.detA = detA
        self.assA = assA
        self.recentIDF1 = recentIDF1
        self.recentDuration = recentDuration
    }

    private enum CodingKeys: String, CodingKey {
        case idf1, mota, identitySwitches, hota, detA, assA, recentIDF1
        case duration = "seconds"
        case recentDuration = "recentSeconds"
    }
}

/// A governor change as a run reports it: at its time since the run started, on the run's
/// clock; its decision's fields read as its own and are written beside `time`.
@dynamicMemberLookup
public struct RunGovernorChange: Hashable, Sendable, Codable {
    /// The time since the run started.
    public var time: Duration
    /// What was decided.
    public var decision: GovernorDecision

    /// `change` as it happened `time` after the run's start.
    public init(_ change: GovernorChange, since start: MonotonicInstant) {
        time = change.instant.duration(since: start)
        decision = change.decision
    }

    /// The decision's fields.
    public subscript<Value>(dynamicMember field: KeyPath<GovernorDecision, Value>) -> Value {
        decision[keyPath: field]
    }

    private enum CodingKeys: String, CodingKey { case time }

    /// Reads `{"time", "from", "to", "level", "systemPressureCost", "reason"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(SecondsCoded.self, forKey: .time).wrappedValue
        decision = try GovernorDecision(from: decoder)
    }

    /// Writes the time and the decision's fields in one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SecondsCoded(wrappedValue: time), forKey: .time)
        try decision.encode(to: encoder)
    }
}
