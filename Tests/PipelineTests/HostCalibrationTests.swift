import Capture
import Files
import Foundation
import Pipeline
import Testing
import Tracking
import Units

/// Calibration's arithmetic and the profile it writes, on synthetic measurements: nothing here
/// is timed.
struct HostCalibrationTests {
    /// The host a set of synthetic measurements comes from.
    struct Host {
        var pixelRate: Double
        var videoDataWeight: Double
        var overhead: Double
        var readoutSecondsPerPixel = 4e-9
        var cores = 2

        /// What measuring `point` for `seconds` on this host would record, exactly as the
        /// cost model says; `deliveredShare` of its frames processed.
        func measure(_ point: CalibrationPoint, seconds: Double = 2, deliveredShare: Double = 1)
            -> CalibrationMeasurement
        {
            let frames = Int(
                (point.frameRate.framesPerSecond * Double(point.cameras) * seconds * deliveredShare)
                    .rounded())
            let pixels = Double(frames * point.pixelsPerFrame)
            let demand = pixels / seconds * (1 + videoDataWeight)
            let utilization = demand / pixelRate + overhead * Double(point.cameras)
            return CalibrationMeasurement(
                point: point, seconds: seconds, frames: frames, droppedFrames: 0,
                processCPUSeconds: utilization * seconds * Double(cores),
                readoutCPUSeconds: pixels * readoutSecondsPerPixel,
                consumerCPUSeconds: pixels * readoutSecondsPerPixel * videoDataWeight,
                cores: cores)
        }
    }

    static let hosts = [
        Host(pixelRate: 3.2e8, videoDataWeight: 4, overhead: 0.01),
        Host(pixelRate: 6e8, videoDataWeight: 1, overhead: 0.03),
        Host(pixelRate: 1.5e9, videoDataWeight: 0.5, overhead: 0, readoutSecondsPerPixel: 1e-9),
        Host(pixelRate: 4e7, videoDataWeight: 2.5, overhead: 0.2, cores: 4),
    ]

    @Test("the fit recovers the pixel rate, videoData weight and overhead of the host measured")
    func fitRecoversParameters() throws {
        for host in Self.hosts {
            let measurements = HostCalibration.defaultFitPoints.map { host.measure($0) }
            let fit = try CalibrationFit(measurements: measurements)
            #expect(abs(fit.pixelRate / host.pixelRate - 1) < 1e-9, "\(host)")
            #expect(abs(fit.videoDataWeight - host.videoDataWeight) < 1e-9, "\(host)")
            #expect(abs(fit.perCameraOverhead - host.overhead) < 1e-9, "\(host)")
            #expect(fit.configurations == measurements.count)
            #expect(abs(fit.readoutSecondsPerPixel - host.readoutSecondsPerPixel) < 1e-18)
        }
    }

    @Test("with one- and two-camera configurations the overhead is per camera")
    func fitSeparatesPerCameraOverhead() throws {
        let host = Host(pixelRate: 5e8, videoDataWeight: 2, overhead: 0.04)
        let points =
            HostCalibration.defaultFitPoints
            + HostCalibration.defaultFitPoints.map {
                CalibrationPoint(
                    width: $0.width, height: $0.height, frameRate: $0.frameRate, cameras: 2)
            }
        let fit = try CalibrationFit(measurements: points.map { host.measure($0) })
        #expect(abs(fit.pixelRate / host.pixelRate - 1) < 1e-9)
        #expect(abs(fit.perCameraOverhead - host.overhead) < 1e-9)
    }

    @Test("a negative intercept is fitted through the origin: the overhead is never below 0")
    func overheadIsNeverNegative() throws {
        let host = Host(pixelRate: 5e8, videoDataWeight: 1, overhead: -0.02)
        let measurements = HostCalibration.defaultFitPoints.map { host.measure($0) }
        let fit = try CalibrationFit(measurements: measurements)
        #expect(fit.perCameraOverhead == 0)
        #expect(fit.pixelRate > host.pixelRate)  // the origin line is flatter than the truth
    }

    @Test("configurations that fell behind are left out of the fit")
    func fellBehindIsNotFitted() throws {
        let host = Self.hosts[0]
        var measurements = HostCalibration.defaultFitPoints.map { host.measure($0) }
        // A saturated configuration: half its frames, at a utilization the line cannot explain.
        var saturated = host.measure(
            CalibrationPoint(width: 3840, height: 2160, frameRate: 30), deliveredShare: 0.5)
        saturated.processCPUSeconds = 0.5 * saturated.seconds * Double(host.cores)
        #expect(!saturated.keptUp)
        measurements.append(saturated)
        let fit = try CalibrationFit(measurements: measurements)
        #expect(fit.configurations == measurements.count - 1)
        #expect(abs(fit.pixelRate / host.pixelRate - 1) < 1e-9)
    }

    @Test("too few configurations, no readout time, or a flat utilization are errors")
    func fitFailures() throws {
        let host = Self.hosts[1]
        let one = [host.measure(HostCalibration.defaultFitPoints[0])]
        #expect(throws: CalibrationError.tooFewMeasurements(usable: 1)) {
            try CalibrationFit(measurements: one)
        }
        var noReadout = HostCalibration.defaultFitPoints.map { host.measure($0) }
        for index in noReadout.indices { noReadout[index].readoutCPUSeconds = 0 }
        #expect(throws: CalibrationError.noReadoutTime) {
            try CalibrationFit(measurements: noReadout)
        }
        var flat = HostCalibration.defaultFitPoints.map { host.measure($0) }
        for index in flat.indices { flat[index].processCPUSeconds = 0 }
        let error = try #require(throws: CalibrationError.self) {
            try CalibrationFit(measurements: flat)
        }
        guard case .noGrowth = error else {
            Issue.record("expected noGrowth, got \(error)")
            return
        }
        #expect(error.description.contains("--seconds"))
    }

    @Test("held-out configurations of the modelled host are predicted exactly; MAE is 0")
    func validationOfAnExactModel() throws {
        for host in Self.hosts {
            let fit = try CalibrationFit(
                measurements: HostCalibration.defaultFitPoints.map { host.measure($0) })
            let profile = fit.profile(
                cores: host.cores, date: "2026-11-29", points: HostCalibration.defaultFitPoints)
            let heldOut = HostCalibration.defaultHeldOutPoints.map { host.measure($0) }
            let validation = CalibrationValidation(measurements: heldOut, profile: profile)
            #expect(validation.rows.count == heldOut.count)
            let mae = try #require(validation.meanAbsoluteError)
            #expect(mae < 1e-9)
        }
    }

    @Test("a fixed-input detector: work per frame told from work per pixel, priced exactly")
    func fixedInputDetector() throws {
        // Drawing and conversion 1.2e-9 s a pixel, the network 14 ms a frame, on two cores.
        let (secondsPerPixel, secondsPerFrame, overhead, cores) = (1.2e-9, 0.014, 0.01, 2)
        func measure(_ point: CalibrationPoint) -> CalibrationMeasurement {
            let seconds = 2.0
            let frames = Int(point.frameRate.framesPerSecond * Double(point.cameras) * seconds)
            let pixels = Double(frames * point.pixelsPerFrame)
            let cpu =
                pixels * secondsPerPixel + Double(frames) * secondsPerFrame
                + overhead * Double(point.cameras) * seconds * Double(cores)
            return CalibrationMeasurement(
                point: point, seconds: seconds, frames: frames, droppedFrames: 0,
                processCPUSeconds: cpu, readoutCPUSeconds: pixels * 1e-9,
                consumerCPUSeconds: Double(frames) * secondsPerFrame, cores: cores)
        }
        let fit = try CalibrationFit(
            fixedInputMeasurements: HostCalibration.fixedInputFitPoints.map(measure))
        let frameShare = try #require(fit.videoDataFrameShare)
        #expect(abs(frameShare - secondsPerFrame / Double(cores)) < 1e-9)
        #expect(abs(fit.pixelRate - 2 / (secondsPerPixel / Double(cores))) / fit.pixelRate < 1e-9)
        #expect(abs(fit.perCameraOverhead - overhead) < 1e-9)
        let profile = fit.profile(
            cores: cores, date: "2026-12-05", points: HostCalibration.fixedInputFitPoints,
            detector: .personSSD)
        #expect(profile.videoDataFrameShare == frameShare)
        #expect(profile.sources["videoDataFrameShare"]?.contains("per frame") == true)
        let validation = CalibrationValidation(
            measurements: HostCalibration.fixedInputHeldOutPoints.map(measure), profile: profile)
        #expect(try #require(validation.meanAbsoluteError) < 1e-9)
        // The profile survives its JSON, and a share out of range is refused, naming it.
        let data = try JSONEncoder().encode(profile)
        #expect(try DeviceProfile.decode(data).videoDataFrameShare == frameShare)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["videoDataFrameShare"] = 1.5
        let error = try #require(throws: ConfigurationError.self) {
            try DeviceProfile.decode(try JSONSerialization.data(withJSONObject: object))
        }
        #expect(error.description.contains("videoDataFrameShare"))
        // Measured rung costs survive it too; a rung that costs nothing is refused, naming it.
        var measured = profile
        measured.rungCosts = [
            RungCost(
                setting: InferenceSetting(stride: 1, scale: 1, regions: 3),
                cpuMillisecondsPerFrame: 71),
            RungCost(setting: InferenceSetting(stride: 1, scale: 1), cpuMillisecondsPerFrame: 29),
        ]
        let measuredData = try JSONEncoder().encode(measured)
        #expect(try DeviceProfile.decode(measuredData).rungCosts == measured.rungCosts)
        var costly = try #require(
            try JSONSerialization.jsonObject(with: measuredData) as? [String: Any])
        costly["rungCosts"] = [
            ["setting": ["stride": 1, "scale": 1], "cpuMillisecondsPerFrame": 0]
        ]
        let costError = try #require(throws: ConfigurationError.self) {
            try DeviceProfile.decode(try JSONSerialization.data(withJSONObject: costly))
        }
        #expect(costError.description.contains("cpuMillisecondsPerFrame"))
    }

    @Test("the mean absolute error averages |predicted − measured| over rows that kept up")
    func meanAbsoluteError() {
        let point = CalibrationPoint(width: 640, height: 360, frameRate: 30)
        func row(_ measured: Double, _ predicted: Double, keptUp: Bool = true)
            -> CalibrationValidation.Row
        {
            CalibrationValidation.Row(
                point: point, deliveredFrameRate: 30, droppedFrames: 0,
                measuredUtilization: measured, predictedCost: predicted, keptUp: keptUp)
        }
        let validation = CalibrationValidation(rows: [
            row(0.10, 0.12), row(0.20, 0.17), row(0.40, 0.40), row(0.5, 0.1, keptUp: false),
        ])
        #expect(abs((validation.meanAbsoluteError ?? -1) - 0.05 / 3) < 1e-12)
        #expect(abs((validation.meanRelativeError ?? -1) - (0.2 + 0.15 + 0) / 3) < 1e-12)
        #expect(validation.rows[0].error > 0)  // overpriced
        #expect(validation.rows[1].error < 0)  // underpriced
        #expect(CalibrationValidation(rows: []).meanAbsoluteError == nil)
        #expect(
            CalibrationValidation(rows: [row(0.5, 0.1, keptUp: false)]).meanAbsoluteError == nil)
    }

    @Test("a slow host gets smaller frames at the same rates; a fast one the usual sizes")
    func scaledForSlowHosts() {
        let calibration = HostCalibration()
        let fast = calibration.scaled(toSecondsPerPixel: 5e-9)
        #expect(fast.fitPoints == calibration.fitPoints)
        #expect(fast.resolutionScale == 1)
        for secondsPerPixel in [1e-7, 5e-7, 3e-6] {
            let slow = calibration.scaled(toSecondsPerPixel: secondsPerPixel)
            #expect(slow.resolutionScale < 1)
            let points = slow.fitPoints + slow.heldOutPoints
            let original = calibration.fitPoints + calibration.heldOutPoints
            #expect(points.map(\.frameRate) == original.map(\.frameRate))
            #expect(points.map(\.cameras) == original.map(\.cameras))
            for point in points {
                // Rounding to multiples of 8 may add a little over the limit, never much.
                let load = point.format.pixelsPerSecond(at: point.frameRate) * secondsPerPixel
                #expect(load <= HostCalibration.coreShareLimit * 1.2, "\(point)")
                #expect(point.width % 8 == 0 && point.height % 8 == 0 && point.width >= 8)
            }
        }
    }

    @Test("HOG is measured at the sizes it runs at, and a slow host lowers its rates instead")
    func hogKeepsItsSizes() {
        let calibration = HostCalibration(detector: .hog)
        #expect(calibration.fitPoints == HostCalibration.hogFitPoints)
        #expect(calibration.heldOutPoints == HostCalibration.hogHeldOutPoints)
        let points = calibration.fitPoints + calibration.heldOutPoints
        // Each frame holds a pyramid of HOG's 64×128 windows, at least two levels' worth.
        #expect(points.allSatisfy { $0.height >= 2 * 128 && $0.width >= 2 * 64 })
        let slow = calibration.scaled(toSecondsPerPixel: 3e-6)
        #expect(slow.resolutionScale == 1)
        #expect(slow.frameRateScale < 1)
        let slowPoints = slow.fitPoints + slow.heldOutPoints
        #expect(slowPoints.map(\.width) == points.map(\.width))
        #expect(slowPoints.map(\.height) == points.map(\.height))
        for (point, original) in zip(slowPoints, points) {
            #expect(point.frameRate.framesPerSecond < original.frameRate.framesPerSecond)
            let load = point.format.pixelsPerSecond(at: point.frameRate) * 3e-6
            #expect(load <= HostCalibration.coreShareLimit * 1.001, "\(point)")
        }
    }

    @Test("the profile and the calibration name the detector measured")
    func namesTheDetector() throws {
        let fit = try CalibrationFit(
            measurements: HostCalibration.defaultFitPoints.map { Self.hosts[0].measure($0) })
        for detector in DetectorKind.allCases {
            let profile = fit.profile(
                cores: 2, date: "2026-12-02", points: HostCalibration.defaultFitPoints,
                detector: detector)
            #expect(profile.summary.contains("the \(detector.rawValue) detector"))
            #expect(HostCalibration(detector: detector).detector == detector)
        }
        #expect(HostCalibration().detector == .blob, "run's detector for the scene")
    }

    @Test("a written calibrated profile is found as \"host\" and listed after the built-ins")
    func calibratedProfileRoundTrips() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fit = try CalibrationFit(
            measurements: HostCalibration.defaultFitPoints.map { Self.hosts[0].measure($0) })
        let profile = fit.profile(
            cores: 2, date: "2026-11-29", points: HostCalibration.defaultFitPoints)
        let catalog = ProfileCatalog(calibratedDirectory: directory)
        let path = try #require(catalog.calibratedPath(for: "host"))
        try AtomicFile.write(try JSONEncoder().encode(profile), to: path)

        let found = try catalog.profile("host")
        #expect(found == profile)
        #expect(
            found.sources["pixelRate"]?.contains("measured by headroom calibrate on 2026-11-29")
                == true)
        let names = try catalog.allProfiles().map(\.name)
        #expect(names == DeviceProfile.builtIn.map(\.name) + ["host"])
        // A session naming it is priced on it.
        let session = HostCalibration.defaultHeldOutPoints[1].session(profile: "host")
        let estimate = HardwareCostEstimator(profile: try catalog.profile(session.profile))
            .cost(of: session)
        #expect(estimate.profile == "host")
        #expect(estimate.limitingBudget == .pixelRate)
    }

    @Test("an unknown profile lists the known names and says calibrate creates \"host\"")
    func unknownProfile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let catalog = ProfileCatalog(calibratedDirectory: directory)
        let error = try #require(throws: ConfigurationError.self) {
            try catalog.profile("host", field: "--profile")
        }
        #expect(error.path == "--profile")
        #expect(error.problem.contains("unknown profile \"host\""))
        #expect(error.problem.contains("generic-x86_64"))
        #expect(error.problem.contains("`headroom calibrate` creates \"host\""))

        var lab = DeviceProfile.raspberryPi5
        lab.name = "lab"
        try AtomicFile.write(try JSONEncoder().encode(lab), to: directory + "/lab.json")
        let listed = try #require(throws: ConfigurationError.self) {
            try catalog.profile("hots")
        }
        #expect(listed.problem.contains("lab"))
    }

    @Test("a calibrated file whose name differs from its file name is an error naming both")
    func mismatchedName() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try AtomicFile.write(
            try JSONEncoder().encode(DeviceProfile.jetsonOrinNX), to: directory + "/host.json")
        let catalog = ProfileCatalog(calibratedDirectory: directory)
        let error = try #require(throws: ConfigurationError.self) { try catalog.profile("host") }
        #expect(error.file == directory + "/host.json")
        #expect(error.path == "name")
        #expect(error.problem.contains("jetson-orin-nx"))
        #expect(throws: ConfigurationError.self) { try catalog.allProfiles() }
    }

    @Test("calibrated profiles live under XDG_CONFIG_HOME, else ~/.config")
    func calibratedDirectory() {
        #expect(
            ProfileCatalog.defaultCalibratedDirectory(environment: [
                "XDG_CONFIG_HOME": "/x", "HOME": "/home/u",
            ]) == "/x/headroom/profiles")
        #expect(
            ProfileCatalog.defaultCalibratedDirectory(environment: [
                "XDG_CONFIG_HOME": "", "HOME": "/home/u",
            ]) == "/home/u/.config/headroom/profiles")
        #expect(ProfileCatalog.defaultCalibratedDirectory(environment: [:]) == nil)
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("headroom-calibration-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
