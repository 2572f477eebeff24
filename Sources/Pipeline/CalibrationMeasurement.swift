import Units

/// What running one ``CalibrationPoint`` through the frame pipeline cost, over a measuring
/// window that starts after a warm-up.
public struct CalibrationMeasurement: Hashable, Codable, Sendable {
    /// The configuration measured.
    public var point: CalibrationPoint
    /// Wall seconds of the window, > 0.
    public var seconds: Double
    /// Frames the tracking stage processed in the window, all cameras together.
    public var frames: Int
    /// Frames the camera skipped or the pipeline never saw in the window (it fell behind).
    public var droppedFrames: Int
    /// CPU seconds used by the whole process in the window (every thread).
    public var processCPUSeconds: Double
    /// Of those, the seconds the camera spent drawing frames (the synthetic scene's renderer).
    public var readoutCPUSeconds: Double
    /// Of those, the seconds the detector and tracker spent on frames.
    public var consumerCPUSeconds: Double
    /// Online CPUs: the budget utilization is a share of, ≥ 1.
    public var cores: Int

    /// Creates a measurement; see each property for units.
    public init(
        point: CalibrationPoint, seconds: Double, frames: Int, droppedFrames: Int,
        processCPUSeconds: Double, readoutCPUSeconds: Double, consumerCPUSeconds: Double,
        cores: Int
    ) {
        self.point = point
        self.seconds = seconds
        self.frames = frames
        self.droppedFrames = droppedFrames
        self.processCPUSeconds = processCPUSeconds
        self.readoutCPUSeconds = readoutCPUSeconds
        self.consumerCPUSeconds = consumerCPUSeconds
        self.cores = cores
    }

    /// The share of the machine's CPU budget used: CPU seconds per second over cores, 0…1.
    public var utilization: Double {
        seconds > 0 ? processCPUSeconds / seconds / Double(max(cores, 1)) : 0
    }

    /// The frame rate of each camera processed in the window.
    public var deliveredFrameRate: FrameRate {
        FrameRate(
            framesPerSecond: seconds > 0 ? Double(frames) / seconds / Double(point.cameras) : 0)
    }

    /// Pixels processed per second of the window.
    public var pixelsPerSecond: Double {
        seconds > 0 ? Double(frames) * Double(point.pixelsPerFrame) / seconds : 0
    }

    /// Whether the pipeline kept up with the configuration: it processed the frames the window
    /// had time for (85 % of them, less one for the window's edges), and dropped at most 5 % of
    /// them (or one).
    /// One that did not was limited by something the cost model does not describe (a frame
    /// loop uses one core at most).
    public var keptUp: Bool {
        frames > 0
            && Double(frames)
                >= 0.85 * point.frameRate.framesPerSecond * Double(point.cameras) * seconds - 1
            && Double(droppedFrames) <= max(1, 0.05 * Double(frames + droppedFrames))
    }
}
