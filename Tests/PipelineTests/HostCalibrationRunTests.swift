import Capture
import TestSupport
import Testing
import Units

@testable import Pipeline

/// One calibration configuration through the real capture session, renderer, detector and
/// tracker. Only what was measured is checked, never how long anything took.
struct HostCalibrationRunTests {
    @Test("a configuration's frames are drawn, detected and tracked, and their CPU time counted")
    func measuresTheRealPipeline() async throws {
        var calibration = HostCalibration(seconds: 5)
        // Other suites may hold every thread for a while (CI's first run after a cold build
        // saw no frame in ten windows): the window waits for its frames until only a hang
        // would keep them away.
        calibration.patience = hangBound / .seconds(calibration.window)
        let point = CalibrationPoint(width: 160, height: 90, frameRate: 20)
        let measurement = try await calibration.measure(point) { _ in }
        #expect(measurement.point == point)
        // From one frame done to another: whole frames (a few, unless the machine starved it).
        #expect(measurement.seconds > 0)
        #expect(measurement.frames > 0)
        #expect(measurement.readoutCPUSeconds > 0)
        #expect(measurement.consumerCPUSeconds > 0)
        #expect(measurement.processCPUSeconds > 0)
        #expect(measurement.cores >= 1)
    }

    @Test("every rung of the detector's ladder is priced by the CPU time its frames took")
    func pricesEveryRung() throws {
        let calibration = HostCalibration(seconds: 5)
        let costs = try calibration.priceRungs()
        #expect(costs.map(\.setting) == calibration.detector.inferenceLadder)
        #expect(costs.allSatisfy { $0.cpuMillisecondsPerFrame > 0 })
        var profile = DeviceProfile.genericDesktop
        profile.rungCosts = costs
        let relative = try #require(profile.measuredCosts(of: calibration.detector.inferenceLadder))
        #expect(relative.first == 1)
        // A ladder with a rung nobody measured is priced as assumed, not in part.
        #expect(
            profile.measuredCosts(
                of: calibration.detector.inferenceLadder + [InferenceSetting(stride: 7, scale: 1)])
                == nil)
    }

    @Test("cancelling a calibration stops it with CancellationError")
    func cancellation() async throws {
        let calibration = HostCalibration(seconds: 600)
        let task = Task { try await calibration.run() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
