/// The stand's motors at one instant: angular positions and velocities.
public struct MotionState: Sendable, Hashable, Codable {
    /// Pan angle, radians (continuous axes wrap into -π...π).
    public var yaw: Double
    /// Tilt angle, radians.
    public var pitch: Double
    /// Pan velocity, radians per second.
    public var yawVelocity: Double
    /// Tilt velocity, radians per second.
    public var pitchVelocity: Double
    /// Seconds of stand time when the state was taken.
    public var timestamp: Double

    /// Creates a state.
    public init(
        yaw: Double = 0, pitch: Double = 0, yawVelocity: Double = 0, pitchVelocity: Double = 0,
        timestamp: Double = 0
    ) {
        self.yaw = yaw
        self.pitch = pitch
        self.yawVelocity = yawVelocity
        self.pitchVelocity = pitchVelocity
        self.timestamp = timestamp
    }
}
