import Governor
import Locking
import Pressure
import Units

/// The pipeline's work as the thermal model's load: what its current settings cost relative to
/// full settings (``PipelineSettings/load(relativeTo:)``: frame rate, and the detector's stride
/// and scale), not this host's CPU. The model then heats with what the pipeline is asked to do,
/// so a run is the same on any machine, and the governor's cuts cool it.
final class ModelledLoad: LoadSource {
    private let settings: @Sendable () -> PipelineSettings
    private let requestedFrameRate: FrameRate

    /// The load of the settings `settings` returns, relative to full settings at
    /// `requestedFrameRate`.
    init(requestedFrameRate: FrameRate, settings: @escaping @Sendable () -> PipelineSettings) {
        self.requestedFrameRate = requestedFrameRate
        self.settings = settings
    }

    /// The current settings' load, 0 (capture stopped) to 1 (full settings).
    func load(at time: MonotonicInstant) -> Double {
        min(1, max(0, settings().load(relativeTo: requestedFrameRate)))
    }
}
