import Foundation
import LaunchTiming
import Tracking
import Units

/// `headroom-bench motion RAWFILE WIDTH HEIGHT [--detector motion|hog|person-ssd|blob] [--scale S ...]
/// [--regions N ...] [--json] [--print]`: times a pipeline detector (``MotionDetector`` unless
/// `--detector` says another) frame by frame over a raw 8-bit greyscale video (frames of
/// WIDTH × HEIGHT bytes back to back, as `ffmpeg -f rawvideo -pix_fmt gray` writes them), once
/// per scale (1 and 0.5 unless `--scale` is given) and, for the neural detector, once per
/// region budget (`--regions`; each frame expecting the people the frame before it found, as
/// a tracker would), beside a floor measured in the same run: a bare loop that reads every
/// pixel of the frame once. Only the detector call is timed, by the clock and by the process's
/// CPU time (every thread's); the file is read into memory first.
/// `scripts/motion-vs-mog2.sh` runs OpenCV's MOG2 on the same file.
///
/// `--json` prints the figures as one JSON object; `--print` prints the first scale's
/// detections instead, one CSV line each: `frame,x,y,width,height,confidence` (frames from 0,
/// box in frame pixels, top-left origin).
func motionMain(_ words: [String]) -> Int32 {
    let usage =
        "usage: headroom-bench motion RAWFILE WIDTH HEIGHT [--detector motion|hog|person-ssd|blob]"
        + " [--scale S ...] [--regions N ...] [--json] [--print]"
    var positional: [String] = []
    var scales: [Double] = []
    var regionBudgets: [Int] = []
    var kind = DetectorKind.motion
    var index = 0
    while index < words.count {
        let word = words[index]
        if word == "--detector", index + 1 < words.count,
            let named = DetectorKind(rawValue: words[index + 1])
        {
            kind = named
            index += 2
            continue
        }
        if word == "--scale", index + 1 < words.count, let scale = Double(words[index + 1]),
            scale > 0, scale <= 1
        {
            scales.append(scale)
            index += 2
            continue
        }
        if word == "--regions", index + 1 < words.count, let budget = Int(words[index + 1]),
            InferenceSetting.regionBudgets.contains(budget), budget > 0
        {
            regionBudgets.append(budget)
            index += 2
            continue
        }
        if word.hasPrefix("--"), !["--json", "--print"].contains(word) {
            return fail("\(usage)\n(unknown or incomplete option \(word))", status: 2)
        }
        if !word.hasPrefix("--") { positional.append(word) }
        index += 1
    }
    guard positional.count == 3, let width = Int(positional[1]), let height = Int(positional[2]),
        width > 0, height > 0
    else { return fail(usage, status: 2) }
    if scales.isEmpty { scales = regionBudgets.isEmpty ? [1, 0.5] : [] }
    guard regionBudgets.isEmpty || kind == .personSSD else {
        return fail(
            "\(usage)\n(--regions: only the person-ssd detector looks at regions)", status: 2)
    }
    let personModel: PersonModel?
    do {
        personModel =
            kind == .personSSD
            ? try PersonModel.installed(environment: ProcessInfo.processInfo.environment) : nil
    } catch {
        return fail("headroom-bench motion: \(error)", status: 1)
    }
    let frames: [GrayFrame]
    do {
        frames = try readRawFrames(path: positional[0], width: width, height: height)
    } catch {
        return fail("headroom-bench motion: \(error)", status: 1)
    }
    guard !frames.isEmpty else {
        return fail("headroom-bench motion: \(positional[0]) holds no whole frame", status: 1)
    }
    #if DEBUG
        FileHandle.standardError.write(
            Data("headroom-bench: debug build; figures are meaningless, use -c release\n".utf8))
    #endif
    if words.contains("--print") {
        guard
            var detector = try? PipelineDetector(
                kind, scale: scales.first ?? 1, regions: regionBudgets.first ?? 0,
                personModel: personModel)
        else {
            return fail("headroom-bench motion: the \(kind) detector cannot be set up", status: 1)
        }
        for (number, frame) in frames.enumerated() {
            for detection in detector.detect(in: frame) {
                let box = detection.box
                print(
                    "\(number),\(Int(box.minX)),\(Int(box.minY)),\(Int(box.width)),"
                        + "\(Int(box.height)),\(String(format: "%.3f", detection.confidence))")
            }
        }
        return 0
    }
    let floor = MotionRun.floor(frames)
    let settings =
        scales.map { InferenceSetting(stride: 1, scale: $0) }
        + regionBudgets.map { InferenceSetting(stride: 1, scale: 1, regions: $0) }
    guard
        let runs = try? settings.map({
            try MotionRun.detector(frames, kind: kind, setting: $0, personModel: personModel)
        })
    else { return fail("headroom-bench motion: the \(kind) detector cannot be set up", status: 1) }
    let meanGrey = String(format: "%.2f", floor.meanGrey)
    let minimumArea = MotionDetector().minimumAreaFraction * Double(width * height)
    if words.contains("--json") {
        var object: [String: Any] = [
            "frames": frames.count, "width": width, "height": height,
            "minimumAreaPixels": minimumArea, "warmUpFrames": MotionDetector().warmUpFrames,
            "meanGrey": meanGrey,
        ]
        object["rows"] = ([floor] + runs).map(\.dictionary)
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data ?? Data(), as: UTF8.self))
    } else {
        print(
            "\(kind) detector, \(frames.count) frames of \(width)×\(height) (mean grey \(meanGrey)),"
                + ([.hog, .personSSD].contains(kind) ? " OpenCV's own threads" : " one thread"))
        print(
            "name                    p50 ms  mean ms  CPU ms  ×floor(p50)  detections/frame"
                + "  network calls/frame")
        for run in [floor] + runs {
            print(
                run.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                    + String(
                        format: "%8.3f %8.3f %7.3f %10.1fx %12.2f %20.2f", run.median / 1e6,
                        run.mean / 1e6, run.cpuMean / 1e6, run.median / floor.median,
                        run.detectionsPerFrame, run.networkCallsPerFrame))
        }
    }
    return 0
}

/// The per-frame timings of one workload over every frame.
private struct MotionRun {
    var name: String
    /// Nanoseconds per frame, frame by frame.
    var nanoseconds: [Double]
    /// Detections over all frames, warm-up included.
    var detections: Int
    /// The process's CPU nanoseconds (every thread's) over all frames.
    var cpuNanoseconds: Double = 0
    /// The network's runs over all frames (0 for a detector without a network).
    var networkCalls = 0
    /// The floor's result, the video's mean grey level: printed, so the loop is not optimized
    /// away.
    var meanGrey: Double = 0

    var median: Double {
        let sorted = nanoseconds.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    var mean: Double { nanoseconds.reduce(0, +) / Double(max(1, nanoseconds.count)) }
    var detectionsPerFrame: Double { Double(detections) / Double(max(1, nanoseconds.count)) }
    var cpuMean: Double { cpuNanoseconds / Double(max(1, nanoseconds.count)) }
    var networkCallsPerFrame: Double { Double(networkCalls) / Double(max(1, nanoseconds.count)) }

    var dictionary: [String: Any] {
        [
            "name": name, "p50Milliseconds": median / 1e6, "meanMilliseconds": mean / 1e6,
            "cpuMilliseconds": cpuMean / 1e6, "detectionsPerFrame": detectionsPerFrame,
            "networkCallsPerFrame": networkCallsPerFrame,
        ]
    }

    /// A fresh detector of `kind` at `setting` over every frame in order, each frame expecting
    /// the boxes found in the one before.
    static func detector(
        _ frames: [GrayFrame], kind: DetectorKind, setting: InferenceSetting,
        personModel: PersonModel?
    ) throws -> MotionRun {
        var detector = try PipelineDetector(
            kind, scale: setting.scale, regions: setting.regions, personModel: personModel)
        var times: [Double] = []
        times.reserveCapacity(frames.count)
        var detections = 0
        var cpu = 0.0
        var expected: [BoundingBox] = []
        for frame in frames {
            let cpuStart = processCPUSeconds()
            let start = MonotonicClock.now()
            let found = detector.detect(in: frame, expecting: expected)
            times.append(Double(MonotonicClock.now().nanoseconds - start.nanoseconds))
            cpu += processCPUSeconds() - cpuStart
            detections += found.count
            expected = found.map(\.box)
        }
        let name =
            setting.regions > 0
            ? "\(kind) \(setting.regions) regions" : "\(kind) scale \(setting.scale)"
        return MotionRun(
            name: name, nanoseconds: times, detections: detections, cpuNanoseconds: cpu * 1e9,
            networkCalls: detector.networkCalls ?? 0)
    }

    /// The floor: summing every pixel of each frame, the least any detector must do.
    static func floor(_ frames: [GrayFrame]) -> MotionRun {
        var total: UInt64 = 0
        var times: [Double] = []
        times.reserveCapacity(frames.count)
        for frame in frames {
            let start = MonotonicClock.now()
            let sum = frame.pixels.withUnsafeBufferPointer { pixels in
                var sum: UInt32 = 0
                for pixel in pixels { sum &+= UInt32(pixel) }
                return sum
            }
            times.append(Double(MonotonicClock.now().nanoseconds - start.nanoseconds))
            total &+= UInt64(sum)
        }
        return MotionRun(
            name: "floor (sum pixels)", nanoseconds: times, detections: 0,
            meanGrey: Double(total) / Double(max(1, frames.count * frames[0].pixels.count)))
    }
}

/// A file that cannot be read as raw frames.
private struct RawFrameError: Error, CustomStringConvertible {
    var description: String
}

/// The whole frames of a raw greyscale file (a trailing partial frame is ignored).
private func readRawFrames(path: String, width: Int, height: Int) throws -> [GrayFrame] {
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw RawFrameError(description: "cannot open \(path)")
    }
    defer { try? handle.close() }
    let size = width * height
    var frames: [GrayFrame] = []
    while true {
        guard let data = try handle.read(upToCount: size), data.count == size else { break }
        frames.append(GrayFrame(width: width, height: height, pixels: [UInt8](data)))
    }
    return frames
}

private func fail(_ message: String, status: Int32) -> Int32 {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    return status
}
