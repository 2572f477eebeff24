import Capture
import Files
import Foundation
import Storage
import Testing
import Units

/// The movie output's Y4M: a header players accept and frames of one length.
struct MovieFormatTests {
    @Test("the header declares size, rate and 4:2:0; frames are luma plus neutral chroma")
    func header() throws {
        let format = MovieFormat(width: 5, height: 3, frameRate: 30)
        #expect(
            String(decoding: format.header, as: UTF8.self)
                == "YUV4MPEG2 W5 H3 F30:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n")
        #expect(format.neutralChroma == [UInt8](repeating: 128, count: 2 * 3 * 2))
        #expect(format.bytesPerFrame == 6 + 15 + 12)
        #expect(format.layout.unitBytes == 33)
        #expect(format.dataRate.bytesPerSecond == 33 * 30)
        let luma = [UInt8](0..<15)
        let file = format.header + MovieFormat.framePrefix + luma + format.neutralChroma
        let parsed = try Y4MFrameSource(data: Data(file))
        #expect(parsed.width == 5 && parsed.height == 3 && parsed.frames == [luma])
    }

    @Test(
        "frame rates as Y4M fractions",
        arguments: [
            (30.0, "F30:1"), (29.97, "F30000:1001"), (59.94, "F60000:1001"), (12.5, "F12500:1000"),
        ])
    func rates(rate: FrameRate, field: String) {
        let header = String(
            decoding: MovieFormat(width: 2, height: 2, frameRate: rate).header, as: UTF8.self)
        #expect(header.contains(" \(field) "))
    }
}

/// Movie outputs priced against the storage reserve's write rate, and recordings against its
/// remaining capacity.
struct StorageBudgetTests {
    static let session = SessionConfiguration(
        cameras: [
            CameraConfiguration(
                id: "cam", format: CameraFormat(width: 1920, height: 1080, maxFrameRate: 30))
        ],
        outputs: [
            CaptureOutput(kind: .preview), CaptureOutput(kind: .movie, usesProVideoStorage: true),
        ])

    /// Y4M 1080p30: (6 + 1920·1080·1.5) · 30 bytes per second.
    static let rate = Double(6 + 1920 * 1080 * 3 / 2) * 30

    @Test("without a measured rate movie outputs are not priced against the disk")
    func unmeasured() {
        let estimate = HardwareCostEstimator(profile: .genericDesktop).cost(of: Self.session)
        #expect(!estimate.budgets.contains { $0.budget == .storageWriteRate })
        #expect(estimate.cameras[0].storageWriteShare == 0)
    }

    @Test(
        "with one, the data rate is a budget of 80 % of the rate, and a slow disk limits the session"
    )
    func measured() throws {
        var profile = DeviceProfile.genericDesktop
        // Twice the data rate, of which recordings may use 80 %: 62.5 % used.
        profile.storageWriteRate = DataRate(bytesPerSecond: Self.rate / 0.5)
        let fits = HardwareCostEstimator(profile: profile).cost(of: Self.session)
        let use = try #require(fits.budgets.first { $0.budget == .storageWriteRate })
        #expect(abs(use.share.fraction - 0.625) < 1e-9 && use.demand == Self.rate)
        #expect(abs(use.capacity - Self.rate / 0.5 * 0.8) < 1e-6)
        #expect(abs(fits.cameras[0].storageWriteShare.fraction - 0.625) < 1e-9)
        // At the whole rate the recording is over budget: a fifth is left to the disk's others.
        profile.storageWriteRate = DataRate(bytesPerSecond: Self.rate)
        #expect(!HardwareCostEstimator(profile: profile).cost(of: Self.session).fits)
        profile.storageWriteRate = DataRate(bytesPerSecond: Self.rate / 0.8 / 2)
        let over = HardwareCostEstimator(profile: profile).cost(of: Self.session)
        #expect(over.limitingBudget == .storageWriteRate)
        #expect(abs(over.hardwareCost.fraction - 2) < 1e-9 && !over.fits)
        #expect(abs(over.cameras[0].cost.fraction - 2) < 1e-9)
    }

    @Test("a profile's storage write rate is bounded like its other budgets")
    func bounded() {
        let json =
            #"{"name": "x", "pixelRate": 1e9, "memoryBandwidth": 1e10, "cameraPorts": 1, "storageWriteRate": -5}"#
        #expect(throws: ConfigurationError.self) { try DeviceProfile.decode(Data(json.utf8)) }
    }

    @Test("a recording fits the remaining capacity for so long, and no longer")
    func recordingFit() throws {
        let fit = try #require(
            RecordingFit(
                configuration: Self.session, duration: 10,
                remaining: ByteCount(Int64(Self.rate * 12)), usesProVideoStorage: true))
        #expect(abs(fit.fitsSeconds - 12) < 1e-6 && fit.fits)
        let over = try #require(
            RecordingFit(
                configuration: Self.session, duration: 13,
                remaining: ByteCount(Int64(Self.rate * 12)), usesProVideoStorage: true))
        #expect(!over.fits && over.neededBytes.bytes == Int64((Self.rate * 13).rounded(.up)))
        // A year of the largest movie overflows 64 bits of bytes: "more than any disk".
        var huge = Self.session
        huge.cameras[0].format = CameraFormat(width: 16_384, height: 16_384, maxFrameRate: 1000)
        huge.cameras[0].frameRateOverride = nil
        let year = try #require(
            RecordingFit(
                configuration: huge, duration: 31_536_000, remaining: .gibibytes(1),
                usesProVideoStorage: true))
        #expect(!year.fits && year.neededBytes.bytes == Int64.max)
        var without = Self.session
        without.outputs.removeLast()
        #expect(
            RecordingFit(
                configuration: without, duration: 1, remaining: .zero, usesProVideoStorage: false)
                == nil)
    }
}
