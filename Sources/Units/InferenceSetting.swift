import Files

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

    /// The ladder for a detector that finds what it finds down to half scale (the blob and
    /// motion detectors), heaviest first: stride, then scale down to half.
    public static let standardLadder = [
        InferenceSetting(stride: 1, scale: 1), InferenceSetting(stride: 2, scale: 1),
        InferenceSetting(stride: 3, scale: 0.75), InferenceSetting(stride: 5, scale: 0.5),
    ]
}
