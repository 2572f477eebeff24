/// One thing the planner gave up to make a session fit.
public struct Trade: Hashable, Codable, Sendable, CustomStringConvertible {
    /// What kind of thing was given up.
    public enum Kind: String, Hashable, Codable, Sendable {
        /// A camera runs at a lower frame rate.
        case frameRate
        /// A camera runs a binned or smaller format.
        case format
        /// An optional output was dropped.
        case droppedOutput
    }

    /// What kind of thing was given up.
    public var kind: Kind
    /// The camera concerned.
    public var camera: String
    /// Before, as text (`60 fps`, `3840x2160@60 nv12`, `movie`).
    public var from: String
    /// After, as text (`30 fps`, `1920x1080@60 nv12 binned`, `dropped`).
    public var to: String

    /// `back: frame rate 60 fps → 30 fps`.
    public var description: String {
        switch kind {
        case .frameRate: "\(camera): frame rate \(from) → \(to)"
        case .format: "\(camera): format \(from) → \(to)"
        case .droppedOutput: "\(camera): dropped optional \(from) output"
        }
    }
}

/// What the planner found for a session: a configuration that fits with the least loss, what
/// was traded for it, and both estimates.
public struct CapturePlan: Hashable, Codable, Sendable {
    /// How far the planner had to go.
    public enum Strategy: String, Hashable, Codable, Sendable {
        /// The session already fits; nothing was changed.
        case unchanged
        /// Lower frame rates (never below the floor) were enough.
        case frameRate
        /// Binned or smaller formats were needed, with frame rates as high as fit.
        case format
        /// Optional outputs had to be dropped as well.
        case droppedOutputs
        /// Nothing the planner may change makes the session fit; ``CapturePlan/configuration``
        /// is the cheapest it found.
        case impossible
    }

    /// Whether the planned configuration fits.
    public var fits: Bool
    /// How far the planner had to go.
    public var strategy: Strategy
    /// The estimate of the session as given.
    public var original: HardwareCostEstimate
    /// The estimate of the planned configuration.
    public var planned: HardwareCostEstimate
    /// The planned configuration (the given one when it fits).
    public var configuration: SessionConfiguration
    /// What was given up, camera by camera, in session order.
    public var trades: [Trade]
    /// Delivered pixels per second over requested, across cameras (1 = nothing lost).
    public var retainedPixelRate: Double
}
