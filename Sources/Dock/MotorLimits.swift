/// The limits of one motor axis: its position range and maximum speed.
public struct AxisLimits: Sendable, Hashable, Codable {
    /// The lowest reachable angle, in radians.
    public var minimumAngle: Double
    /// The highest reachable angle, in radians.
    public var maximumAngle: Double
    /// The highest angular speed, in radians per second, > 0.
    public var maximumSpeed: Double
    /// Whether the axis turns without end (a 360° pan); the angle range is then ignored.
    public var isContinuous: Bool

    /// Creates limits; call ``StandLimits/validate()`` (or use them in a stand) to check them.
    public init(
        minimumAngle: Double, maximumAngle: Double, maximumSpeed: Double, isContinuous: Bool = false
    ) {
        self.minimumAngle = minimumAngle
        self.maximumAngle = maximumAngle
        self.maximumSpeed = maximumSpeed
        self.isContinuous = isContinuous
    }

    /// Clamps an angle into the range (continuous axes wrap into -π...π instead).
    public func clamp(_ angle: Double) -> Double {
        if isContinuous {
            var wrapped = angle.truncatingRemainder(dividingBy: 2 * .pi)
            if wrapped > .pi { wrapped -= 2 * .pi }
            if wrapped < -.pi { wrapped += 2 * .pi }
            return wrapped
        }
        return min(max(angle, minimumAngle), maximumAngle)
    }
}

/// The limits of both axes of a stand: yaw (pan) and pitch (tilt).
public struct StandLimits: Sendable, Hashable, Codable {
    /// The yaw (pan) axis.
    public var yaw: AxisLimits
    /// The pitch (tilt) axis.
    public var pitch: AxisLimits

    /// Creates limits for both axes.
    public init(yaw: AxisLimits, pitch: AxisLimits) {
        self.yaw = yaw
        self.pitch = pitch
    }

    /// A typical tabletop stand: 360° pan at 3 rad/s, tilt ±30° at 2 rad/s.
    public static let standard = StandLimits(
        yaw: AxisLimits(minimumAngle: -.pi, maximumAngle: .pi, maximumSpeed: 3, isContinuous: true),
        pitch: AxisLimits(minimumAngle: -.pi / 6, maximumAngle: .pi / 6, maximumSpeed: 2))

    /// Checks both axes.
    ///
    /// - Throws: ``DockError/invalidLimits(axis:problem:)`` for non-finite values, an empty
    ///   or inverted range, or a speed that is not positive.
    public func validate() throws(DockError) {
        try Self.validate(yaw, axis: .yaw)
        try Self.validate(pitch, axis: .pitch)
    }

    private static func validate(_ limits: AxisLimits, axis: Axis) throws(DockError) {
        guard limits.maximumSpeed.isFinite, limits.maximumSpeed > 0 else {
            throw .invalidLimits(
                axis: axis,
                problem:
                    "maximumSpeed: expected a positive finite number, got \(limits.maximumSpeed)")
        }
        guard !limits.isContinuous else { return }
        guard limits.minimumAngle.isFinite, limits.maximumAngle.isFinite else {
            throw .invalidLimits(axis: axis, problem: "angle range: expected finite angles")
        }
        guard limits.minimumAngle < limits.maximumAngle else {
            throw .invalidLimits(
                axis: axis,
                problem:
                    "angle range: expected minimumAngle < maximumAngle, got \(limits.minimumAngle)...\(limits.maximumAngle)"
            )
        }
    }
}

/// A motor axis of the stand.
public enum Axis: String, Sendable, Hashable, CaseIterable, Codable {
    /// Pan, around the vertical axis.
    case yaw
    /// Tilt, around the horizontal axis.
    case pitch
}
