import Capture
import Foundation
import LaunchTiming
import Synchronization
import Testing
import Units

/// A Y4M file of `count` 4×2 C420 frames whose luma values are `frame * 10 + pixel`.
private func y4m(count: Int, colourSpace: String = "C420jpeg") -> Data {
    var bytes = Array("YUV4MPEG2 W4 H2 F30:1 Ip A1:1 \(colourSpace)\n".utf8)
    for frame in 0..<count {
        bytes += Array("FRAME\n".utf8)
        bytes += (0..<8).map { UInt8(frame * 10 + $0) }
        bytes += [128, 128, 128, 128]  // 2×1 Cb and Cr
    }
    return Data(bytes)
}

@Test func y4mFramesAreDeliveredInOrderAndLooped() throws {
    let source = try Y4MFrameSource(data: y4m(count: 3))
    #expect(source.frames.count == 3)
    var frame = Frame(camera: "a", number: 4, width: 4, height: 2)
    source.render(&frame)
    #expect(frame.luma == (0..<8).map { UInt8(10 + $0) })
    var scaled = Frame(camera: "a", number: 2, width: 2, height: 1)
    source.render(&scaled)
    #expect(scaled.luma == [20, 22])
}

@Test func brokenY4MFilesAreErrorsThatSayWhatIsWrong() {
    let cases: [(Data, String)] = [
        (Data("P6\n".utf8), "expected a stream starting with \"YUV4MPEG2\""),
        (y4m(count: 1, colourSpace: "C420p10"), "unsupported colour space"),
        (y4m(count: 2).dropLast(3), "frame 1: truncated"),
        (y4m(count: 0), "expected at least one frame"),
    ]
    for (data, problem) in cases {
        do {
            _ = try Y4MFrameSource(data: Data(data), file: "clip.y4m")
            Issue.record("accepted: \(problem)")
        } catch {
            #expect(error.file == "clip.y4m")
            #expect(error.problem.contains(problem), "\(error.problem)")
        }
    }
}

/// A source that stalls once, on the third frame it renders, for ten frame intervals (busy,
/// like a slow decoder).
private final class StallingSource: FrameSource {
    let interval: Double
    let rendered = Atomic<Int>(0)

    init(interval: Double) {
        self.interval = interval
    }

    func render(_ frame: inout Frame) {
        guard rendered.wrappingAdd(1, ordering: .relaxed).oldValue == 2 else { return }
        let start = MonotonicClock.now()
        while MonotonicClock.now().seconds(since: start) < interval * 10 {}
    }
}

@Test func aLateFrameMakesTheSessionSkipFramesInsteadOfBursting() async throws {
    let format = CameraFormat(width: 16, height: 8, maxFrameRate: 50)
    let session = CaptureSession(
        configuration: SessionConfiguration(
            cameras: [CameraConfiguration(id: "a", format: format)],
            outputs: [CaptureOutput(kind: .videoData)]),
        estimator: HardwareCostEstimator(profile: .genericDesktop),
        frameSource: StallingSource(interval: 1.0 / 50), clock: ContinuousRunClock())
    session.beginConfiguration()
    try session.commitConfiguration()
    let frames = session.videoFrames(bufferLimit: 16)
    var numbers: [Int] = []
    try await session.whileRunning {
        for await frame in frames {
            numbers.append(frame.number)
            if numbers.count == 4 { break }
        }
    }
    // The stalled frame is the third delivered; the one after it jumps the frames that fell
    // due during the stall, and every missing number is counted as dropped.
    #expect(numbers[3] > numbers[2] + 5, "\(numbers)")
    #expect(session.droppedFrameCount >= numbers[3] - numbers[2] - 1)
}
