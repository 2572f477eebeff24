import Dock
import TestSupport
import Testing
import Tracking
import Units

@Suite struct SimulatedStandTests {
    private func stand(yaw: Double = 0.4, pitch: Double = 0.1) throws -> SimulatedStand {
        try SimulatedStand(motors: try StandMotors(yaw: yaw, pitch: pitch))
    }

    @Test func orientationRequestsAreRateLimited() async throws {
        let stand = try stand()
        await stand.setSystemTracking(false)
        try await stand.setOrientation(yaw: 0.2, pitch: 0)
        try await stand.setOrientation(yaw: 0.3, pitch: 0)
        await #expect(throws: DockError.rateLimited(request: "orientation", maximumPerSecond: 2)) {
            try await stand.setOrientation(yaw: 0.4, pitch: 0)
        }
        // Animations share the limit.
        await #expect(throws: DockError.rateLimited(request: "animation", maximumPerSecond: 2)) {
            try await stand.animate(.yes)
        }
        await stand.advance(by: 1.01)
        try await stand.setOrientation(yaw: 0.4, pitch: 0)
        await stand.advance(by: 3)
        let state = await stand.motionState
        #expect(abs(state.yaw - 0.4) < 0.01)
    }

    @Test func observationsAreRateLimited() async throws {
        let stand = try stand()
        let observation = Observation(
            rect: NormalizedRect(x: 0.4, y: 0.3, width: 0.1, height: 0.4), kind: .humanBody,
            confidence: 0.9)
        for _ in 0..<30 { try await stand.track([observation]) }
        await #expect(throws: DockError.self) { try await stand.track([observation]) }
        await stand.advance(by: 1 / 30.0 + 1e-6)
        // After one tick the oldest has left the one-second window... not yet: all 30 were at
        // t = 0, so they leave together after a second.
        await #expect(throws: DockError.self) { try await stand.track([observation]) }
        await stand.advance(by: 1)
        try await stand.track([observation])
    }

    @Test func invalidRatesAreRejected() throws {
        #expect(throws: DockError.self) {
            try SimulatedStand(motors: try StandMotors(), observationsPerSecond: 60)
        }
        #expect(throws: DockError.self) {
            try SimulatedStand(motors: try StandMotors(), requestsPerSecond: 0)
        }
    }

    @Test func manualCommandsNeedTrackingOffAndADevice() async throws {
        let stand = try stand()
        await #expect(throws: DockError.systemTrackingEnabled) {
            try await stand.setAngularVelocity(yaw: 1, pitch: 0)
        }
        await stand.setSystemTracking(false)
        try await stand.setAngularVelocity(yaw: 1, pitch: 0)
        await stand.advance(by: 0.5)
        #expect(await stand.motionState.yawVelocity > 0.9)
        await stand.undock()
        await stand.advance(by: 0.5)
        #expect(await stand.motionState.yawVelocity == 0)
        await #expect(throws: DockError.notDocked) { try await stand.animate(.no) }
    }

    @Test(arguments: StandAnimation.allCases)
    func animationsStartAndEndAtTheCurrentPose(animation: StandAnimation) async throws {
        let stand = try stand(yaw: 0.4, pitch: 0.1)
        await stand.setSystemTracking(false)
        let start = await stand.motionState
        let events = await stand.events()
        try await stand.animate(animation)
        var farthest = 0.0
        let steps = Int((animation.trajectory.duration + 1.5) / 0.02)
        for _ in 0..<steps {
            await stand.advance(by: 0.02)
            let state = await stand.motionState
            farthest = max(farthest, abs(state.yaw - start.yaw) + abs(state.pitch - start.pitch))
        }
        let end = await stand.motionState
        #expect(farthest > 0.1, "the animation should move the stand")
        #expect(abs(end.yaw - start.yaw) < 0.005)
        #expect(abs(end.pitch - start.pitch) < 0.005)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .animationFinished(animation))
    }

    @Test func trajectoriesBeginAndEndAtZeroOffset() {
        for animation in StandAnimation.allCases {
            let trajectory = animation.trajectory
            #expect(trajectory.offset(at: 0) == (0, 0))
            #expect(trajectory.offset(at: trajectory.duration) == (0, 0))
            #expect(trajectory.duration > 0)
        }
    }

    @Test func runEndsCleanlyOnCancellation() async throws {
        let stand = try stand()
        await stand.setSystemTracking(false)
        try await stand.setAngularVelocity(yaw: 1, pitch: 0)
        let task = Task { try await stand.run(tick: .milliseconds(1), clock: ContinuousRunClock()) }
        // Wait until the loop has advanced stand time, whatever the machine's speed.
        #expect(await waitUntil { await stand.motionState.timestamp > 0 })
        task.cancel()
        try await task.value
        #expect(await stand.motionState.timestamp > 0)
    }

    @Test func eventsArriveInOrder() async throws {
        let stand = try stand()
        let events = await stand.events()
        await stand.undock()
        await stand.dock()
        await stand.pressTrackingButton()
        await stand.pressTrackingButton()
        var received: [DockEvent] = []
        for await event in events {
            received.append(event)
            if received.count == 6 { break }
        }
        #expect(
            received == [
                .undocked, .docked, .trackingButtonPressed, .systemTrackingChanged(false),
                .trackingButtonPressed, .systemTrackingChanged(true),
            ])
    }

    @Test func systemTrackingTurnsTowardTheObservedSubject() async throws {
        let stand = try stand(yaw: 0, pitch: 0)
        await stand.setFramingMode(.center)
        // A subject right of centre: the stand pans right until it is centred.
        for _ in 0..<10 {
            try await stand.track([
                Observation(
                    rect: NormalizedRect(x: 0.75, y: 0.3, width: 0.1, height: 0.4),
                    kind: .humanBody, confidence: 0.9, identifier: 4)
            ])
            await stand.advance(by: 0.1)
        }
        #expect(await stand.motionState.yaw > 0.1)
        let framing = try #require(await stand.lastFraming)
        #expect(framing.errorX > 0)
    }
}
