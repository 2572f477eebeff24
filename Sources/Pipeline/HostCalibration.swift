import Capture
import FoundationEssentials
import Governor
import LaunchTiming
import Locking
import Tracking
import Units

/// Measures this host's sustainable pixel rate through the real frame pipeline and derives a
/// device profile from it.
///
/// Each configuration runs as a capture session whose camera draws the synthetic scene, paced
/// at its frame rate, with the detector (every frame, full scale: the heaviest setting a run
/// starts with) and the multi-object tracker consuming its `videoData` frames. After a
/// warm-up, a window measures the process's CPU time and the thread CPU time of drawing and of
/// detecting and tracking. ``CalibrationFit`` turns the fitting configurations into the
/// profile's parameters; the held-out ones then check the estimator's prices against measured
/// utilization (``CalibrationValidation``).
public struct HostCalibration: Sendable {
    /// Configurations the fit uses by default: four resolutions, low and high frame rates.
    public static let defaultFitPoints: [CalibrationPoint] = [
        CalibrationPoint(width: 320, height: 180, frameRate: 30),
        CalibrationPoint(width: 640, height: 360, frameRate: 10),
        CalibrationPoint(width: 640, height: 360, frameRate: 30),
        CalibrationPoint(width: 1280, height: 720, frameRate: 10),
        CalibrationPoint(width: 1280, height: 720, frameRate: 20),
        CalibrationPoint(width: 1920, height: 1080, frameRate: 10),
    ]

    /// Held-out configurations by default: resolutions and rates the fit does not use, and two
    /// cameras at once (do costs add up, with one overhead per camera?).
    public static let defaultHeldOutPoints: [CalibrationPoint] = [
        CalibrationPoint(width: 480, height: 270, frameRate: 25),
        CalibrationPoint(width: 960, height: 540, frameRate: 15),
        CalibrationPoint(width: 960, height: 540, frameRate: 30),
        CalibrationPoint(width: 1600, height: 900, frameRate: 12),
        CalibrationPoint(width: 640, height: 360, frameRate: 15, cameras: 2),
    ]

    /// Configurations HOG is fitted at: the sizes it runs at on video (a 576-line PAL frame and
    /// its 0.75 step, up to 720p), at the few frames a second a CPU manages. HOG's work per
    /// pixel grows with its pyramid of 64×128 windows — a 288-line frame costs about a fifth
    /// less a pixel than a 576-line one, and a frame shorter than the window almost nothing — so
    /// these stay between 384 and 720 lines, where the estimator's cost per pixel holds.
    public static let hogFitPoints: [CalibrationPoint] = [
        CalibrationPoint(width: 512, height: 384, frameRate: 8),
        CalibrationPoint(width: 640, height: 480, frameRate: 5),
        CalibrationPoint(width: 768, height: 576, frameRate: 2),
        CalibrationPoint(width: 768, height: 576, frameRate: 6),
        CalibrationPoint(width: 960, height: 720, frameRate: 3),
        CalibrationPoint(width: 1280, height: 720, frameRate: 2),
    ]

    /// HOG's held-out configurations: sizes and rates between the fitted ones, and two cameras.
    public static let hogHeldOutPoints: [CalibrationPoint] = [
        CalibrationPoint(width: 576, height: 432, frameRate: 6),
        CalibrationPoint(width: 704, height: 528, frameRate: 4),
        CalibrationPoint(width: 896, height: 504, frameRate: 4),
        CalibrationPoint(width: 960, height: 540, frameRate: 3),
        CalibrationPoint(width: 512, height: 384, frameRate: 4, cameras: 2),
    ]

    /// Configurations the neural detector is fitted at: sizes from 320 × 180 to 1080p, so the
    /// fit can tell its work per pixel (drawing, bringing the frame to its input) from its
    /// work per frame (the network), at frame rates whose frames differ for one size.
    public static let fixedInputFitPoints: [CalibrationPoint] = [
        CalibrationPoint(width: 320, height: 180, frameRate: 4),
        CalibrationPoint(width: 320, height: 180, frameRate: 12),
        CalibrationPoint(width: 640, height: 360, frameRate: 8),
        CalibrationPoint(width: 1280, height: 720, frameRate: 4),
        CalibrationPoint(width: 1280, height: 720, frameRate: 10),
        CalibrationPoint(width: 1920, height: 1080, frameRate: 6),
    ]

    /// The neural detector's held-out configurations.
    public static let fixedInputHeldOutPoints: [CalibrationPoint] = [
        CalibrationPoint(width: 480, height: 270, frameRate: 10),
        CalibrationPoint(width: 960, height: 540, frameRate: 6),
        CalibrationPoint(width: 960, height: 540, frameRate: 12),
        CalibrationPoint(width: 1600, height: 900, frameRate: 5),
        CalibrationPoint(width: 640, height: 360, frameRate: 5, cameras: 2),
    ]

    /// The configurations fitted and held out by default for `detector`.
    public static func defaultPoints(for detector: DetectorKind)
        -> (fit: [CalibrationPoint], heldOut: [CalibrationPoint])
    {
        if detector == .hog { return (hogFitPoints, hogHeldOutPoints) }
        if detector.hasFixedInput { return (fixedInputFitPoints, fixedInputHeldOutPoints) }
        return (defaultFitPoints, defaultHeldOutPoints)
    }

    /// Configurations fitted.
    public var fitPoints: [CalibrationPoint]
    /// Configurations held out for validation.
    public var heldOutPoints: [CalibrationPoint]
    /// Seconds of measuring windows in total, split evenly across configurations (each at
    /// least 0.2 s, and longer when needed to see 3 frames); each configuration also warms up
    /// for a quarter of its window, at most 0.5 s.
    public var seconds: Double
    /// The name of the profile made.
    public var profileName: String
    /// The synthetic scene's seed.
    public var seed: UInt64
    /// How many windows a configuration may take to process its first frames before it is
    /// taken as one that did not keep up (10 by default). A test raises it, so that a machine
    /// whose other work starves the frame loop for a while still yields a measurement.
    public var patience = 10.0
    /// The detector measured: the one `headroom run` will use (blob for the scene, HOG for
    /// real video by default), since its work is what the profile's `videoData` weight prices.
    public var detector: DetectorKind
    /// The neural detector's model, found by the caller; nil for the other detectors.
    public var personModel: PersonModel?
    /// How much the configurations' width and height were scaled to suit this host (1: as
    /// given); see ``scaled(toSecondsPerPixel:)``.
    public private(set) var resolutionScale = 1.0
    /// How much the configurations' frame rates were scaled to suit this host (1: as given;
    /// HOG only); see ``scaled(toSecondsPerPixel:)``.
    public private(set) var frameRateScale = 1.0

    /// The largest share of one core the heaviest configuration may need: a frame loop runs on
    /// one core, and one near its limit falls behind instead of measuring the cost model.
    public static let coreShareLimit = 0.7

    /// A calibration of `detector` measuring for `seconds` in total (20 by default: about
    /// 25 s with warm-ups) at `fitPoints` and `heldOutPoints` (by default the detector's
    /// ``defaultPoints(for:)``).
    public init(
        seconds: Double = 20, fitPoints: [CalibrationPoint]? = nil,
        heldOutPoints: [CalibrationPoint]? = nil,
        profileName: String = ProfileCatalog.hostProfileName, seed: UInt64 = 1,
        detector: DetectorKind = .blob, personModel: PersonModel? = nil
    ) {
        let defaults = Self.defaultPoints(for: detector)
        self.detector = detector
        self.personModel = personModel
        self.seconds = seconds
        self.fitPoints = fitPoints ?? defaults.fit
        self.heldOutPoints = heldOutPoints ?? defaults.heldOut
        self.profileName = profileName
        self.seed = seed
    }

    /// Seconds each configuration is measured for.
    public var window: Double {
        max(0.2, seconds / Double(max(1, fitPoints.count + heldOutPoints.count)))
    }

    /// Seconds each configuration warms up before its window.
    public var warmUp: Double { min(0.5, window / 4) }

    /// This calibration made light enough for this host: the heaviest configuration needs at
    /// most ``coreShareLimit`` of one core at `secondsPerPixel` CPU seconds per pixel.
    /// Every configuration's width and height are scaled by the same factor (frame rates kept,
    /// sizes rounded to multiples of 8) — or, for HOG, whose work per pixel depends on the
    /// frame's size, every frame rate by the square of it (sizes kept). Unchanged when it
    /// already is light enough, or nearly (a factor of 0.95 or more). A slow host is then
    /// calibrated at lighter configurations instead of falling behind at every one.
    public func scaled(toSecondsPerPixel secondsPerPixel: Double) -> HostCalibration {
        let points = fitPoints + heldOutPoints
        let heaviest = points.map { $0.format.pixelsPerSecond(at: $0.frameRate) }.max() ?? 0
        let load = heaviest * secondsPerPixel
        guard load > Self.coreShareLimit, load.isFinite else { return self }
        let scale = (Self.coreShareLimit / load).squareRoot()
        guard scale < 0.95 else { return self }  // near enough: keep the usual sizes
        let keepsSizes = detector.workPerPixelGrowsWithSize
        func scaled(_ point: CalibrationPoint) -> CalibrationPoint {
            if keepsSizes {
                return CalibrationPoint(
                    width: point.width, height: point.height,
                    frameRate: FrameRate(
                        framesPerSecond: point.frameRate.framesPerSecond * scale * scale),
                    cameras: point.cameras)
            }
            func side(_ length: Int) -> Int {
                max(8, Int((Double(length) * scale / 8).rounded()) * 8)
            }
            return CalibrationPoint(
                width: side(point.width), height: side(point.height), frameRate: point.frameRate,
                cameras: point.cameras)
        }
        var copy = self
        copy.fitPoints = fitPoints.map(scaled)
        copy.heldOutPoints = heldOutPoints.map(scaled)
        if keepsSizes {
            copy.frameRateScale = frameRateScale * scale * scale
        } else {
            copy.resolutionScale = resolutionScale * scale
        }
        return copy
    }

    /// The setting the detector is measured at: the top of its ladder, the one a run starts
    /// at (for the neural detector, regions: several network calls a frame).
    private var measuredSetting: InferenceSetting {
        detector.inferenceLadder.first ?? InferenceSetting(stride: 1, scale: 1)
    }

    /// CPU seconds per pixel of drawing, detecting and tracking, measured on a few frames of
    /// the smallest configuration's size on the calling thread (about a quarter of a second):
    /// what ``scaled(toSecondsPerPixel:)`` needs before the real measurements.
    func probeSecondsPerPixel() throws -> Double {
        let smallest = (fitPoints + heldOutPoints).min { $0.pixelsPerFrame < $1.pixelsPerFrame }
        let point = CalibrationPoint(
            width: smallest?.width ?? 320, height: smallest?.height ?? 180, frameRate: 30)
        var scene = SyntheticScene.Configuration()
        scene.seed = seed
        let source = SceneFrameSource(
            scene: scene, width: point.width, height: point.height, pose: CameraPose())
        var stage = try TrackingStage(
            inference: measuredSetting, frameRate: point.frameRate, detector: detector,
            personModel: personModel)
        var frame = Frame(camera: "probe", width: point.width, height: point.height)
        let start = CPUTime.thread()
        var frames = 0
        while frames < 3 || (CPUTime.thread() - start < 0.25 && frames < 1000) {
            frame.number = frames
            // The scene moves by the frames' timestamps, at the point's frame rate.
            frame.timestamp = MonotonicInstant(nanoseconds: 0).advanced(
                by: .seconds(Double(frames) / point.frameRate.framesPerSecond))
            source.render(&frame)
            _ = stage.process(
                frame, pose: CameraPose(), interval: 1 / 30, people: nil as [MOTRecord]?)
            frames += 1
        }
        return (CPUTime.thread() - start) / Double(frames * point.pixelsPerFrame)
    }

    /// Measures every configuration, fits the profile and validates it; calls `progress` about
    /// ten times a second and once as each configuration finishes.
    ///
    /// A short probe first scales the configurations down on a host too slow for them
    /// (``scaled(toSecondsPerPixel:)``, with a margin of a quarter for the session's own work);
    /// the report's ``CalibrationReport/resolutionScale`` says by how much.
    ///
    /// - Throws: ``CalibrationError`` when the measurements do not support a fit,
    ///   `CancellationError` when cancelled, or a capture error (a programming error).
    public func run(
        progress: @escaping @Sendable (CalibrationProgress) -> Void = { _ in }
    ) async throws -> CalibrationReport {
        try Task.checkCancellation()
        // A detector of fixed input costs per frame: its cost per pixel at the smallest size
        // says nothing of the larger ones, and its configurations are light by frame rate.
        let plan =
            detector.hasFixedInput
            ? self : scaled(toSecondsPerPixel: try probeSecondsPerPixel() * 1.25)
        return try await plan.measureAll(progress: progress)
    }

    private func measureAll(
        progress: @escaping @Sendable (CalibrationProgress) -> Void
    ) async throws -> CalibrationReport {
        let all = fitPoints.map { ($0, false) } + heldOutPoints.map { ($0, true) }
        var fitted: [CalibrationMeasurement] = []
        var heldOut: [CalibrationMeasurement] = []
        for (index, (point, isHeldOut)) in all.enumerated() {
            let measurement = try await measure(point) { share in
                progress(
                    CalibrationProgress(
                        point: point, index: index, count: all.count, isHeldOut: isHeldOut,
                        fraction: (Double(index) + share) / Double(all.count)))
            }
            progress(
                CalibrationProgress(
                    point: point, index: index, count: all.count, isHeldOut: isHeldOut,
                    fraction: Double(index + 1) / Double(all.count), measurement: measurement))
            if isHeldOut { heldOut.append(measurement) } else { fitted.append(measurement) }
        }
        let fit =
            detector.hasFixedInput
            ? try CalibrationFit(fixedInputMeasurements: fitted)
            : try CalibrationFit(measurements: fitted)
        let date = Self.today()
        let cores = CPUTime.cores
        var profile = fit.profile(
            name: profileName, cores: cores, date: date, points: fitPoints + heldOutPoints,
            detector: detector)
        profile.rungCosts = try priceRungs()
        return CalibrationReport(
            profile: profile, fit: fit, fitMeasurements: fitted, heldOutMeasurements: heldOut,
            validation: CalibrationValidation(measurements: heldOut, profile: profile),
            date: date, cores: cores, resolutionScale: resolutionScale,
            frameRateScale: frameRateScale, detector: detector)
    }

    /// The size the ladder's rungs are priced at: the main job's own camera.
    public static let rungPricingSize = (width: 960, height: 540)
    /// Frames each rung is priced over, at least (more while under ``rungPricingSeconds`` of
    /// CPU time): enough for a strided rung's frames to average out, and for regions to follow
    /// the scene's people.
    public static let rungPricingFrames = 30
    /// CPU seconds each rung is priced for, at least.
    public static let rungPricingSeconds = 0.5

    /// What each rung of the detector's ladder costs a frame on this host: the scene at
    /// ``rungPricingSize`` through a tracking stage at the rung, on the calling thread, by the
    /// process's CPU time (the detector's own threads too: OpenCV runs its network on several)
    /// over at least ``rungPricingFrames`` frames and ``rungPricingSeconds``.
    ///
    /// - Throws: a ``PersonModelError`` when the neural detector cannot read its model.
    public func priceRungs() throws -> [RungCost] {
        let size = Self.rungPricingSize
        var scene = SyntheticScene.Configuration()
        scene.seed = seed
        let source = SceneFrameSource(
            scene: scene, width: size.width, height: size.height, pose: CameraPose())
        let frameRate: FrameRate = 30
        return try detector.inferenceLadder.map { rung in
            var stage = try TrackingStage(
                inference: rung, frameRate: frameRate, detector: detector,
                personModel: personModel)
            var frame = Frame(camera: "rungs", width: size.width, height: size.height)
            var cpu = 0.0
            var frames = 0
            while frames < Self.rungPricingFrames
                || (cpu < Self.rungPricingSeconds && frames < 10 * Self.rungPricingFrames)
            {
                frame.number = frames
                frame.timestamp = MonotonicInstant(nanoseconds: 0).advanced(
                    by: .seconds(Double(frames) / frameRate.framesPerSecond))
                source.render(&frame)
                let start = CPUTime.process()
                _ = stage.process(
                    frame, pose: CameraPose(), interval: 1 / frameRate.framesPerSecond,
                    people: nil as [MOTRecord]?)
                cpu += CPUTime.process() - start
                frames += 1
            }
            return RungCost(
                setting: rung,
                cpuMillisecondsPerFrame: max(
                    RungCost.plausibleMilliseconds.lowerBound, cpu * 1000 / Double(frames)))
        }
    }

    /// Runs `point` for a warm-up and a window; `share` is told the window's progress, 0…1.
    func measure(_ point: CalibrationPoint, share: (Double) -> Void) async throws
        -> CalibrationMeasurement
    {
        var scene = SyntheticScene.Configuration()
        scene.seed = seed
        let source = MeteredFrameSource(
            SceneFrameSource(
                scene: scene, width: point.width, height: point.height, pose: CameraPose()))
        let session = CaptureSession(
            configuration: point.session(profile: Self.unpriced.name),
            estimator: HardwareCostEstimator(profile: Self.unpriced), frameSource: source,
            clock: ContinuousRunClock())
        session.beginConfiguration()
        try session.commitConfiguration()
        let consumer = ConsumerMeter(drawnCPUSeconds: { source.drawn.cpuSeconds })
        let stage = try TrackingStage(
            inference: measuredSetting, frameRate: point.frameRate, detector: detector,
            personModel: personModel)
        let frames = session.videoFrames(bufferLimit: 2 * point.cameras)
        // Capture runs while the consumer takes its frames and the window measures; then
        // both stop, and capture last.
        return try await session.whileRunning {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { [stage] in
                    // One tracker per camera, as one pipeline per camera would run.
                    var stages: [String: TrackingStage] = [:]
                    let pose = CameraPose()
                    for await frame in frames {
                        let start = CPUTime.thread()
                        _ = stages[frame.camera, default: stage].process(
                            frame, pose: pose, interval: 1 / point.frameRate.framesPerSecond,
                            people: nil as [MOTRecord]?)
                        consumer.add(
                            frame: frame.number, camera: frame.camera,
                            cpuSeconds: CPUTime.thread() - start)
                    }
                }
                defer { group.cancelAll() }
                return try await window(point, consumer: consumer, share: share)
            }
        }
    }

    private func window(
        _ point: CalibrationPoint, consumer: ConsumerMeter, share: (Double) -> Void
    ) async throws -> CalibrationMeasurement {
        let clock = ContinuousClock()
        try await Task.sleep(for: .seconds(warmUp))
        // The window runs from one frame done to another, so that it holds whole frames: the
        // process's CPU time in it is theirs, however few there are (HOG at 2 fps). It lasts
        // `window` seconds, longer (up to `patience` windows) until a few frames were
        // processed: a busy machine may starve a short one.
        let wallStart = MonotonicClock.now()
        let end = clock.now + .seconds(window)
        let latest = clock.now + .seconds(window * patience)
        var start = consumer.mark
        func isDone() -> Bool {
            let now = clock.now
            let frames = consumer.mark.frames
            if start.frames == 0 && frames > 0 { start = consumer.mark }
            return now >= latest || (now >= end && start.frames > 0 && frames - start.frames >= 3)
        }
        while !isDone() {
            let left = clock.now < end ? end - clock.now : .milliseconds(20)
            try await Task.sleep(for: min(.milliseconds(100), left))
            share(min(1, MonotonicClock.now().seconds(since: wallStart) / window))
        }
        let done = consumer.mark
        guard done.frames > start.frames else {
            // Nothing processed in `patience` windows: a window without frames, which did not
            // keep up.
            return CalibrationMeasurement(
                point: point, seconds: MonotonicClock.now().seconds(since: wallStart), frames: 0,
                droppedFrames: done.dropped - start.dropped, processCPUSeconds: 0,
                readoutCPUSeconds: 0, consumerCPUSeconds: 0, cores: CPUTime.cores)
        }
        return CalibrationMeasurement(
            point: point, seconds: done.wall.seconds(since: start.wall),
            frames: done.frames - start.frames, droppedFrames: done.dropped - start.dropped,
            processCPUSeconds: done.processCPUSeconds - start.processCPUSeconds,
            readoutCPUSeconds: done.drawnCPUSeconds - start.drawnCPUSeconds,
            consumerCPUSeconds: done.cpuSeconds - start.cpuSeconds, cores: CPUTime.cores)
    }

    /// A profile that refuses nothing: the calibration session is committed before the host's
    /// budget is known.
    static let unpriced: DeviceProfile = {
        var profile = DeviceProfile.genericDesktop
        profile.name = "calibration (unpriced)"
        profile.pixelRate = .greatestFiniteMagnitude
        profile.memoryBandwidth = .greatestFiniteMagnitude
        profile.perCameraOverhead = 0
        return profile
    }()

    /// Today in UTC as `YYYY-MM-DD`.
    static func today() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        let year = parts.year ?? 1970
        let month = parts.month ?? 1
        let day = parts.day ?? 1
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}

/// The detector and tracker's side of a measurement, marked as each frame is done: frames
/// processed, frames they never saw (gaps in each camera's frame numbers), their thread CPU
/// time, and at that moment the process's CPU time, the camera's drawing CPU time and the
/// wall clock.
final class ConsumerMeter: Sendable {
    /// The totals as a frame was done.
    struct Mark: Sendable {
        var frames = 0
        var dropped = 0
        var cpuSeconds = 0.0
        var processCPUSeconds = 0.0
        var drawnCPUSeconds = 0.0
        var wall = MonotonicInstant.origin
    }

    private let state = LockedState<(mark: Mark, last: [String: Int])>((Mark(), [:]))
    private let drawnCPUSeconds: @Sendable () -> Double

    /// A meter reading the camera's drawing CPU time from `drawnCPUSeconds`.
    init(drawnCPUSeconds: @escaping @Sendable () -> Double) {
        self.drawnCPUSeconds = drawnCPUSeconds
    }

    /// Counts frame `number` of `camera`, processed in `cpuSeconds`, and marks the moment.
    func add(frame number: Int, camera: String, cpuSeconds: Double) {
        let process = CPUTime.process()
        let drawn = drawnCPUSeconds()
        let wall = MonotonicClock.now()
        state.withLock { state in
            if let last = state.last[camera] { state.mark.dropped += max(0, number - last - 1) }
            state.last[camera] = number
            state.mark.frames += 1
            state.mark.cpuSeconds += cpuSeconds
            state.mark.processCPUSeconds = process
            state.mark.drawnCPUSeconds = drawn
            state.mark.wall = wall
        }
    }

    /// The totals as the latest frame was done.
    var mark: Mark { state.withLock { $0.mark } }
}
