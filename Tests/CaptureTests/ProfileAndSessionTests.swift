import Capture
import Files
import Foundation
import Testing
import Units

/// Device profiles, the capture session's commit, and the shipped examples.
struct ProfileAndSessionTests {
    /// The repository's root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("built-in profiles are found by name and every number has a source")
    func builtInProfiles() throws {
        let catalog = ProfileCatalog(calibratedDirectory: nil)
        for name in ["generic-x86_64", "raspberry-pi-5", "jetson-orin-nx"] {
            let profile = try catalog.profile(name)
            #expect(!profile.sensors.isEmpty)
            for field in ["pixelRate", "memoryBandwidth", "cameraPorts", "outputWeights"] {
                #expect(profile.sources[field] != nil, "\(name).\(field) has no source")
            }
        }
    }

    @Test("an unknown profile names the field and lists the known ones")
    func unknownProfile() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ProfileCatalog(calibratedDirectory: nil).profile("pi-zero")
        }
        #expect(error.path == "profile")
        #expect(error.problem.contains("raspberry-pi-5"))
    }

    @Test("a custom profile loads from JSON, and a bad one names its field")
    func customProfile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headroom-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var profile = DeviceProfile.raspberryPi5
        profile.name = "my-board"
        let encoder = JSONEncoder()
        let path = directory.appendingPathComponent("board.json").path
        try AtomicFile.write(encoder.encode(profile), to: path)
        #expect(try ProfileCatalog(calibratedDirectory: nil).profile(path) == profile)

        let bad = String(decoding: try encoder.encode(profile), as: UTF8.self)
            .replacingOccurrences(of: "\"cameraPorts\":2", with: "\"cameraPorts\":0")
        try AtomicFile.write(bad, to: path)
        let error = try #require(throws: ConfigurationError.self) {
            try ProfileCatalog(calibratedDirectory: nil).profile(path)
        }
        #expect(error.file == path)
        #expect(error.path == "cameraPorts")
    }

    @Test(
        "numbers no real board has are refused with their field, so no cost or figure overflows",
        arguments: [
            ("fullSensorReadoutFactor", "1e19"), ("rawBytesPerPixel", "1e19"),
            ("pixelRate", "1e-300"), ("memoryBandwidth", "1e-300"), ("cameraPorts", "100000"),
        ])
    func hostileProfileNumbers(key: String, value: String) throws {
        var object =
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(DeviceProfile.raspberryPi5))
            as! [String: Any]
        object[key] = Double(value)!
        let data = try JSONSerialization.data(withJSONObject: object)
        let error = try #require(throws: ConfigurationError.self) {
            try DeviceProfile.decode(data, file: "board.json")
        }
        #expect(error.path == key)
        #expect(error.problem.hasPrefix("expected"))
    }

    @Test("an output weight beyond 1000 is refused with its field path")
    func hostileWeight() throws {
        let text = String(
            decoding: try JSONEncoder().encode(DeviceProfile.raspberryPi5), as: UTF8.self
        )
        .replacingOccurrences(of: "\"movie\":3", with: "\"movie\":9.2e18")
        let error = try #require(throws: ConfigurationError.self) {
            try DeviceProfile.decode(Data(text.utf8), file: "board.json")
        }
        #expect(error.path == "outputWeights.movie")
    }

    @Test("commit refuses a session over budget with the breakdown, and accepts one that fits")
    func commit() throws {
        let fourK = CameraFormat(width: 3840, height: 2160, maxFrameRate: 60)
        let heavy = SessionConfiguration(
            cameras: [
                CameraConfiguration(id: "a", format: fourK),
                CameraConfiguration(id: "b", format: fourK),
            ],
            outputs: [
                CaptureOutput(kind: .videoData, camera: "a"),
                CaptureOutput(kind: .videoData, camera: "b"),
            ])
        let session = CaptureSession(
            configuration: heavy, estimator: HardwareCostEstimator(profile: .raspberryPi5),
            clock: ContinuousRunClock())
        session.beginConfiguration()
        let error = try #require(throws: SessionOverBudgetError.self) {
            try session.commitConfiguration()
        }
        #expect(error.estimate.hardwareCost > 1)
        #expect(error.estimate.cameras.map(\.id) == ["a", "b"])
        #expect(session.committedEstimate == nil)

        session.beginConfiguration()
        session.configuration.cameras.removeLast()
        session.configuration.outputs.removeLast()
        session.configuration.cameras[0].format = CameraFormat(
            width: 1280, height: 720, maxFrameRate: 30)
        let estimate = try session.commitConfiguration()
        #expect(estimate.fits)
        #expect(session.committedEstimate == estimate)
    }

    @Test("the shipped examples: 1080p30 fits, dual 4K60 does not, its binned variant does")
    func examples() throws {
        let expectations = [
            "single-1080p30.json": true, "dual-4k60.json": false, "dual-1080p60-binned.json": true,
        ]
        for (file, fits) in expectations {
            let path = Self.root.appendingPathComponent("examples/sessions/\(file)").path
            let session = try SessionConfiguration.load(from: path)
            let profile = try ProfileCatalog(calibratedDirectory: nil).profile(session.profile)
            #expect(
                HardwareCostEstimator(profile: profile).cost(of: session).fits == fits, "\(file)")
        }
    }
}
