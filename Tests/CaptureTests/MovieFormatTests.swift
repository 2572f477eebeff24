import Capture
import Foundation
import Testing

/// The movie output's Y4M: a header players accept and frames of one length.
struct MovieFormatTests {
    @Test("the header declares size, rate and 4:2:0; frames are luma plus neutral chroma")
    func header() throws {
        let format = MovieFormat(width: 5, height: 3, frameRate: 30)
        #expect(String(decoding: format.header, as: UTF8.self) == "YUV4MPEG2 W5 H3 F30:1 Ip A1:1 C420jpeg\n")
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
        arguments: [(30.0, "F30:1"), (29.97, "F30000:1001"), (59.94, "F60000:1001"), (12.5, "F12500:1000")])
    func rates(rate: Double, field: String) {
        let header = String(decoding: MovieFormat(width: 2, height: 2, frameRate: rate).header, as: UTF8.self)
        #expect(header.contains(" \(field) "))
    }
}
