import Capture
import Dock
import Governor
import LaunchTiming
import Locking
import Storage
import Telemetry
import Tracking
import Units

/// The run's progress, as a service on its clock: every ``PipelineRun/samplePeriod`` a
/// ``RunSample`` from the run's state and the settings in force (which also closes the frame
/// loop's period), published as metrics and handed to `progress`.
struct ProgressSampler: Sendable {
    var state: LockedState<RunState>
    var settings: RunSettings
    var costModel: SystemPressureCost
    var recorder: MovieRecorder?
    var metrics: HeadroomMetrics
    var clock: any RunClock
    var start: MonotonicInstant
    var progress: @Sendable (RunSample) -> Void

    /// Samples until cancelled.
    ///
    /// - Throws: `CancellationError` when cancelled.
    func run() async throws {
        let period = PipelineRun.samplePeriod
        var next = start
        while true {
            next = next.advanced(by: period)
            try await clock.sleep(until: next)
            let time = clock.now.duration(since: start)
            let inForce = settings.current
            let sample = state.withLock { state in
                let sample = Self.sample(
                    of: state, settings: inForce, at: time, costModel: costModel)
                let dropped = sample.framesDropped - (state.lastSample?.framesDropped ?? 0)
                if let previous = state.lastSample {
                    metrics.countFrames(
                        delivered: sample.framesProcessed - previous.framesProcessed,
                        dropped: dropped)
                }
                state.samples.append(sample)
                state.lastSample = sample
                state.extremes.add(sample)
                state.periodFrames = 0
                state.periodFramingError = 0
                return sample
            }
            metrics.publishPipeline(
                targetFrameRate: sample.targetFrameRate.framesPerSecond,
                actualFrameRate: sample.actualFrameRate.framesPerSecond,
                inferenceStride: sample.stride)
            metrics.publishSystemPressureCost(sample.systemPressureCost)
            recorder?.publish()
            progress(sample)
        }
    }

    /// The sample of the period that ends at `time` since the start.
    private static func sample(
        of state: RunState, settings: PipelineSettings, at time: Duration,
        costModel: SystemPressureCost
    ) -> RunSample {
        let period = PipelineRun.samplePeriod
        let reading = state.reading
        let temperatures =
            reading?.sensors.compactMap { $0.isStale ? nil : $0.celsius?.value } ?? []
        let share = reading?.sustainableShare ?? .whole
        return RunSample(
            time: time,
            level: reading?.level ?? .nominal,
            cause: reading.flatMap { reading in
                reading.level > .nominal
                    ? reading.factors.max { $0.level < $1.level }?.kind.rawValue : nil
            },
            temperature: temperatures.max(), isSimulated: reading?.simulated ?? false,
            targetFrameRate: settings.frameRate,
            actualFrameRate: FrameRate(oneFrameEvery: period) * Double(state.periodFrames),
            stride: settings.inference.stride, scale: settings.inference.scale,
            isCapturing: settings.isCapturing, subjects: state.subjects,
            framingError: state.periodFrames > 0
                ? state.periodFramingError / Double(state.periodFrames)
                : FramingError.missed,
            systemPressureCost: costModel.cost(
                atFrameRate: settings.frameRate, sustainableShare: share),
            framesProcessed: state.framesProcessed,
            framesDropped: state.framesDropped, governorChanges: state.changeCount,
            detectorCalls: state.detectorCalls,
            latestChangeTime: state.changes.last?.time, recentIDF1: state.recentIDF1)
    }
}
