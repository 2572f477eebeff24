import Dock
import Testing
import Tracking
import Units

@Suite struct ClosedLoopTests {
    /// One person walking from the centre to 65° right (seed 18 of the uniform scene, beyond
    /// the camera's 35° half field of view): a still camera loses them, the stand keeps them
    /// framed.
    @Test func standKeepsAWalkingSubjectFramed() throws {
        var scene = SyntheticScene.Configuration()
        scene.people = 1
        scene.seed = 18
        scene.style = .uniform
        scene.sectorHalfWidth = 1.2
        var onStand = try SceneRun(
            scene: scene, rig: try StandMotors(), width: 320, height: 180,
            tracker: TrackerConfiguration(), scale: 0.5, stride: 2, frameRate: 30)
        let followed = onStand.run(duration: .seconds(15))
        var still = try SceneRun(
            scene: scene, rig: FixedRig(), width: 320, height: 180,
            tracker: TrackerConfiguration(), scale: 0.5, stride: 2, frameRate: 30)
        let fixed = still.run(duration: .seconds(15))
        #expect(followed.framedFraction > 0.8)
        #expect(followed.meanFramingError < 0.12)
        #expect(followed.meanFramingError < fixed.meanFramingError)
        // The walker ends near 55°, beyond the still camera's half field of view (35°).
        #expect(followed.rig.state.yaw > 0.61, "the stand should have turned right")
        #expect(fixed.framedFraction < 0.5)
    }
}
