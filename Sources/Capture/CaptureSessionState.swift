import Files
import LaunchTiming
import Locking
import Storage
import Units

/// One run of a session, claimed and with its cameras on the clock, ready for
/// ``CaptureSession/run(_:onFailure:)``: made by ``CaptureSession/prepareRun()``.
public struct PreparedCaptureRun: Sendable {
    let plan: RunPlan
    let participants: [ClockParticipant]
}

/// What one run of the session works from, fixed when it starts.
struct RunPlan: Sendable {
    var configuration: SessionConfiguration
    /// Whether each output's start is deferred (never a preview's).
    var isDeferred: [Bool]
    /// The phase timing each output's initialization.
    var phases: [LaunchPhase]
    /// The camera whose frames feed the preview (the first preview's, else the first camera).
    var previewCamera: String?

    init(_ configuration: SessionConfiguration) {
        self.configuration = configuration
        isDeferred = configuration.outputs.map { $0.isDeferredStartEnabled && $0.kind != .preview }
        var seen: [OutputKind: Int] = [:]
        phases = configuration.outputs.map { output in
            seen[output.kind, default: 0] += 1
            let count = seen[output.kind]!
            let label = count == 1 ? output.kind.rawValue : "\(output.kind.rawValue).\(count)"
            return LaunchPhase.outputInitialization(named: label)
        }
        let preview = configuration.outputs.first { $0.kind == .preview }
        previewCamera =
            preview.flatMap(configuration.cameraID(of:)) ?? configuration.cameras.first?.id
    }
}

/// The session's mutable state, only touched under its lock.
struct CaptureSessionState: Sendable {
    struct OutputState: Sendable {
        var isDeferred: Bool
        var isReady = false
        var resources: OutputResources?
    }

    var configuration: SessionConfiguration
    var committed: SessionConfiguration?
    var committedEstimate: HardwareCostEstimate?
    var isConfiguring = false
    var automaticallyRunsDeferredStart = true

    /// Where the session is in its life; the only record of it.
    var phase = CaptureSessionPhase.stopped
    var plan: RunPlan?
    var outputs: [OutputState] = []
    var rings: [String: FrameRing] = [:]
    /// Whether this run has marked `firstCaptureReady` (the first photo output ready): a mark,
    /// not a phase, since it may come before or after the first preview frame.
    var hasMarkedCaptureReady = false
    /// A request for deferred start in manual mode; it outlives a run that has not started.
    var isDeferredStartRequested = false
    var deferredTrigger: CheckedContinuation<Void, Never>?
    var frameWaiters: [(camera: String, continuation: CheckedContinuation<Frame, any Error>)] = []
    var readinessWaiters: [(index: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var previewFrames = 0
    var encodedMovieFrames = 0
    var droppedFrames = 0
    var frameRateLimit: FrameRate?
    var videoFrameConsumer: CaptureSession.FrameConsumer?

    init(configuration: SessionConfiguration) {
        self.configuration = configuration
    }

    /// Marks the session running with its committed configuration, or says why it cannot run.
    mutating func claim(ringCapacity: Int) throws(CaptureSessionError) -> RunPlan {
        guard let committed else { throw .notCommitted }
        guard !phase.isStarted else { throw .alreadyRunning }
        let plan = RunPlan(committed)
        phase = .starting
        self.plan = plan
        previewFrames = 0
        encodedMovieFrames = 0
        droppedFrames = 0
        outputs = plan.isDeferred.map { OutputState(isDeferred: $0) }
        rings = Dictionary(
            uniqueKeysWithValues: committed.cameras.map {
                ($0.id, FrameRing(capacity: ringCapacity))
            })
        return plan
    }

    /// `previewing` → `running`: lets the deferred outputs start.
    mutating func releaseDeferredStart() {
        phase = .running
        deferredTrigger?.resume()
        deferredTrigger = nil
    }

    /// Back to a stopped session, keeping the configuration.
    mutating func reset() {
        phase = .stopped
        plan = nil
        outputs = []
        rings = [:]
        hasMarkedCaptureReady = false
        isDeferredStartRequested = false
        deferredTrigger = nil
        frameWaiters = []
        readinessWaiters = []
    }
}
