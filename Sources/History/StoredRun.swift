import LaunchTiming

/// One run in the history, without its phases.
public struct StoredRun: Hashable, Codable, Sendable {
    /// The run's identifier.
    public var id: RunID
    /// What the run was (`deferred`, `baseline`), as its report said.
    public var label: String
    /// Wall-clock start, in seconds since 1970 (UTC).
    public var startedAt: Double
    /// When its last phase or mark ended, in seconds since its origin.
    public var totalSeconds: Double
    /// When its first preview frame arrived, in seconds since its origin, if it had one.
    public var firstPreviewSeconds: Double?
    /// Why the launch failed, when it did; its figures are left out of statistics.
    public var failure: LaunchFailure?

    /// Creates a stored run's summary.
    public init(
        id: RunID, label: String, startedAt: Double, totalSeconds: Double,
        firstPreviewSeconds: Double?, failure: LaunchFailure? = nil
    ) {
        self.id = id
        self.label = label
        self.startedAt = startedAt
        self.totalSeconds = totalSeconds
        self.firstPreviewSeconds = firstPreviewSeconds
        self.failure = failure
    }

    /// Whether the launch ended well.
    public var isCompleted: Bool { failure == nil }
}
