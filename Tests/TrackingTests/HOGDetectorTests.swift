import Foundation
import Testing
import Tracking

/// OpenCV's HOG people detector through the shim: real people in OpenCV's own `vtest.avi`
/// (Debian `opencv-doc`, installed by `scripts/setup.sh`), decoded by ffmpeg.
struct HOGDetectorTests {
    static let video = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"

    /// Frame `number` of `vtest.avi` (768 × 576) in grey, decoded by ffmpeg.
    static func videoFrame(_ number: Int) throws -> GrayFrame {
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-i", video, "-vf", "select=eq(n\\,\(number))", "-frames:v", "1",
            "-f", "rawvideo", "-pix_fmt", "gray", "-",
        ]
        let pipe = Pipe()
        ffmpeg.standardOutput = pipe
        try ffmpeg.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        ffmpeg.waitUntilExit()
        try #require(data.count == 768 * 576, "ffmpeg gave \(data.count) bytes")
        return GrayFrame(width: 768, height: 576, pixels: [UInt8](data))
    }

    @Test("a plain frame, and one smaller than the detection window, hold nobody")
    func nobody() throws {
        var detector = try HOGDetector()
        #expect(detector.detect(in: GrayFrame(width: 320, height: 240, value: 90)).isEmpty)
        #expect(detector.detect(in: GrayFrame(width: 40, height: 30, value: 90)).isEmpty)
        detector.scale = 0.05
        #expect(detector.detect(in: GrayFrame(width: 320, height: 240, value: 90)).isEmpty)
    }

    @Test(
        "people in a real street scene are found, each a person-shaped box inside the frame",
        .enabled(if: FileManager.default.fileExists(atPath: video)), arguments: [100, 400, 700])
    func findsPeople(frameNumber: Int) throws {
        var detector = try HOGDetector()
        let frame = try Self.videoFrame(frameNumber)
        let people = detector.detect(in: frame)
        #expect(people.count >= 2, "frame \(frameNumber): \(people.map(\.box))")
        for person in people {
            #expect(person.box.minX >= -16 && person.box.minY >= -16)
            #expect(person.box.minX + person.box.width <= 768 + 16)
            #expect(person.box.height >= 60 && person.box.height <= 400)
            #expect(person.box.height > person.box.width, "a standing person is taller than wide")
            #expect(person.confidence > 0 && person.confidence < 1)
        }
        // A smaller scale is cheaper and finds no more than the full one.
        detector.scale = 0.6
        #expect(detector.detect(in: frame).count <= people.count)
    }
}
