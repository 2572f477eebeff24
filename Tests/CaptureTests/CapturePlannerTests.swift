import Capture
import Foundation
import Testing
import Units

/// The planner: fits with the least loss, in the documented order, deterministically.
struct CapturePlannerTests {
    static let fourK = CameraFormat(width: 3840, height: 2160, maxFrameRate: 60)

    func dual4K60(movieIsOptional: Bool = true) -> SessionConfiguration {
        SessionConfiguration(
            profile: "jetson-orin-nx",
            cameras: [
                CameraConfiguration(id: "back", format: Self.fourK),
                CameraConfiguration(id: "front", format: Self.fourK),
            ],
            outputs: [
                CaptureOutput(kind: .preview, camera: "back"),
                CaptureOutput(kind: .videoData, camera: "back"),
                CaptureOutput(kind: .videoData, camera: "front"),
                CaptureOutput(kind: .movie, camera: "back", isOptional: movieIsOptional),
            ])
    }

    let estimator = HardwareCostEstimator(profile: .jetsonOrinNX)

    @Test("a session that fits is left unchanged")
    func unchanged() {
        var session = dual4K60()
        session.cameras.removeLast()
        session.outputs = [CaptureOutput(kind: .videoData)]
        session.cameras[0].frameRateOverride = 30
        let plan = CapturePlanner(estimator: estimator).plan(for: session)
        #expect(plan.strategy == .unchanged)
        #expect(plan.configuration == session)
        #expect(plan.trades.isEmpty)
    }

    @Test("frame rates are lowered first, never below the floor, and the result fits")
    func lowersFrameRates() {
        let plan = CapturePlanner(estimator: estimator).plan(for: dual4K60())
        #expect(plan.fits)
        #expect(plan.strategy == .frameRate)
        #expect(plan.planned.hardwareCost <= 1)
        #expect(
            plan.configuration.cameras.allSatisfy { $0.frameRate >= 15 && $0.format == Self.fourK })
        #expect(plan.configuration.outputs == dual4K60().outputs)
        #expect(plan.trades.allSatisfy { $0.kind == .frameRate })
        #expect(plan.retainedPixelRate < 1 && plan.retainedPixelRate > 0)
    }

    @Test("the plan is as good as any single-step-better neighbour allows (no camera can step up)")
    func cannotStepUp() {
        let planner = CapturePlanner(estimator: estimator)
        let plan = planner.plan(for: dual4K60())
        for index in plan.configuration.cameras.indices {
            let camera = plan.configuration.cameras[index]
            let higher = planner.frameRates(for: camera.format, requested: 60).filter {
                $0 > camera.frameRate
            }
            for rate in higher {
                var better = plan.configuration
                better.cameras[index].frameRateOverride = rate
                #expect(estimator.hardwareCost(of: better) > 1, "\(camera.id) could run at \(rate)")
            }
        }
    }

    @Test("when frame rates cannot make it fit, binned or smaller formats are chosen")
    func switchesFormats() {
        let planner = CapturePlanner(estimator: estimator, minimumFrameRate: 60)
        let plan = planner.plan(for: dual4K60(movieIsOptional: false))
        #expect(plan.fits)
        #expect(plan.strategy == .format)
        #expect(plan.trades.contains { $0.kind == .format })
        for camera in plan.configuration.cameras {
            #expect(camera.format.pixelCount <= Self.fourK.pixelCount)
            #expect(camera.frameRate >= 60)
        }
    }

    @Test("optional outputs are dropped only when nothing else is enough")
    func dropsOptionalOutputs() {
        var session = dual4K60()
        session.cameras = session.cameras.map {
            var camera = $0
            camera.sensor = "none-such"  // no other formats to switch to
            return camera
        }
        let planner = CapturePlanner(estimator: estimator, minimumFrameRate: 30)
        let plan = planner.plan(for: session)
        #expect(plan.strategy == .droppedOutputs)
        #expect(plan.fits)
        #expect(plan.trades.contains { $0.kind == .droppedOutput && $0.from == "movie" })
        #expect(!plan.configuration.outputs.contains { $0.kind == .movie })
    }

    @Test("a session that nothing can fix is reported impossible, with the cheapest configuration")
    func impossible() {
        let format = CameraFormat(width: 1280, height: 720, maxFrameRate: 30)
        let session = SessionConfiguration(
            cameras: (1...5).map { CameraConfiguration(id: "c\($0)", format: format) }, outputs: [])
        let plan = CapturePlanner(estimator: estimator).plan(for: session)
        #expect(!plan.fits)
        #expect(plan.strategy == .impossible)
        #expect(plan.planned.limitingBudget == .cameraPorts)
    }

    @Test("planning is deterministic")
    func deterministic() {
        let planner = CapturePlanner(estimator: estimator, minimumFrameRate: 60)
        #expect(planner.plan(for: dual4K60()) == planner.plan(for: dual4K60()))
    }

    @Test("frame-rate steps stay within the format and above the floor, highest first")
    func frameRateSteps() {
        let planner = CapturePlanner(estimator: estimator, minimumFrameRate: 18)
        let rates = planner.frameRates(
            for: CameraFormat(width: 640, height: 480, minFrameRate: 20, maxFrameRate: 60),
            requested: 55)
        #expect(rates == [55, 50, 48, 30, 25, 24, 20])
    }
}
