import Files
import Foundation
import LaunchTiming
import Locking
import TestSupport
import Testing
import Units

@testable import Capture

@Suite struct VideoFrameSourceTests {
    static let hasFFmpeg = ExecutableSearch.find("ffmpeg") != nil

    /// A frame whose pixels say which frame it is: a flat grey of 20 + 20 × index.
    private func flat(_ index: Int, width: Int = 64, height: Int = 48) -> [UInt8] {
        [UInt8](repeating: UInt8(20 + 20 * index), count: width * height)
    }

    private func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headroom-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test func parsesHeaders() throws {
        let header = try Y4MHeader(
            line: Array("YUV4MPEG2 W960 H540 F30000:1001 Ip A1:1 Cmono".utf8))
        #expect(header.width == 960 && header.height == 540)
        #expect(abs((header.frameRate?.framesPerSecond ?? 0) - 29.97) < 0.01)
        #expect(header.frameBytes == 960 * 540)
        let colour = try Y4MHeader(line: Array("YUV4MPEG2 W5 H3 C420jpeg".utf8))
        #expect(colour.frameRate == nil)
        #expect(colour.chromaBytes == 2 * 3 * 2)
        #expect(throws: Y4MHeader.Problem.self) {
            try Y4MHeader(line: Array("YUV4MPEG2 W5 H3 F30:0".utf8))
        }
        #expect(throws: Y4MHeader.Problem.self) {
            try Y4MHeader(line: Array("YUV4MPEG2 W5 H3 C411".utf8))
        }
    }

    @Test(
        "headers that would crash, hang or exhaust memory are refused",
        arguments: [
            "F inf:1", "Finf:1", "Finf:inf", "F1e308:1", "F1:1000000000", "F0:1", "F1001:1",
            "F0x10:1", "F30:", "W32768 H32768 F1:10", "W16385 H4", "W99999999999999999999",
        ])
    func refusesHeadersBeyondItsBounds(fields: String) {
        let line = fields.hasPrefix("W") ? "YUV4MPEG2 \(fields)" : "YUV4MPEG2 W64 H48 \(fields)"
        #expect(throws: Y4MHeader.Problem.self) { try Y4MHeader(line: Array(line.utf8)) }
    }

    @Test func acceptsTheEdgesOfItsBounds() throws {
        let slow = try Y4MHeader(line: Array("YUV4MPEG2 W16384 H2 F1:10".utf8))
        #expect(slow.frameRate == 0.1 && slow.width == 16_384)
        #expect(try Y4MHeader(line: Array("YUV4MPEG2 W2 H2 F1000:1".utf8)).frameRate == 1000)
    }

    @Test func readsAStreamFrameByFrameFromAPipe() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        var bytes = Array("YUV4MPEG2 W4 H2 F25:1 Cmono\n".utf8)
        for index in 0..<3 {
            bytes += Array("FRAME\n".utf8) + [UInt8](repeating: UInt8(index), count: 8)
        }
        bytes += Array("FRAME\n".utf8) + [1, 2, 3]  // a truncated last frame
        #expect(write(descriptors[1], bytes, bytes.count) == bytes.count)
        close(descriptors[1])
        defer { close(descriptors[0]) }
        var stream = Y4MStream(descriptor: descriptors[0])
        let header = try stream.readHeader()
        #expect(header.frameRate == 25)
        for index in 0..<3 {
            let picture = try #require(try stream.readFrame(header: header))
            #expect(picture.luma == [UInt8](repeating: UInt8(index), count: 8))
            #expect(picture.chroma == nil)
        }
        #expect(throws: Y4MHeader.Problem.self) { try stream.readFrame(header: header) }
    }

    @Test("colour streams give their chroma as 4:2:0 planes, whatever their subsampling")
    func readsColourAs420() throws {
        // A 4 × 2 frame: luma 0...7, then its chroma as the header lays it out.
        func picture(_ colourSpace: String, blue: [UInt8], red: [UInt8]) throws -> Y4MPicture? {
            let header = try Y4MHeader(line: Array("YUV4MPEG2 W4 H2 F25:1 C\(colourSpace)".utf8))
            let pixels = [UInt8](0..<8) + blue + red
            #expect(header.frameBytes == pixels.count)
            return Y4MPicture(luma: Array(pixels[0..<8]), chroma: header.chroma(of: pixels[...]))
        }
        let planes420 = try #require(
            try picture("420jpeg", blue: [10, 11], red: [20, 21])?.chroma)
        #expect(planes420.blue == [10, 11] && planes420.red == [20, 21] && planes420.height == 1)
        // 4:2:2 (2 × 2 samples a plane) and 4:4:4 (4 × 2): every other sample across and down.
        let planes422 = try #require(
            try picture("422", blue: [10, 11, 12, 13], red: [20, 21, 22, 23])?.chroma)
        #expect(planes422.blue == [10, 11] && planes422.red == [20, 21])
        let planes444 = try #require(
            try picture("444", blue: [10, 11, 12, 13, 14, 15, 16, 17], red: [UInt8](20..<28))?
                .chroma)
        #expect(planes444.blue == [10, 12] && planes444.red == [20, 22])
        #expect(try picture("mono", blue: [], red: []).map { $0.chroma == nil } == true)
    }

    @Test("a video in colour arrives with its colour, and the same luma as a grey decode")
    func videoInColour() async throws {
        let clip = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"
        let source = try VideoFrameSource(input: .file(clip), pacing: .max)
        defer { source.close() }
        var frame = Frame(camera: "video", width: 768, height: 576)
        await source.render(&frame)
        #expect(frame.sourceIndex == 0)
        let chroma = try #require(frame.chroma)
        #expect(chroma.width == 384 && chroma.height == 288)
        // vtest.avi has colour (red and blue clothes, green grass): far from neutral somewhere.
        #expect(chroma.red.contains { abs(Int($0) - 128) > 30 })
        #expect(chroma.blue.contains { abs(Int($0) - 128) > 20 })
        let grey = Process()
        grey.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        grey.arguments = [
            "-loglevel", "error", "-i", clip, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt",
            "gray", "-",
        ]
        let output = Pipe()
        grey.standardOutput = output
        try grey.run()
        let luma = output.fileHandleForReading.readDataToEndOfFile()
        grey.waitUntilExit()
        #expect(Array(luma) == frame.luma)
    }

    @Test func namesTheInputsOfTheSourceOption() {
        #expect(VideoInput(argument: "-") == .standardInput)
        #expect(VideoInput(argument: "v4l2:/dev/video0") == .camera(device: "/dev/video0"))
        #expect(VideoInput(argument: "clip.mp4") == .file("clip.mp4"))
        #expect(VideoInput(argument: "v4l2:/dev/video0").description == "v4l2:/dev/video0")
    }

    @Test func refusesWhatItCannotRead() throws {
        do {
            _ = try VideoFrameSource(input: .file("/nonexistent/clip.mp4"))
            Issue.record("expected an error")
        } catch {
            #expect(error.path == "--source")
            #expect(error.problem.contains("no such readable file"))
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = "\(directory)/notes.txt"
        try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: text))
        do {
            _ = try VideoFrameSource(input: .file(text), ffmpeg: "/nonexistent/ffmpeg")
            Issue.record("expected an error")
        } catch {
            #expect(error.problem.contains("cannot start /nonexistent/ffmpeg"))
        }
        #expect(ExecutableSearch.find("ffmpeg", path: directory) == nil)
    }

    @Test(.enabled(if: hasFFmpeg)) func ffmpegsMessageExplainsAnUnreadableFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = "\(directory)/notes.mp4"
        try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: text))
        do {
            _ = try VideoFrameSource(input: .file(text))
            Issue.record("expected an error")
        } catch {
            #expect(error.problem.contains("ffmpeg:"))
        }
    }

    @Test(.enabled(if: hasFFmpeg)) func encodesAndDecodesEveryFrameInOrder() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/clip.y4m"
        let encoder = try VideoEncoder(
            path: path, width: 64, height: 48, frameRate: 25, layout: .gray, field: "test")
        for index in 0..<6 { try encoder.write(flat(index)) }
        #expect(!FileManager.default.fileExists(atPath: path))  // only once finished
        try encoder.finish()
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["clip.y4m"])

        let source = try VideoFrameSource(input: .file(path), pacing: .max)
        #expect(source.header.width == 64 && source.header.height == 48)
        #expect(source.frameRate == 25)
        var seen: [Int] = []
        for number in 0..<8 {
            var frame = Frame(camera: "c", number: number, width: 32, height: 24)
            await source.render(&frame)
            source.frameConsumed(index: frame.sourceIndex ?? -1)  // pacing max waits for it
            seen.append(frame.sourceIndex ?? -1)
            let expected = Int(flat(min(number, 5))[0])
            #expect(abs(Int(frame.luma[0]) - expected) <= 2, "frame \(number)")
        }
        #expect(seen == [0, 1, 2, 3, 4, 5, 5, 5])
        #expect(source.isFinished)
        #expect(source.problem == nil)
        await source.waitUntilFinished()
        source.close()
    }

    /// A 64×48 Y4M clip of `frames` flat frames at 25 fps in `directory`, its path.
    private func clip(frames: Int, in directory: String) throws -> String {
        let path = "\(directory)/clip.y4m"
        let encoder = try VideoEncoder(
            path: path, width: 64, height: 48, frameRate: 25, layout: .gray, field: "test")
        for index in 0..<frames { try encoder.write(flat(index)) }
        try encoder.finish()
        return path
    }

    @Test(
        "frame by frame the end comes where the next frame is asked for, however early the reader reads it",
        .enabled(if: hasFFmpeg))
    func frameByFrameEndsWhereTheNextFrameIsDue() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try VideoFrameSource(
            input: .file(try clip(frames: 3, in: directory)), pacing: .frameByFrame)
        defer { source.close() }
        let announced = LockedState(false)
        source.whenFinished { announced.withLock { $0 = true } }
        var frame = Frame(camera: "c", number: 0, width: 64, height: 48)
        for index in 0..<3 {
            await source.render(&frame)
            #expect(frame.sourceIndex == index)
            source.frameConsumed(index: index)
        }
        // The reader has read the end (three frames fit its readahead): that is no announcement,
        // nor is the last frame's consumption.
        #expect(await waitUntil { source.isFinished })
        #expect(!announced.withLock { $0 })
        await source.render(&frame)
        #expect(frame.sourceIndex == 2)  // the last again
        #expect(announced.withLock { $0 })
        await source.waitUntilFinished()
        // Asked for after the end, the action runs at once.
        let late = LockedState(false)
        source.whenFinished { late.withLock { $0 = true } }
        #expect(late.withLock { $0 })
    }

    @Test(.enabled(if: hasFFmpeg)) func filePacingTakesTheFrameDueWithoutWaiting() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = try VideoFrameSource(
            input: .file(try clip(frames: 12, in: directory)), pacing: .file)
        defer { source.close() }
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        /// The video frame a session frame taken `seconds` in shows, once the reader thread
        /// has it (a render never waits for it: until then it shows nothing new).
        func index(at seconds: Double, until expected: Int) async throws -> [Int?] {
            var seen: [Int?] = []
            let deadline = ContinuousClock.now + hangBound
            while ContinuousClock.now < deadline {
                var frame = Frame(camera: "c", number: 0, width: 64, height: 48)
                frame.timestamp = start.advanced(by: .seconds(seconds))
                await source.render(&frame)
                seen.append(frame.sourceIndex)
                if frame.sourceIndex == expected { break }
                try await Task.sleep(for: .milliseconds(1))
            }
            return seen
        }
        let first = try await index(at: 0, until: 0)
        #expect(first.last == 0 && first.allSatisfy { $0 == nil || $0 == 0 })
        // 0.2 s in at 25 fps: frame 5; the reader skipped 1–4 and nothing later came early.
        let later = try await index(at: 0.2, until: 5)
        #expect(later.last == 5)
        #expect(later.allSatisfy { ($0 ?? 0) <= 5 })
        #expect(source.framesRead >= 6)
    }

    @Test(.enabled(if: hasFFmpeg)) func aFailedEncodingLeavesNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let encoder = try VideoEncoder(
            path: "\(directory)/clip.unknown-container", width: 8, height: 8, frameRate: 25,
            layout: .gray, field: "--annotate")
        _ = try? encoder.write([UInt8](repeating: 0, count: 64))
        #expect(throws: ConfigurationError.self) { try encoder.finish() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
