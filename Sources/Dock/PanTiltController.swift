import Tracking

/// Turns a framing error into pan and tilt angular-velocity commands: a proportional term on
/// the angular error plus the subject's own angular velocity (feed-forward), so a walking
/// subject is followed without lag.
public struct PanTiltController: Sendable, Hashable {
    /// Proportional gain, per second: 1 / the time to close an error.
    public var gain: Double
    /// Errors smaller than this (picture units) are ignored so the stand does not hunt.
    public var deadband: Double

    /// Creates a controller.
    public init(gain: Double = 4, deadband: Double = 0.01) {
        self.gain = gain
        self.deadband = deadband
    }

    /// The commanded velocities in radians per second (positive yaw turns right, positive
    /// pitch looks up).
    ///
    /// - Parameters:
    ///   - framing: this frame's framing, or nil to stop.
    ///   - pose: the camera pose (for the fields of view).
    ///   - subjectVelocity: the primary subject's velocity in picture units per second
    ///     relative to the world (not the image), if known.
    public func command(
        for framing: FramingResult?, pose: CameraPose,
        subjectVelocity: (x: Double, y: Double) = (0, 0)
    ) -> (yaw: Double, pitch: Double) {
        guard let framing else { return (0, 0) }
        let errorX = abs(framing.errorX) < deadband ? 0 : framing.errorX
        let errorY = abs(framing.errorY) < deadband ? 0 : framing.errorY
        let yaw = (gain * errorX + subjectVelocity.x) * pose.horizontalFieldOfView
        let pitch = -(gain * errorY + subjectVelocity.y) * pose.verticalFieldOfView
        return (yaw, pitch)
    }
}
