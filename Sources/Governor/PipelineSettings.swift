import Files
import Units

/// How heavily the detector runs: on every `stride`-th frame, on frames scaled by `scale`.
public struct InferenceSetting: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Run the detector on every `stride`-th frame (1 = every frame); the tracker predicts between.
    public var stride: Int
    /// Linear scale of the frame the detector sees, 0 < scale ≤ 1.
    public var scale: Double

    /// Creates a setting; `stride` ≥ 1, `scale` in (0, 1].
    public init(stride: Int, scale: Double) {
        self.stride = stride
        self.scale = scale
    }

    /// Detector work per captured frame relative to stride 1 at full scale: `scale² / stride`.
    public var relativeCost: Double { scale * scale / Double(stride) }

    /// The strides a setting may have: beyond 100 frames between detections a tracker only
    /// guesses (and a stride sizes loops and buffers).
    public static let strides = 1...100
    /// The scales a setting may have: below 0.05 a person is a handful of pixels.
    public static let scales = 0.05...1.0

    private enum CodingKeys: String, CodingKey, CaseIterable { case stride, scale }

    /// Decodes and checks a setting (a policy's ladder): stride within ``strides``, scale
    /// within ``scales``; the error names the field.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stride = try container.decode(Int.self, forKey: .stride)
        scale = try container.decode(Double.self, forKey: .scale)
        guard Self.strides.contains(stride) else {
            throw decoder.invalidValue(
                CodingKeys.stride,
                "expected an integer from \(Self.strides.lowerBound) to \(Self.strides.upperBound), got \(stride)"
            )
        }
        guard Self.scales.contains(scale) else {
            throw decoder.invalidValue(
                CodingKeys.scale,
                "expected a scale from \(Self.scales.lowerBound) to \(Self.scales.upperBound), got \(scale)"
            )
        }
    }

    /// `stride 2 @ 0.75`.
    public var description: String { "stride \(stride) @ \(scale)" }
}

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
