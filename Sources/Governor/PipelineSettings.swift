import Units

/// What the governor sets on the pipeline.
public struct PipelineSettings: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The target frame rate (applied as the camera's frame-rate override).
    public var frameRate: FrameRate
    /// The detector's stride and scale.
    public var inference: InferenceSetting
    /// Whether capture runs; `false` at `shutdown` until pressure eases.
    public var isCapturing: Bool

    /// Creates settings.
    public init(frameRate: FrameRate, inference: InferenceSetting, isCapturing: Bool = true) {
        self.frameRate = frameRate
        self.inference = inference
        self.isCapturing = isCapturing
    }

    /// The work these settings cause, relative to full rate with inference on every frame:
    /// used to order settings from light to heavy.
    public func load(relativeTo requestedFrameRate: FrameRate) -> Double {
        guard isCapturing else { return 0 }
        return frameRate / requestedFrameRate * (1 + inference.relativeCost) / 2
    }

    /// `30 fps, stride 1 @ 1.0` or `capture stopped`.
    public var description: String {
        isCapturing ? "\(frameRate.framesPerSecond.trimmed()) fps, \(inference)" : "capture stopped"
    }
}
