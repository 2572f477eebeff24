/// Something that points a camera and can be driven with angular velocities: a motorized
/// stand (the `Dock` module's simulated stand implements it) or a fixed tripod.
public protocol CameraRig: Sendable {
    /// Where the camera points now.
    var pose: CameraPose { get }
    /// Commands angular velocities (radians per second; positive yaw turns right, positive
    /// pitch looks up) and lets the rig move for `seconds`.
    mutating func drive(yawVelocity: Double, pitchVelocity: Double, for seconds: Double)
}

/// A camera that never moves: the baseline rig.
public struct FixedRig: CameraRig, Sendable {
    /// The pose it keeps.
    public let pose: CameraPose

    /// Creates a fixed rig at `pose`.
    public init(pose: CameraPose = CameraPose()) { self.pose = pose }

    /// Ignores the command.
    public mutating func drive(yawVelocity: Double, pitchVelocity: Double, for seconds: Double) {}
}
