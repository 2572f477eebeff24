/// What ``HTMLRunReport`` draws: a plain record of one run, in seconds since the run started,
/// so that any producer (the pipeline, a replay, a test) can fill it without other modules.
public struct RunReportData: Sendable, Hashable, Codable {
    /// The report's heading, e.g. `headroom run — tracking-1080p.json`.
    public var title: String
    /// Context under the heading: host, start time, version (free text, one line each).
    public var context: [String]
    /// The launch phases, in order; bars may overlap (deferred starts run beside others).
    public var launchPhases: [LaunchPhaseSpan]
    /// Pressure readings over the run.
    public var pressure: [PressurePoint]
    /// Every change the governor made, marked on the time charts.
    public var governorChanges: [GovernorChangeMark]
    /// Frame rate and stride over the run.
    public var pipeline: [PipelinePoint]
    /// The quality summary table (tracking accuracy, drops, costs), in display order.
    public var quality: [QualityFigure]
    /// Annotated stills of the run (image files beside the report, by relative path).
    public var stills: [String] = []

    /// Creates report data; every series may be empty (its chart then says so).
    public init(
        title: String, context: [String] = [], launchPhases: [LaunchPhaseSpan] = [],
        pressure: [PressurePoint] = [], governorChanges: [GovernorChangeMark] = [],
        pipeline: [PipelinePoint] = [], quality: [QualityFigure] = [], stills: [String] = []
    ) {
        self.title = title
        self.context = context
        self.launchPhases = launchPhases
        self.pressure = pressure
        self.governorChanges = governorChanges
        self.pipeline = pipeline
        self.quality = quality
        self.stills = stills
    }
}

/// One launch phase: when it started after process start and how long it took, in seconds.
public struct LaunchPhaseSpan: Sendable, Hashable, Codable {
    /// The phase name, e.g. `sessionConfiguration`.
    public var name: String
    /// Seconds from process start to the start of the phase (≥ 0).
    public var startSeconds: Double
    /// Duration of the phase in seconds (≥ 0).
    public var durationSeconds: Double
    /// How deeply the phase nests inside others (0: top level); the waterfall indents it.
    public var depth = 0

    /// Creates a span; see the properties for units.
    public init(name: String, startSeconds: Double, durationSeconds: Double, depth: Int = 0) {
        self.depth = depth
        self.name = name
        self.startSeconds = startSeconds
        self.durationSeconds = durationSeconds
    }
}

/// One pressure reading at a time in the run.
public struct PressurePoint: Sendable, Hashable, Codable {
    /// Seconds since the run started.
    public var timeSeconds: Double
    /// The overall level, 0 nominal … 4 shutdown (values outside are clamped when drawn).
    public var level: Int
    /// The hottest readable temperature in °C, or nil when every sensor was stale.
    public var temperatureCelsius: Double?

    /// Creates a point; see the properties for units.
    public init(timeSeconds: Double, level: Int, temperatureCelsius: Double?) {
        self.timeSeconds = timeSeconds
        self.level = level
        self.temperatureCelsius = temperatureCelsius
    }
}

/// A change the governor made, e.g. `fair: 30 → 24 fps, stride 1 → 2`.
public struct GovernorChangeMark: Sendable, Hashable, Codable {
    /// Seconds since the run started.
    public var timeSeconds: Double
    /// One line saying what changed and why.
    public var summary: String

    /// Creates a mark; see the properties for units.
    public init(timeSeconds: Double, summary: String) {
        self.timeSeconds = timeSeconds
        self.summary = summary
    }
}

/// The pipeline's rates at a time in the run.
public struct PipelinePoint: Sendable, Hashable, Codable {
    /// Seconds since the run started.
    public var timeSeconds: Double
    /// The governor's target frame rate in hertz.
    public var targetFrameRate: Double
    /// The measured frame rate in hertz.
    public var actualFrameRate: Double
    /// The detector runs on every stride-th frame (≥ 1).
    public var inferenceStride: Int

    /// Creates a point; see the properties for units.
    public init(
        timeSeconds: Double, targetFrameRate: Double, actualFrameRate: Double,
        inferenceStride: Int
    ) {
        self.timeSeconds = timeSeconds
        self.targetFrameRate = targetFrameRate
        self.actualFrameRate = actualFrameRate
        self.inferenceStride = inferenceStride
    }
}

/// One row of the quality summary: a named figure already formatted with its unit.
public struct QualityFigure: Sendable, Hashable, Codable {
    /// What is measured, e.g. `MOTA`.
    public var name: String
    /// The formatted value, e.g. `0.87` or `12 (0.3 %)`.
    public var value: String
    /// Whether the figure is a concern (drawn highlighted), e.g. drops above a target.
    public var isConcern: Bool

    /// Creates a row.
    public init(name: String, value: String, isConcern: Bool = false) {
        self.name = name
        self.value = value
        self.isConcern = isConcern
    }
}
