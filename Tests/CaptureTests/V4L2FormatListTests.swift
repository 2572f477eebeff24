import Capture
import Files
import Foundation
import Testing
import Units

@Suite struct V4L2FormatListTests {
    private func listing(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus/v4l2/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func aUVCWebcamsModesBecomeFormats() throws {
        let list = try V4L2FormatList(parsing: try listing("uvc-webcam.txt"))
        #expect(
            list.formats == [
                CameraFormat(
                    width: 640, height: 480, minFrameRate: 15, maxFrameRate: 30, pixelFormat: .yuyv),
                CameraFormat(
                    width: 1280, height: 720, minFrameRate: 5, maxFrameRate: 10, pixelFormat: .yuyv),
                CameraFormat(
                    width: 640, height: 480, minFrameRate: 30, maxFrameRate: 30, pixelFormat: .nv12),
                CameraFormat(
                    width: 1920, height: 1080, minFrameRate: 25, maxFrameRate: 30,
                    pixelFormat: .nv12),
            ])
        #expect(list.skipped.isEmpty)
    }

    @Test func stepwiseSizesContinuousIntervalsAndCRLF() throws {
        let list = try V4L2FormatList(parsing: try listing("stepwise-crlf.txt"))
        #expect(
            list.formats.first
                == CameraFormat(
                    width: 1280, height: 800, minFrameRate: 1, maxFrameRate: 120,
                    pixelFormat: .gray8))
        #expect(list.formats.count == 2)
    }

    @Test func refusesTextWithoutFormatsAndSkipsUnknownOnes() throws {
        #expect(throws: ConfigurationError.self) {
            try V4L2FormatList(parsing: "ioctl: VIDIOC_ENUM_FMT\n\tType: Video Capture\n")
        }
        let list = try V4L2FormatList(
            parsing: """
                [0]: 'Y10B' (10-bit Greyscale (Packed))
                    Size: Discrete 640x400
                        Interval: Discrete 0.008s (120.000 fps)
                [1]: 'YUYV' (YUYV 4:2:2)
                    Size: Discrete 320x240
                        Interval: Discrete 0.033s (30.000 fps)
                """)
        #expect(list.formats.map(\.pixelFormat) == [.yuyv])
        #expect(list.skipped.count == 1 && list.skipped[0].hasPrefix("Y10B"))
    }

    @Test func skipsModesNoProfileCouldHold() throws {
        let list = try V4L2FormatList(
            parsing: """
                [0]: 'YUYV' (YUYV 4:2:2)
                    Size: Discrete 99999999x99999999 9999999999999x9999999999999
                        Interval: Discrete 0.033s (30.000 fps)
                    Size: Discrete 640x480
                        Interval: Discrete 0.000s (1000000000.000 fps)
                    Size: Discrete 320x240
                        Interval: Discrete 0.033s (30.000 fps)
                """)
        #expect(list.formats.map(\.width) == [320])
        #expect(list.skipped.count == 2)
        #expect(list.skipped.allSatisfy { $0.contains("beyond what Headroom prices") })
    }

    @Test func aProfileWithTheCameraPricesItsModes() throws {
        let list = try V4L2FormatList(parsing: try listing("uvc-webcam.txt"))
        let profile = DeviceProfile.genericDesktop.withV4L2Camera(
            list, sensor: "v4l2", from: "webcam.txt")
        #expect(profile.sensors.map(\.name) == ["v4l2"])
        #expect(profile.sensors[0].formats.count == 4)
        #expect(profile.pixelRate == DeviceProfile.genericDesktop.pixelRate)
        #expect(profile.sources["sensors"]?.contains("v4l2-ctl") == true)
    }
}
