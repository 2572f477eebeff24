import Pressure
import Units

/// What the governor decided for a pipeline: its settings before and after, the level, the
/// cost, and why. A change carries it with when it happened (``GovernorChange`` on the
/// governor's clock, a run's report as the time since the run's start).
public struct GovernorDecision: Hashable, Sendable, Codable {
    /// The settings before.
    public var from: PipelineSettings
    /// The settings after.
    public var to: PipelineSettings
    /// The host's pressure level at the time.
    public var level: PressureLevel
    /// The system pressure cost of the new settings (hardware cost over the sustainable share).
    public var systemPressureCost: Double
    /// Why, in words: `serious: cap 20 fps, stride 3 @ 1.0 by the policy`.
    public var reason: String

    /// A decision with every field given.
    public init(
        from: PipelineSettings, to: PipelineSettings, level: PressureLevel,
        systemPressureCost: Double, reason: String
    ) {
        self.from = from
        self.to = to
        self.level = level
        self.systemPressureCost = systemPressureCost
        self.reason = reason
    }
}

/// One change of a pipeline's settings, when it happened on the clock the governor is fed by
/// (a run's clock); its decision's fields read as its own (`change.to`, `change.reason`).
@dynamicMemberLookup
public struct GovernorChange: Hashable, Sendable {
    /// When it happened; reports give it as the time since their start.
    public var instant: MonotonicInstant
    /// What was decided.
    public var decision: GovernorDecision

    /// `decision`, made at `instant`.
    public init(instant: MonotonicInstant, decision: GovernorDecision) {
        self.instant = instant
        self.decision = decision
    }

    /// The decision's fields.
    public subscript<Value>(dynamicMember field: KeyPath<GovernorDecision, Value>) -> Value {
        decision[keyPath: field]
    }
}
