import Files

/// How heavily the detector runs: on every `stride`-th frame, on frames scaled by `scale`, or,
/// for a detector that looks at regions, on at most `regions` parts of each frame.
public struct InferenceSetting: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Run the detector on every `stride`-th frame (1 = every frame); the tracker predicts between.
    public var stride: Int
    /// Linear scale of the frame the detector sees, 0 < scale ≤ 1.
    public var scale: Double
    /// The most regions of a frame the detector looks at (network calls a frame, the
    /// whole frame's look among them); 0 looks at the whole frame alone.
    public var regions: Int

    /// Creates a setting; `stride` ≥ 1, `scale` in (0, 1], `regions` in ``regionBudgets``.
    public init(stride: Int, scale: Double, regions: Int = 0) {
        self.stride = stride
        self.scale = scale
        self.regions = regions
    }

    /// Detector work per captured frame relative to one look at the whole frame at full
    /// scale on every frame: `regions / stride` when it looks at regions (each as dear as a
    /// whole frame: the network's input is the same), else `scale² / stride`.
    public var relativeCost: Double {
        (regions > 0 ? Double(regions) : scale * scale) / Double(stride)
    }

    /// The strides a setting may have: beyond 100 frames between detections a tracker only
    /// guesses (and a stride sizes loops and buffers).
    public static let strides = 1...100
    /// The scales a setting may have: below 0.05 a person is a handful of pixels.
    public static let scales = 0.05...1.0
    /// The region budgets a setting may have: more than 16 network calls a frame costs more
    /// than tiling the frame would.
    public static let regionBudgets = 0...16

    private enum CodingKeys: String, CodingKey, CaseIterable { case stride, scale, regions }

    /// Decodes and checks a setting (a policy's ladder): stride within ``strides``, scale
    /// within ``scales``; the error names the field.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stride = try container.decode(Int.self, forKey: .stride)
        scale = try container.decode(Double.self, forKey: .scale)
        regions = try container.decodeIfPresent(Int.self, forKey: .regions) ?? 0
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
        guard Self.regionBudgets.contains(regions) else {
            throw decoder.invalidValue(
                CodingKeys.regions,
                "expected an integer from \(Self.regionBudgets.lowerBound) to \(Self.regionBudgets.upperBound), got \(regions)"
            )
        }
    }

    /// Encodes the setting; `regions` only when it looks at regions.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stride, forKey: .stride)
        try container.encode(scale, forKey: .scale)
        if regions > 0 { try container.encode(regions, forKey: .regions) }
    }

    /// `stride 2 @ 0.75`, or `3 regions` (`3 regions, stride 2`).
    public var description: String {
        guard regions > 0 else { return "stride \(stride) @ \(scale)" }
        return "\(regions) regions" + (stride > 1 ? ", stride \(stride)" : "")
    }

    /// The ladder for a detector that finds what it finds down to half scale (the blob and
    /// motion detectors), heaviest first: stride, then scale down to half.
    public static let standardLadder = [
        InferenceSetting(stride: 1, scale: 1), InferenceSetting(stride: 2, scale: 1),
        InferenceSetting(stride: 3, scale: 0.75), InferenceSetting(stride: 5, scale: 0.5),
    ]
}
