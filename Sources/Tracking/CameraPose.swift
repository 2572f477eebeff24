/// Where a camera on a pan/tilt stand points, and what it sees.
public struct CameraPose: Sendable, Hashable, Codable {
    /// The pan angle in radians; positive turns right.
    public var yaw: Double
    /// The tilt angle in radians; positive looks up.
    public var pitch: Double
    /// The horizontal field of view in radians, 0 < fov < π.
    public var horizontalFieldOfView: Double
    /// The vertical field of view in radians, 0 < fov < π.
    public var verticalFieldOfView: Double

    /// Creates a pose; the default fields of view are a typical 16:9 webcam's 70° × 43°.
    public init(
        yaw: Double = 0, pitch: Double = 0, horizontalFieldOfView: Double = 70 * .pi / 180,
        verticalFieldOfView: Double = 43 * .pi / 180
    ) {
        self.yaw = yaw
        self.pitch = pitch
        self.horizontalFieldOfView = horizontalFieldOfView
        self.verticalFieldOfView = verticalFieldOfView
    }

    /// The normalized top-left image position (0...1 inside the view) of a world direction.
    public func imagePoint(yaw worldYaw: Double, pitch worldPitch: Double) -> (x: Double, y: Double)
    {
        var delta = (worldYaw - yaw).truncatingRemainder(dividingBy: 2 * .pi)
        if delta > .pi { delta -= 2 * .pi }
        if delta < -.pi { delta += 2 * .pi }
        return (
            0.5 + delta / horizontalFieldOfView, 0.5 - (worldPitch - pitch) / verticalFieldOfView
        )
    }
}
