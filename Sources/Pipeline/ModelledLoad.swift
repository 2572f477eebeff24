import Governor
import Locking
import Pressure
import Units

/// The pipeline's work as the thermal model's load: what its current settings cost relative to
/// the full settings it started at (``PipelineSettings/load(relativeTo:)``: frame rate, and the
/// detector's stride, scale and regions), not this host's CPU. The model then heats with what
/// the pipeline is asked to do, so a run is the same on any machine, and the governor's cuts
/// cool it: whatever the top rung costs, a rung that halves the work halves the load.
final class ModelledLoad: LoadSource {
    private let settings: @Sendable () -> PipelineSettings
    private let full: PipelineSettings

    /// The load of the settings `settings` returns, relative to `full`.
    init(full: PipelineSettings, settings: @escaping @Sendable () -> PipelineSettings) {
        self.full = full
        self.settings = settings
    }

    /// The current settings' load, 0 (capture stopped) to 1 (full settings).
    func load(at time: MonotonicInstant) -> Double {
        let fullLoad = full.load(relativeTo: full.frameRate)
        guard fullLoad > 0 else { return 0 }
        return min(1, max(0, settings().load(relativeTo: full.frameRate) / fullLoad))
    }
}
