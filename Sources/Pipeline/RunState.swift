import Dock
import Governor
import LaunchTiming
import Pressure
import Units

/// What a run's services share, behind one lock: the frame loop's counts for the current
/// progress period, the latest pressure reading, and what the summary is made of. The
/// settings in force are not in it (``RunSettings``: the governed pipeline holds them), nor is
/// the tracking stage or the lateness window: the frame loop owns them, so the detector and
/// the tracker never run under this lock.
struct RunState {
    /// Frames processed and detector runs so far, published by the frame loop.
    var framesProcessed = 0
    var detectorCalls = 0
    var reading: PressureReading?
    var samples = ThinnedSeries<RunSample>(capacity: PipelineRun.keptSamples)
    /// The latest sample (kept or thinned out).
    var lastSample: RunSample?
    var extremes = PressureExtremes()
    /// The latest governor changes, and how many there were in all.
    var changes: [RunGovernorChange] = []
    var changeCount = 0
    /// Capture restarts the governor could not make, with why.
    var captureFailures: [String] = []
    /// Motor commands the stand refused.
    var refusedMotorCommands = RefusedCommands()
    var framesDropped = 0
    var lastFrameNumber: Int?
    var lastFrameTime: MonotonicInstant?
    var subjects = 0
    var periodFrames = 0
    var periodFramingError = 0.0
    /// IDF1 over the last 30 s, as the frame loop last computed it.
    var recentIDF1: Double?

    /// Counts a governor change.
    mutating func record(_ change: RunGovernorChange) {
        changes.append(change)
        if changes.count > PipelineRun.keptChanges { changes.removeFirst() }
        changeCount += 1
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
