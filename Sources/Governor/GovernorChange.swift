import Pressure
import Units

/// One change of a pipeline's settings, with why it happened.
public struct GovernorChange: Hashable, Sendable {
    /// When it happened, on the clock the governor is fed by (a run's clock); reports give it
    /// as the time since their start.
    public var instant: MonotonicInstant
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
}
