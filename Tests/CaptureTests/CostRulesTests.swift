import Capture
import Testing
import Units

/// The rules `AVCaptureSession.hardwareCost` follows, checked over every format of every
/// built-in profile's sensors.
struct CostRulesTests {
    /// Every (profile, format) pair the built-in catalog offers.
    static let cases: [(DeviceProfile, CameraFormat)] = DeviceProfile.builtIn.flatMap { profile in
        profile.sensors.flatMap(\.formats).map { (profile, $0) }
    }

    /// A one-camera session on `format`, with a preview and one video-data output.
    static func session(_ format: CameraFormat, override: FrameRate? = nil) -> SessionConfiguration
    {
        SessionConfiguration(
            cameras: [CameraConfiguration(id: "cam", format: format, frameRateOverride: override)],
            outputs: [CaptureOutput(kind: .preview), CaptureOutput(kind: .videoData)])
    }

    static func cost(_ profile: DeviceProfile, _ session: SessionConfiguration) -> Double {
        HardwareCostEstimator(profile: profile).cost(of: session).hardwareCost.fraction
    }

    @Test("the catalog has formats to check")
    func catalogIsNotEmpty() {
        #expect(Self.cases.count >= 20)
    }

    @Test("cost rises with resolution", arguments: cases)
    func resolution(profile: DeviceProfile, format: CameraFormat) {
        var larger = format
        larger.width += 64
        larger.height += 36
        #expect(Self.cost(profile, Self.session(larger)) > Self.cost(profile, Self.session(format)))
    }

    @Test(
        "cost rises with frame rate; the maximum is paid unless an override lowers it",
        arguments: cases)
    func frameRate(profile: DeviceProfile, format: CameraFormat) {
        let atMaximum = Self.cost(profile, Self.session(format))
        #expect(
            Self.cost(profile, Self.session(format, override: format.maxFrameRate)) == atMaximum)
        let lower = max(format.minFrameRate, format.maxFrameRate / 2.0)
        #expect(Self.cost(profile, Self.session(format, override: lower)) < atMaximum)
    }

    @Test("cost rises with the number of cameras", arguments: cases)
    func cameraCount(profile: DeviceProfile, format: CameraFormat) {
        var session = Self.session(format)
        var previous = Self.cost(profile, session)
        for index in 2...(profile.cameraPorts + 1) {
            session.cameras.append(CameraConfiguration(id: "cam\(index)", format: format))
            let cost = Self.cost(profile, session)
            #expect(cost > previous)
            previous = cost
        }
        #expect(previous > 1, "more cameras than ports cannot run")
    }

    @Test("each extra full-rate consumer (videoData, movie) costs more", arguments: cases)
    func fullRateConsumers(profile: DeviceProfile, format: CameraFormat) {
        for kind in [OutputKind.videoData, .movie] {
            var session = Self.session(format)
            let before = Self.cost(profile, session)
            session.outputs.append(CaptureOutput(kind: kind, camera: "cam"))
            #expect(Self.cost(profile, session) > before, "adding \(kind)")
        }
    }

    @Test(
        "a binned format costs less than a non-binned one of the same output size", arguments: cases
    )
    func binning(profile: DeviceProfile, format: CameraFormat) {
        var binned = format
        binned.isBinned = true
        var unbinned = format
        unbinned.isBinned = false
        #expect(
            Self.cost(profile, Self.session(binned)) < Self.cost(profile, Self.session(unbinned)))
    }

    @Test("a full-sensor format costs more than a crop of the same output size", arguments: cases)
    func cropping(profile: DeviceProfile, format: CameraFormat) {
        var crop = format
        crop.isCropped = true
        var full = format
        full.isCropped = false
        #expect(Self.cost(profile, Self.session(full)) > Self.cost(profile, Self.session(crop)))
    }

    @Test("camera costs add up to the hardware cost and name the limiting budget", arguments: cases)
    func breakdownAddsUp(profile: DeviceProfile, format: CameraFormat) {
        var session = Self.session(format)
        session.cameras.append(CameraConfiguration(id: "second", format: format))
        let estimate = HardwareCostEstimator(profile: profile).cost(of: session)
        let sum = estimate.cameras.map(\.cost).reduce(.zero, +)
        #expect(abs((sum - estimate.hardwareCost).fraction) < 1e-9)
        let limiting = estimate.budgets.first { $0.budget == estimate.limitingBudget }
        #expect(limiting?.share == estimate.hardwareCost)
        #expect(estimate.fits == (estimate.hardwareCost <= 1))
        #expect(
            HardwareCostEstimator(profile: profile).hardwareCost(of: session)
                == estimate.hardwareCost)
    }
}
