/// Something that happened to the stand, as its event stream reports it.
public enum DockEvent: Sendable, Hashable {
    /// A device was placed on the stand.
    case docked
    /// The device was taken off the stand.
    case undocked
    /// The user pressed the tracking button.
    case trackingButtonPressed
    /// System tracking was turned on (true) or off (false).
    case systemTrackingChanged(Bool)
    /// An animation finished and the stand is back at the pose it started from.
    case animationFinished(StandAnimation)
}
