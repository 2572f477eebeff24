/// Where a capture session is in its life: one value instead of a bag of flags, changed only
/// by the transitions below (under the session's lock).
///
/// `stopped` → a run's start (``CaptureService``) → `starting` → first preview frame →
/// `previewing` → deferred start released (automatically, by
/// ``CaptureSession/runDeferredStartWhenNeeded()``, or at once when nothing is deferred) →
/// `running`; cancellation → `stopping` → outputs released → `stopped`.
public enum CaptureSessionPhase: String, Hashable, Sendable {
    /// Not running: never started, or stopped.
    case stopped
    /// Started: outputs that are not deferred are initializing and frames flow, but no frame
    /// has reached the preview yet.
    case starting
    /// The first preview frame was delivered; deferred outputs wait for their start (manual
    /// mode until it is requested).
    case previewing
    /// Deferred start was released: every output is started or starting.
    case running
    /// Cancelled: the run is ending and its outputs are being released.
    case stopping

    /// Whether the session counts as running (anything but `stopped`).
    public var isStarted: Bool { self != .stopped }
}
