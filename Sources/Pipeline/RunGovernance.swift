import Capture
import Governor
import HostServer
import HostService
import Locking
import Pressure
import Telemetry
import Units

/// What a run does with each pressure reading the observer takes (the same
/// `PressureObserver` as `serve`'s: on real time its sampling thread, PSI triggers armed; on
/// virtual time its task): offered for export, kept for the progress samples, given to the
/// host service — whose governor decides for every client, the run's pipeline among them —
/// and, when the governor's advice for the pipeline changes, applied in one place: the
/// settings decided (held by the ``GovernedPipeline``) pushed to the owners of
/// the two knobs — the frame rate to the session, the inference to the frame loop — and
/// capture stopped or restarted.
///
/// The pipeline's lateness does not pass through here: the frame loop reports it to the
/// governor as it closes each window (``LatenessWindow``), as a remote client reports its own.
struct RunGovernance: Sendable {
    /// The host service the readings go to (its governor, events and metrics).
    var service: HostService
    /// The run's pipeline as a client of the service's governor; nil when not governed.
    var pipeline: GovernedPipeline?
    /// The capture the governor stops and restarts, and whose frame rate it caps.
    var capture: CaptureService
    /// The frame loop whose inference the governor sets.
    var frames: FrameLoop
    /// The video played, if the run plays one.
    var video: VideoFrameSource?
    var state: LockedState<RunState>
    var metrics: HeadroomMetrics
    /// Where each reading goes for `/metrics` and `/status`.
    var exported: ExportedPressure
    /// When the run started.
    var start: MonotonicInstant

    /// Takes one reading; quick and never blocking (it may run on the sampling thread).
    func take(_ reading: PressureReading) {
        exported.offer(reading)
        state.withLock { $0.reading = reading }
        service.consume(reading)
        if let change = pipeline?.follow(sustainableShare: reading.sustainableShare) {
            apply(change)
        }
    }

    /// Returns once what the last reading set going is done: a stop of capture (on virtual
    /// time, no frame comes after the instant the governor stopped capture). With capture
    /// stopped, a video played frame by frame whose last frame was consumed ends now
    /// (``VideoFrameSource/settleEnd()``), rather than whenever capture comes back.
    func settle() async {
        await capture.untilStopped()
        if capture.isStopped { await video?.settleEnd() }
    }

    /// Applies a governor change: the session's frame rate, the frame loop's settings, and
    /// capture stopped or restarted.
    /// A restart that fails is noted, and the pipeline marked as not capturing (the next
    /// advice to capture tries again).
    private func apply(_ change: GovernorChange) {
        let recorded = RunGovernorChange(change, since: start)
        metrics.countGovernorChange()
        state.withLock { $0.record(recorded) }
        capture.session.limitFrameRate(to: change.to.frameRate)
        frames.apply(change.to)
        if change.from.isCapturing && !change.to.isCapturing {
            capture.requestStop()
        } else if !change.from.isCapturing && change.to.isCapturing {
            do {
                try capture.start()
            } catch {
                pipeline?.markCaptureStopped()
                state.withLock { state in
                    state.captureFailures.append(
                        "capture could not restart at \(recorded.time.seconds.fixed(1)) s: \(error)"
                    )
                }
            }
        }
    }
}
