import Dock
import Testing

@Suite struct StandLimitsTests {
    @Test(arguments: [
        (
            AxisLimits(minimumAngle: 0.5, maximumAngle: -0.5, maximumSpeed: 1),
            "minimumAngle < maximumAngle"
        ),
        (
            AxisLimits(minimumAngle: 0, maximumAngle: 0, maximumSpeed: 1),
            "minimumAngle < maximumAngle"
        ),
        (AxisLimits(minimumAngle: -1, maximumAngle: 1, maximumSpeed: 0), "maximumSpeed"),
        (AxisLimits(minimumAngle: -1, maximumAngle: 1, maximumSpeed: -2), "maximumSpeed"),
        (AxisLimits(minimumAngle: -1, maximumAngle: 1, maximumSpeed: .nan), "maximumSpeed"),
        (AxisLimits(minimumAngle: -.infinity, maximumAngle: 1, maximumSpeed: 1), "finite"),
    ])
    func invalidPitchLimitsAreRejected(pitch: AxisLimits, problem: String) {
        let limits = StandLimits(yaw: StandLimits.standard.yaw, pitch: pitch)
        do {
            _ = try StandMotors(limits: limits)
            Issue.record("expected invalid limits to be rejected")
        } catch {
            guard case .invalidLimits(let axis, let message) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(axis == .pitch)
            #expect(message.contains(problem))
            #expect(error.description.hasPrefix("pitch limits: "))
        }
    }

    @Test func continuousYawWrapsInsteadOfStopping() throws {
        var motors = try StandMotors()
        try motors.setVelocity(yaw: 3, pitch: 0)
        motors.advance(by: 2.5)  // more than half a turn
        #expect(motors.state.yaw >= -.pi && motors.state.yaw <= .pi)
        #expect(abs(motors.state.yawVelocity - 3) < 1e-9)
    }

    @Test func motorsRespectSpeedAccelerationAndRange() throws {
        var motors = try StandMotors(maximumAcceleration: 10)
        try motors.setVelocity(yaw: 100, pitch: 100)
        #expect(motors.commandedYawVelocity == 3)
        #expect(motors.commandedPitchVelocity == 2)
        motors.advance(by: 0.1)
        #expect(motors.state.yawVelocity <= 1 + 1e-9)  // 10 rad/s² × 0.1 s
        motors.advance(by: 2)
        #expect(abs(motors.state.pitch - .pi / 6) < 1e-9)  // stopped at the tilt limit
        #expect(motors.state.pitchVelocity == 0)
        #expect(abs(motors.state.timestamp - 2.1) < 1e-9)
        #expect(throws: DockError.self) { try motors.setVelocity(yaw: .nan, pitch: 0) }
    }
}
