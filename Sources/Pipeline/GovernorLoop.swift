import Capture
import Governor
import HostService
import LaunchTiming
import Locking
import Pressure
import Telemetry
import Units

/// The pressure sampler and the governor, as one service on the run's clock: a reading every
/// interval (sooner within reach of a threshold), classified, offered for export, and given to
/// the host service, whose governor decides for every client — the run's pipeline among them,
/// after it told its lateness. The pipeline's changes go to the capture session (frame rate,
/// stop and restart) and to the frame loop (stride and scale) through the run's state. It ends
/// when its pressure source runs out (a replayed trace), which ends the run.
struct GovernorLoop: Sendable {
    var source: any SampleSource
    var classifier: PressureClassifier
    /// The host service the readings go to (its governor, events and metrics).
    var service: HostService
    /// The run's pipeline as a client of the service's governor; nil when not governed.
    var pipeline: GovernedPipeline?
    /// The capture the governor stops and restarts, and whose frame rate it caps.
    var capture: CaptureService
    var state: LockedState<RunState>
    var metrics: HeadroomMetrics
    /// Where each reading goes for `/metrics` and `/status`.
    var exported: ExportedPressure
    var clock: any RunClock
    /// The time between readings within reach of a threshold.
    var interval: Duration
    /// When the run started.
    var start: MonotonicInstant
    var shedsForLateness: Bool

    /// Samples, classifies and governs until cancelled or the source runs out.
    ///
    /// - Throws: `CancellationError` when cancelled.
    func run() async throws {
        var classifier = classifier
        while true {
            try Task.checkCancellation()
            let now = clock.now
            guard let sample = source.sample(at: now) else { return }
            let reading = classifier.classify(sample)
            exported.offer(reading)
            let lateShare = state.withLock { state in
                state.reading = reading
                return shedsForLateness ? state.lateShare : .zero
            }
            pipeline?.reportLateness(lateShare, at: now)
            service.consume(reading)
            if let change = pipeline?.follow(sustainableShare: reading.sustainableShare, at: now) {
                await apply(change, at: now)
            }
            let pause = PressureObserver.pace(
                after: reading, interval: interval,
                slowInterval: classifier.configuration.sampling.slowInterval)
            try await clock.sleep(until: now.advanced(by: pause))
        }
    }

    /// Applies a governor change: the settings, the session's frame rate, and capture stopped
    /// or restarted. A restart that fails is noted, and the settings say capture is stopped.
    private func apply(_ change: GovernorChange, at now: MonotonicInstant) async {
        let recorded = RunGovernorChange(change, since: start)
        metrics.countGovernorChange()
        state.withLock { $0.record(recorded) }
        capture.session.limitFrameRate(to: change.to.frameRate)
        if change.from.isCapturing && !change.to.isCapturing {
            await capture.stop()
        } else if !change.from.isCapturing && change.to.isCapturing {
            do {
                try capture.start()
            } catch {
                state.withLock { state in
                    state.captureFailures.append(
                        "capture could not restart at \(recorded.time.seconds.fixed(1)) s: \(error)"
                    )
                    state.settings.isCapturing = false
                }
            }
        }
    }
}
