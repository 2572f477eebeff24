import Capture
import Files
import Foundation
import Governor
import LaunchTiming
import Locking
import Pressure
import Storage
import Telemetry
import Testing
import Tracking
import Units

@testable import Pipeline

/// The main job end to end, with pressure from a fixture instead of the host. Serialized: each
/// test runs a whole pipeline.
@Suite(.serialized)
struct PipelineRunTests {
    /// A temperature that follows a schedule of (from the Nth sample, °C) for `length` samples,
    /// then runs out, which ends the run: the fixture backend of `PressureSampler`, as
    /// swift-metrics' test kit is of its factory. Counting samples rather than seconds keeps the
    /// schedule whole on a loaded or sanitized machine.
    final class ScheduledTemperature: SampleSource {
        let schedule: [(from: Int, celsius: Double)]
        let length: Int
        private let count = LockedState(0)

        init(_ schedule: [(from: Int, celsius: Double)], length: Int) {
            self.schedule = schedule
            self.length = length
        }

        func sample(at time: MonotonicInstant) -> PressureSample? {
            let index = count.withLock { count in
                defer { count += 1 }
                return count
            }
            guard index < length else { return nil }
            let celsius = schedule.last { index >= $0.from }?.celsius ?? schedule[0].celsius
            return PressureSample(
                time: time,
                sensors: [
                    SensorReading(
                        id: "fixture/cpu", source: .model, label: "fixture",
                        celsius: Celsius(celsius),
                        high: Celsius(80), critical: Celsius(95))
                ], isSimulated: true)
        }
    }

    /// A small, quick session: 320×180 at 30 fps feeding the tracker.
    static let session = SessionConfiguration(
        cameras: [
            CameraConfiguration(
                id: "cam", format: CameraFormat(width: 320, height: 180, maxFrameRate: 30))
        ],
        outputs: [CaptureOutput(kind: .preview), CaptureOutput(kind: .videoData)])

    /// Runs the session for `samples` pressure samples, 0.1 s apart, from `schedule`.
    func run(_ schedule: [(from: Int, celsius: Double)], samples: Int, governed: Bool = true)
        async throws
        -> RunSummary
    {
        var options = RunOptions(
            duration: .seconds(600), governance: governed ? .pressureOnly : .off,
            configuration: Self.session,
            policy: GovernorPolicy(stepDownDwell: .seconds(0.5), restoreDwell: .seconds(1)),
            pressureInterval: .seconds(0.1))
        options.timing = .virtual
        return try await PipelineRun(
            options: options,
            inputs: RunInputs(pressureSource: ScheduledTemperature(schedule, length: samples))
        ).run()
    }

    @Test(
        "serious pressure lowers the frame rate the session delivers and the detector's share of frames"
    )
    func settingsReachSessionAndDetector() async throws {
        // Serious at 3 s: the observer samples on its own thread in real time, while the
        // run's progress samples (every 0.5 s) can be late on a loaded machine (ThreadSanitizer
        // at 2 cores), so the step leaves room for several of them before it.
        let summary = try await run([(0, 40), (30, 84)], samples: 90)
        let change = try #require(
            summary.governorChanges.first,
            "levels: \(summary.samples.map { "\($0.time): \($0.level)" })")
        #expect(change.level == .serious)
        #expect(change.from.frameRate == 30 && change.from.inference.stride == 1)
        #expect(change.to.frameRate == 20)
        #expect(change.to.inference.stride > 1)
        // Frames the camera delivered (processed or dropped) and detector runs, per second and
        // per frame, over a window before and after the change.
        let before = try #require(summary.samples.last { $0.time < change.time })
        let start = try #require(summary.samples.first { $0.time > .seconds(0.4) })
        let settled = try #require(summary.samples.first { $0.time > change.time + .seconds(0.5) })
        let end = try #require(summary.samples.last)
        func captureRate(_ from: RunSample, _ to: RunSample) -> Double {
            Double(
                to.framesProcessed + to.framesDropped - from.framesProcessed - from.framesDropped)
                / (to.time - from.time).seconds
        }
        func detectorShare(_ from: RunSample, _ to: RunSample) -> Double {
            Double(to.detectorCalls - from.detectorCalls)
                / Double(max(1, to.framesProcessed - from.framesProcessed))
        }
        // 30 → 20 fps; a loaded machine blurs the figures, not their ratio.
        let (rateBefore, rateAfter) = (captureRate(start, before), captureRate(settled, end))
        #expect(rateBefore > 24, "the camera delivers 30 fps before")
        #expect(rateAfter < rateBefore * 0.85, "and 20 fps after (\(rateBefore) → \(rateAfter))")
        #expect(detectorShare(start, before) == 1)
        #expect(detectorShare(settled, end) <= 0.5)
    }

    @Test("shutdown stops capture, and capture resumes when pressure eases")
    func shutdownStopsAndResumes() async throws {
        let summary = try await run([(0, 40), (10, 97), (20, 40)], samples: 40)
        let stop = try #require(summary.governorChanges.first { !$0.to.isCapturing })
        let resume = try #require(
            summary.governorChanges.first { $0.from.isCapturing == false && $0.to.isCapturing })
        #expect(resume.time > stop.time)
        let stopped = summary.samples.filter { !$0.isCapturing }
        #expect(stopped.count >= 2)
        // Frames already on their way may arrive while the session stops; then none do.
        #expect(
            stopped.last?.actualFrameRate == 0,
            "frames while stopped: \(stopped.map(\.actualFrameRate))")
        let processedAfter =
            summary.samples.last!.framesProcessed - (stopped.last?.framesProcessed ?? 0)
        #expect(processedAfter > 0, "frames flow again after the resume")
    }

    @Test("without the governor the settings never change")
    func governorOff() async throws {
        let summary = try await run([(0, 40), (5, 92)], samples: 30, governed: false)
        #expect(summary.governorChanges.isEmpty)
        #expect(summary.worstLevel == .critical)
        #expect(summary.samples.allSatisfy { $0.targetFrameRate == 30 && $0.stride == 1 })
    }

    @Test("the run records its launch phases in order")
    func launchPhases() async throws {
        let summary = try await run([(0, 40)], samples: 20)
        let session = try #require(summary.launch.phase(named: "sessionStart"))
        let firstFrame = try #require(summary.launch.time(of: "firstPreviewFrame"))
        #expect(firstFrame >= session.start)
        #expect(summary.framesProcessed > 0)
        let quality = try #require(summary.quality)
        #expect(quality.idf1 >= 0 && quality.idf1 <= 1)
        #expect(quality.hota >= 0 && quality.hota <= 1)
        #expect(summary.source == "scene seed 1 (two-tone)")
    }

    /// The size of ``makeClip(in:frames:frameRate:)``'s frames.
    static let clipSize = (width: 160, height: 96)

    /// A clip of `frames` frames: a bright block walking right over a dark floor, with its
    /// ground truth.
    static func makeClip(in directory: String, frames: Int, frameRate: FrameRate) throws
        -> (path: String, truth: [MOTRecord])
    {
        let (width, height) = clipSize
        let clip = "\(directory)/clip.y4m"
        let encoder = try VideoEncoder(
            path: clip, width: width, height: height, frameRate: frameRate, layout: .gray,
            field: "clip")
        var truth: [MOTRecord] = []
        for index in 0..<frames {
            var pixels = [UInt8](repeating: 30, count: width * height)
            let x = 10 + index * (width - 40) / frames
            for y in 20..<80 { for column in x..<(x + 20) { pixels[y * width + column] = 200 } }
            try encoder.write(pixels)
            truth.append(
                MOTRecord(
                    frame: index + 1, id: 1,
                    box: BoundingBox(minX: Double(x), minY: 20, width: 20, height: 60)))
        }
        try encoder.finish()
        return (clip, truth)
    }

    @Test(
        "a video file on virtual time plays frame by frame at its rate: the same report twice",
        .enabled(if: ExecutableSearch.find("ffmpeg") != nil))
    func videoOnVirtualTime() async throws {
        let directory = NSTemporaryDirectory() + "headroom-virtual-video-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (clip, truth) = try Self.makeClip(in: directory, frames: 80, frameRate: 10)
        func play() async throws -> RunSummary {
            var options = RunOptions(duration: .seconds(60), scenario: .thermalRamp)
            options.timing = .virtual
            let video = try VideoFrameSource(input: .file(clip), pacing: .frameByFrame)
            options.useVideo(
                video, groundTruth: truth, detector: .blob, keepsDuration: false,
                keepsSession: false, keepsPolicy: false)
            return try await PipelineRun(options: options, inputs: RunInputs(video: video)).run()
        }
        let idle = try await play()
        let load = Load()
        var loaded = try await play()
        load.stop()
        loaded.launch = idle.launch
        #expect(idle == loaded)
        // Every frame, each at its time in the video: 80 frames at 10 a second.
        #expect(idle.framesProcessed == 80 && idle.framesDropped == 0)
        #expect(abs(idle.duration.seconds - 7.9) < 0.11, "\(idle.duration)")
        #expect(try #require(idle.quality).idf1 > 0.9)
    }

    @Test(
        "frame by frame, a video whose capture stops after its last frame ends there, not when capture comes back",
        .enabled(if: ExecutableSearch.find("ffmpeg") != nil))
    func videoEndsWhileCaptureIsStopped() async throws {
        let directory = NSTemporaryDirectory() + "headroom-stopped-video-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Eight frames, at 0.0–0.7 s. The host sits near its high threshold (sampled every
        // 0.05 s) and at 0.75 s is past critical: capture stops before the frame after the last
        // was due, and would stay stopped until the pressure source ends, 20 s on.
        let (clip, _) = try Self.makeClip(in: directory, frames: 8, frameRate: 10)
        var options = RunOptions(duration: .seconds(60))
        options.timing = .virtual
        let video = try VideoFrameSource(input: .file(clip), pacing: .frameByFrame)
        options.useVideo(
            video, groundTruth: [], detector: .blob, keepsDuration: false, keepsSession: false,
            keepsPolicy: false)
        options.pressureInterval = .seconds(0.05)
        let summary = try await PipelineRun(
            options: options,
            inputs: RunInputs(
                video: video,
                pressureSource: ScheduledTemperature([(0, 78), (15, 99)], length: 400))
        ).run()
        #expect(summary.governorChanges.contains { !$0.to.isCapturing }, "capture stopped")
        #expect(summary.framesProcessed == 8)
        #expect(!summary.wasInterrupted && summary.failure == nil)
        #expect(abs(summary.duration.seconds - 0.7) < 0.01, "\(summary.duration)")
        let last = try #require(summary.samples.last)
        #expect(last.time <= .seconds(1), "the run went on to \(last.time)")
    }

    @Test(
        "a video runs through the pipeline once, scored against its ground truth, annotated",
        .enabled(if: ExecutableSearch.find("ffmpeg") != nil))
    func videoSource() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headroom-video-run-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (width, height) = (Self.clipSize.width, Self.clipSize.height)
        let (clip, truth) = try Self.makeClip(in: directory, frames: 45, frameRate: 30)
        let video = try VideoFrameSource(input: .file(clip), pacing: .max)
        var options = RunOptions(
            duration: .seconds(600),
            source: .video(input: video.input, pacing: video.pacing, groundTruth: truth),
            governance: .off, pressureInterval: .seconds(0.1))
        options.configuration.cameras[0].format = CameraFormat(
            width: width, height: height, maxFrameRate: 120)
        options.detector = .blob
        options.outputs.annotation = "\(directory)/annotated.mp4"
        options.outputs.reportDirectory = directory
        let summary = try await PipelineRun(
            options: options,
            inputs: RunInputs(
                video: video, pressureSource: ScheduledTemperature([(0, 40)], length: 100_000))
        ).run()
        // The run ends with the video, having seen each of its frames once.
        #expect(summary.framesProcessed == 45)
        #expect(summary.source == clip)
        let quality = try #require(summary.quality)
        #expect(quality.idf1 > 0.9, "\(quality)")
        #expect(quality.hota > 0.6, "\(quality)")
        #expect(summary.trackCount == 1)
        let annotation = try #require(summary.annotation)
        #expect(annotation.problem == nil)
        #expect(annotation.frames + annotation.framesDropped == 45)
        #expect(annotation.stills.count == AnnotationWriter.stillCount)
        #expect(FileManager.default.fileExists(atPath: "\(directory)/annotated.mp4"))
        for still in annotation.stills {
            #expect(FileManager.default.fileExists(atPath: "\(directory)/\(still)"))
        }
        // What it saw is written beside the report, numbered by the video's frames: a box the
        // detector found in each frame where the square is, and one track following it.
        #expect(
            summary.trackingFiles == ["\(directory)/detections.txt", "\(directory)/tracks.txt"])
        let detections = try MOTFile.parse(
            String(contentsOfFile: "\(directory)/detections.txt", encoding: .utf8), file: "det")
        #expect(Set(detections.map(\.id)) == [-1])
        #expect(Set(detections.map(\.frame)) == Set(1...45))
        for detection in detections {
            let truth = truth[detection.frame - 1].box
            #expect(
                detection.box.intersectionOverUnion(with: truth) > 0.5,
                "\(detection) against \(truth)")
        }
        let tracks = try MOTFile.parse(
            String(contentsOfFile: "\(directory)/tracks.txt", encoding: .utf8), file: "tracks")
        #expect(Set(tracks.map(\.id)).count == 1)
        #expect(tracks.count >= 40)
    }

    /// Runs `session` plus a movie output through the reserve at `storage` for 2 seconds.
    func record(into storage: String, destination: String) async throws -> RunSummary {
        var options = RunOptions(
            duration: .seconds(2), configuration: Self.session, pressureInterval: .seconds(0.1))
        options.configuration.outputs.append(CaptureOutput(kind: .movie, usesProVideoStorage: true))
        options.timing = .virtual
        options.outputs.recording = destination
        options.outputs.storageDirectory = storage
        let run = try PipelineRun(
            options: options,
            inputs: RunInputs(pressureSource: ScheduledTemperature([(0, 50)], length: 1000)))
        let summary = try await run.run()
        #expect(run.metrics.storageRemaining.value() != nil)
        return summary
    }

    @Test("a movie output records every frame the pipeline sees through the reserve, as Y4M")
    func recordsThroughTheReserve() async throws {
        let directory = NSTemporaryDirectory() + "headroom-run-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: "\(directory)/reserve")
        try reserve.allocate(.mebibytes(16))
        let summary = try await record(
            into: "\(directory)/reserve", destination: "\(directory)/clip.y4m")
        let recording = try #require(summary.recording)
        #expect(recording.endReason == .finished)
        #expect(recording.usesProVideoStorage)
        #expect(recording.frames == Int64(summary.framesProcessed))
        #expect(recording.frames > 0)
        let movie = try Y4MFrameSource(path: "\(directory)/clip.y4m")
        #expect(movie.width == 320 && movie.height == 180)
        #expect(Int64(movie.frames.count) == recording.frames)
        #expect(recording.bytes.bytes == Int64(SystemFile.size("\(directory)/clip.y4m")))
        // Replenished afterwards: the reserve is whole again.
        #expect(recording.replenishedBytes > .zero)
        #expect(try reserve.status().remainingBytes == .mebibytes(16))
    }

    @Test(
        "a colour video is recorded in its colour: frame for frame what its decoder gave",
        .enabled(if: ExecutableSearch.find("ffmpeg") != nil))
    func recordsAVideoInColour() async throws {
        let directory = NSTemporaryDirectory() + "headroom-colour-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Red on the left, blue on the right, a green block walking across.
        let (width, height) = (64, 48)
        let clip = "\(directory)/colour.y4m"
        let encoder = try VideoEncoder(
            path: clip, width: width, height: height, frameRate: 10, layout: .rgb24,
            field: "clip")
        for index in 0..<6 {
            var pixels: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    let isBlock = (index * 8..<index * 8 + 12).contains(x) && (10..<30).contains(y)
                    pixels +=
                        isBlock ? [40, 200, 40] : x < width / 2 ? [200, 30, 30] : [30, 30, 200]
                }
            }
            try encoder.write(pixels)
        }
        try encoder.finish()
        try StorageReserve(directory: "\(directory)/reserve").allocate(.mebibytes(4))
        var options = RunOptions(duration: .seconds(60), scenario: .thermalRamp)
        options.timing = .virtual
        let video = try VideoFrameSource(input: .file(clip), pacing: .frameByFrame)
        options.useVideo(
            video, groundTruth: [], detector: .blob, keepsDuration: false, keepsSession: false,
            keepsPolicy: false)
        options.addMovieOutput()
        options.outputs.recording = "\(directory)/recorded.y4m"
        options.outputs.storageDirectory = "\(directory)/reserve"
        let summary = try await PipelineRun(options: options, inputs: RunInputs(video: video))
            .run()
        #expect(try #require(summary.recording).frames == 6)
        /// Every frame of the video at `path`, as ffmpeg decodes it.
        func decoded(_ path: String) async throws -> [Frame] {
            let source = try VideoFrameSource(input: .file(path), pacing: .max)
            defer { source.close() }
            var frames: [Frame] = []
            var frame = Frame(camera: "c", width: width, height: height)
            while true {
                await source.render(&frame)
                // After its last frame the source repeats it.
                guard let index = frame.sourceIndex, index == frames.count else { break }
                source.frameConsumed(index: index)
                frames.append(frame)
            }
            return frames
        }
        let original = try await decoded(clip)
        let recorded = try await decoded("\(directory)/recorded.y4m")
        #expect(original.count == 6 && recorded.count == 6)
        // Read back by ffmpeg as it was written: full range, nothing stretched.
        let differing = zip(recorded, original).enumerated().filter { _, pair in
            pair.0.luma != pair.1.luma || pair.0.chroma != pair.1.chroma
        }.map(\.offset)
        #expect(differing.isEmpty, "frames \(differing) differ")
        // In colour indeed: red on the left, blue on the right.
        let chroma = try #require(recorded.first?.chroma)
        #expect(chroma.red[chroma.width / 4] > 170 && chroma.blue[3 * chroma.width / 4] > 170)
    }

    @Test("a full reserve ends the recording with notEnoughSpace; the pipeline keeps running")
    func fullReserveEndsTheRecordingNotTheRun() async throws {
        let directory = NSTemporaryDirectory() + "headroom-run-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reserve = try StorageReserve(directory: "\(directory)/reserve")
        try reserve.allocate(.mebibytes(1))
        let summary = try await record(
            into: "\(directory)/reserve", destination: "\(directory)/clip.y4m")
        let recording = try #require(summary.recording)
        #expect(recording.endReason == .notEnoughSpace)
        #expect(recording.frames == 12)  // 1 MiB of 86,406-byte frames after the header
        #expect(summary.framesProcessed > 12)
        #expect(summary.notes.contains { $0.contains("notEnoughSpace") })
        let movie = try Y4MFrameSource(path: "\(directory)/clip.y4m")
        #expect(movie.frames.count == 12)
    }

    /// Keeps every core busy until stopped: a loaded machine.
    final class Load: Sendable {
        private let stopped = LockedState(false)

        init() {
            for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                Thread.detachNewThread { [self] in
                    var spin = 0
                    while !stopped.withLock({ $0 }) { for _ in 0..<10_000 { spin &+= 1 } }
                }
            }
        }

        func stop() { stopped.withLock { $0 = true } }
    }

    @Test("on virtual time a run gives the same report on an idle and a loaded machine")
    func virtualRunsAreIdentical() async throws {
        func replay() async throws -> RunSummary {
            var options = RunOptions(
                duration: .seconds(8), scenario: .thermalRamp,
                source: .scene(seed: 7, style: .twoTone),
                configuration: Self.session)
            options.timing = .virtual
            return try await PipelineRun(options: options).run()
        }
        let idle = try await replay()
        let load = Load()
        var loaded = try await replay()
        load.stop()
        // The launch timeline measures the real work of starting: not part of the replay.
        loaded.launch = idle.launch
        #expect(idle == loaded)
        // Not an empty run: frames were tracked, pressure rose, the governor acted.
        #expect(idle.framesProcessed == 8 * 30 + 1)
        #expect(try #require(idle.quality).idf1 > 0)
        #expect(idle.governorChangeCount > 0 && idle.worstLevel >= .fair)
        #expect(idle.timing == .virtual)
        // Every frame counted at the rung it ran at, from the ladder's top; the time adds up
        // to the run's, on its clock.
        let rungs = try #require(idle.rungs)
        #expect(rungs.first?.setting == GovernorPolicy().inferenceLadder.first)
        #expect(rungs.map(\.frames).reduce(0, +) == idle.framesProcessed)
        #expect(rungs.map(\.detectorCalls).reduce(0, +) == idle.detectorCalls)
        #expect(rungs.allSatisfy { $0.networkCalls == nil })
        let seconds = rungs.map(\.time.seconds).reduce(0, +)
        #expect(abs(seconds - 8) < 0.01, "\(seconds) s")
    }

    @Test("on virtual time the thermal model follows the pipeline's work: governed, it cools")
    func governorCoolsTheModel() async throws {
        func run(governed: Bool) async throws -> RunSummary {
            var options = RunOptions(
                duration: .seconds(20), scenario: .thermalRamp, governance: governed ? .full : .off,
                configuration: Self.session)
            options.timing = .virtual
            return try await PipelineRun(options: options).run()
        }
        let on = try await run(governed: true)
        let off = try await run(governed: false)
        #expect(
            off.worstLevel >= .critical, "off: \(off.worstLevel), \(off.peakTemperature ?? 0) °C")
        #expect(on.worstLevel < .critical, "on: \(on.worstLevel), \(on.peakTemperature ?? 0) °C")
        #expect(try #require(on.peakTemperature) < #require(off.peakTemperature))
    }
}

/// File sizes for the checks above.
enum SystemFile {
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

}
