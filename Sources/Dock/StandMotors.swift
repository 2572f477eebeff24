import Tracking

/// The simulated motors of a pan/tilt stand: each axis follows its commanded velocity within
/// the speed limit and an acceleration limit, and stops at the ends of its range (a
/// continuous pan axis turns freely). A value type, stepped in simulated time; it is also a
/// ``Tracking/CameraRig``, so the tracking pipeline can drive it directly.
public struct StandMotors: CameraRig, Sendable {
    /// The validated limits.
    public let limits: StandLimits
    /// The maximum angular acceleration, radians per second², > 0.
    public let maximumAcceleration: Double
    /// The camera's fields of view, for ``pose``.
    public var camera: CameraPose
    /// The motors' state now.
    public private(set) var state: MotionState
    /// The commanded velocities, radians per second (already clamped to the speed limits).
    public private(set) var commandedYawVelocity = 0.0
    /// The commanded pitch velocity, radians per second.
    public private(set) var commandedPitchVelocity = 0.0

    /// Creates motors at rest at `yaw`, `pitch`.
    ///
    /// - Throws: ``DockError/invalidLimits(axis:problem:)`` when the limits are unusable, or
    ///   ``DockError/invalidCommand(_:)`` when the acceleration is not positive and finite.
    public init(
        limits: StandLimits = .standard, maximumAcceleration: Double = 12,
        camera: CameraPose = CameraPose(), yaw: Double = 0, pitch: Double = 0
    ) throws(DockError) {
        try limits.validate()
        guard maximumAcceleration.isFinite, maximumAcceleration > 0 else {
            throw .invalidCommand(
                "maximumAcceleration: expected a positive finite number, got \(maximumAcceleration)"
            )
        }
        self.limits = limits
        self.maximumAcceleration = maximumAcceleration
        self.camera = camera
        state = MotionState(yaw: limits.yaw.clamp(yaw), pitch: limits.pitch.clamp(pitch))
    }

    /// Where the camera points.
    public var pose: CameraPose {
        var pose = camera
        pose.yaw = state.yaw
        pose.pitch = state.pitch
        return pose
    }

    /// Commands velocities, clamped to each axis's speed limit.
    ///
    /// - Throws: ``DockError/invalidCommand(_:)`` when a velocity is not finite.
    public mutating func setVelocity(yaw: Double, pitch: Double) throws(DockError) {
        guard yaw.isFinite, pitch.isFinite else {
            throw .invalidCommand("angular velocity: expected finite numbers, got \(yaw), \(pitch)")
        }
        commandedYawVelocity = min(max(yaw, -limits.yaw.maximumSpeed), limits.yaw.maximumSpeed)
        commandedPitchVelocity = min(
            max(pitch, -limits.pitch.maximumSpeed), limits.pitch.maximumSpeed)
    }

    /// Commands both axes to stand still.
    public mutating func stop() {
        commandedYawVelocity = 0
        commandedPitchVelocity = 0
    }

    /// Advances the motors by `seconds` of simulated time, in steps of at most 5 ms.
    public mutating func advance(by seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        var remaining = seconds
        while remaining > 1e-12 {
            let dt = min(remaining, 0.005)
            remaining -= dt
            let maxChange = maximumAcceleration * dt
            state.yawVelocity += min(
                max(commandedYawVelocity - state.yawVelocity, -maxChange), maxChange)
            state.pitchVelocity += min(
                max(commandedPitchVelocity - state.pitchVelocity, -maxChange), maxChange)
            let yaw = state.yaw + state.yawVelocity * dt
            let pitch = state.pitch + state.pitchVelocity * dt
            state.yaw = limits.yaw.clamp(yaw)
            state.pitch = limits.pitch.clamp(pitch)
            if !limits.yaw.isContinuous && state.yaw != yaw { state.yawVelocity = 0 }
            if state.pitch != pitch { state.pitchVelocity = 0 }
            state.timestamp += dt
        }
    }

    /// Commands velocities (clamped; non-finite ones stop the axis) and advances.
    public mutating func drive(yawVelocity: Double, pitchVelocity: Double, for seconds: Double) {
        do {
            try setVelocity(yaw: yawVelocity, pitch: pitchVelocity)
        } catch {
            commandedYawVelocity = 0
            commandedPitchVelocity = 0
        }
        advance(by: seconds)
    }
}
