/// What a running capture session tells its observers, in the order it happens.
public enum CaptureSessionEvent: Hashable, Sendable {
    /// The session started: its non-deferred outputs are ready and frames begin to flow.
    case didStartRunning
    /// The first frame reached the preview (frame number, camera).
    case firstPreviewFrame(frame: Int, camera: String)
    /// The deferred outputs are about to be initialized.
    case willRunDeferredStart
    /// The output at `index` in the configuration finished initializing.
    case outputReady(index: Int, kind: OutputKind)
    /// Every deferred output is ready.
    case didRunDeferredStart
    /// The session failed while running; it stops next.
    case runtimeError(String)
    /// The session stopped; no further frames or events follow until it is started again.
    case didStopRunning
}

/// Why a capture session refused a request.
public enum CaptureSessionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Starting a session that has never been committed.
    case notCommitted
    /// Starting a session that is already running, or committing while it runs.
    case alreadyRunning
    /// Asking a stopped session for frames or photos.
    case notRunning
    /// Capturing a photo in a session without a photo output.
    case noOutput(OutputKind)
    /// Using a deferred output in manual mode before `runDeferredStartWhenNeeded()` was called.
    case deferredStartNotRequested(index: Int, kind: OutputKind)
    /// The session stopped while the request waited.
    case stopped

    /// A sentence naming the request and what to do.
    public var description: String {
        switch self {
        case .notCommitted:
            "the session has no committed configuration; call commitConfiguration() first"
        case .alreadyRunning: "the session is already running"
        case .notRunning: "the session is not running; run it first (whileRunning)"
        case .noOutput(let kind): "the session has no \(kind.rawValue) output"
        case .deferredStartNotRequested(let index, let kind):
            "outputs[\(index)] (\(kind.rawValue)) is deferred and not ready: with"
                + " automaticallyRunsDeferredStart off, call runDeferredStartWhenNeeded() first"
        case .stopped: "the session stopped before the request completed"
        }
    }
}
