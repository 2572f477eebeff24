import LaunchTiming
import Units

/// One run in the history, without its phases.
public struct StoredRun: Hashable, Codable, Sendable {
    /// The run's identifier.
    public var id: RunID
    /// What the run was (`deferred`, `baseline`), as its report said.
    public var label: String
    /// Wall-clock start, in seconds since 1970 (UTC).
    public var startedAt: Double
    /// When its last phase or mark ended, since its origin (`totalSeconds` in JSON).
    @SecondsCoded public var total: Duration
    /// When its first preview frame arrived, since its origin, if it had one
    /// (`firstPreviewSeconds` in JSON).
    @OptionalSecondsCoded public var firstPreview: Duration?
    /// Why the launch failed, when it did; its figures are left out of statistics.
    public var failure: LaunchFailure?

    /// Creates a stored run's summary.
    public init(
        id: RunID, label: String, startedAt: Double, total: Duration, firstPreview: Duration?,
        failure: LaunchFailure? = nil
    ) {
        self.id = id
        self.label = label
        self.startedAt = startedAt
        self.total = total
        self.firstPreview = firstPreview
        self.failure = failure
    }

    private enum CodingKeys: String, CodingKey {
        case id, label, startedAt, failure
        case total = "totalSeconds"
        case firstPreview = "firstPreviewSeconds"
    }

    /// Whether the launch ended well.
    public var isCompleted: Bool { failure == nil }
}
