import Files
import Units

/// The budgets a capture session draws on.
public enum Budget: String, Codable, Sendable, CaseIterable {
    /// Pixels per second through the imaging pipeline.
    case pixelRate
    /// Bytes per second of memory traffic.
    case memoryBandwidth
    /// Cameras running at once.
    case cameraPorts
    /// Bytes per second the movie outputs write, against the share of the storage reserve's
    /// measured sustained write rate that recordings may use
    /// (``DeviceProfile/recordingWriteBudget``; only when the profile has a rate: `headroom
    /// calibrate` measures it).
    case storageWriteRate
}

/// How much of one budget a session uses.
public struct BudgetUse: Hashable, Codable, Sendable {
    /// The budget.
    public var budget: Budget
    /// What the session asks of it, in the budget's unit (pixels/s, bytes/s, cameras).
    public var demand: Double
    /// What the profile offers, in the same unit.
    public var capacity: Double
    /// The budget's share used, including fixed per-camera overheads; over 1 cannot run.
    public var share: Share
}

/// Why one camera costs what it does: the factors of its demand.
public struct CameraCostFactors: Hashable, Codable, Sendable {
    /// Output pixels per frame (resolution).
    public var pixelsPerFrame: Int
    /// The frame rate paid for: the override, or else the format's maximum, in frames per second.
    public var frameRate: FrameRate
    /// Raw readout relative to output size: below 1 for binned modes, above 1 for full-sensor
    /// modes that are scaled down, 1 for crops.
    public var readoutFactor: Double
    /// Full-frame equivalents of work the camera's outputs add per frame.
    public var outputLoad: Double
    /// How many outputs of each kind are attached to the camera.
    public var outputs: OutputCounts
}

/// How many outputs of each kind a camera feeds.
public struct OutputCounts: Hashable, Codable, Sendable {
    /// On-screen previews.
    public var preview = 0
    /// Full-rate frame consumers.
    public var videoData = 0
    /// Photo outputs.
    public var photo = 0
    /// Recordings.
    public var movie = 0

    /// No outputs.
    public init() {}

    /// The count of `kind`.
    public subscript(kind: OutputKind) -> Int {
        get {
            switch kind {
            case .preview: preview
            case .videoData: videoData
            case .photo: photo
            case .movie: movie
            }
        }
        set {
            switch kind {
            case .preview: preview = newValue
            case .videoData: videoData = newValue
            case .photo: photo = newValue
            case .movie: movie = newValue
            }
        }
    }

    /// Whether no output is counted.
    public var isEmpty: Bool { preview + videoData + photo + movie == 0 }
}

/// One camera's part of a session's hardware cost.
public struct CameraCost: Hashable, Codable, Sendable {
    /// The camera's id.
    public var id: String
    /// The camera's share of the limiting budget (the camera costs sum to the hardware cost).
    public var cost: Share
    /// Its share of the pixel-rate budget, including the per-camera overhead.
    public var pixelRateShare: Share
    /// Its share of the memory-bandwidth budget.
    public var memoryBandwidthShare: Share
    /// Its movie outputs' share of the storage write rate (0 without movie outputs or without
    /// a measured rate).
    public var storageWriteShare: Share = 0
    /// The factors behind those shares.
    public var factors: CameraCostFactors
}

/// The price of a capture session on a device profile, with its breakdown.
///
/// `hardwareCost` behaves like `AVCaptureSession.hardwareCost`: 0…1 fits, over 1 cannot run.
public struct HardwareCostEstimate: Hashable, Codable, Sendable {
    /// The profile the session was priced on.
    public var profile: String
    /// The share of the most used budget; over 1 means the session cannot run.
    public var hardwareCost: Share
    /// Whether the session can run (`hardwareCost <= 1`).
    public var fits: Bool
    /// The budget that sets the cost.
    public var limitingBudget: Budget
    /// Every budget's use.
    public var budgets: [BudgetUse]
    /// Each camera's part, in session order.
    public var cameras: [CameraCost]
}
