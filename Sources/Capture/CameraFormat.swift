import Files
import Units

/// One mode a camera sensor can deliver: output size, frame-rate range, pixel format, and how
/// the sensor produces it (binned, or cropped from the sensor's area).
public struct CameraFormat: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Output width in pixels.
    public var width: Int
    /// Output height in pixels.
    public var height: Int
    /// The lowest frame rate the mode supports, in frames per second.
    public var minFrameRate: FrameRate
    /// The highest frame rate the mode supports, in frames per second; what a session pays for
    /// unless a camera's frame-rate override lowers it.
    public var maxFrameRate: FrameRate
    /// The in-memory layout of delivered frames.
    public var pixelFormat: PixelFormat
    /// Whether the sensor bins neighbouring photosites (e.g. 2×2) to produce this size, which
    /// reads out and processes fewer raw pixels than scaling a full readout.
    public var isBinned: Bool
    /// Whether this mode reads only a window of the sensor (a crop) instead of its full area.
    public var isCropped: Bool

    /// Creates a format; frame rates are in frames per second.
    public init(
        width: Int, height: Int, minFrameRate: FrameRate = 1, maxFrameRate: FrameRate,
        pixelFormat: PixelFormat = .nv12, isBinned: Bool = false, isCropped: Bool = false
    ) {
        self.width = width
        self.height = height
        self.minFrameRate = minFrameRate
        self.maxFrameRate = maxFrameRate
        self.pixelFormat = pixelFormat
        self.isBinned = isBinned
        self.isCropped = isCropped
    }

    /// Pixels in one delivered frame.
    public var pixelCount: Int { width * height }

    /// Pixels delivered each second at `frameRate`.
    public func pixelsPerSecond(at frameRate: FrameRate) -> Double {
        Double(pixelCount) * frameRate.framesPerSecond
    }

    /// Bytes one delivered frame occupies in memory.
    public var bytesPerFrame: Double { Double(pixelCount) * pixelFormat.bytesPerPixel }

    /// Whether `frameRate` lies within this mode's supported range.
    public func supports(frameRate: FrameRate) -> Bool {
        frameRate >= minFrameRate && frameRate <= maxFrameRate
    }

    /// `3840x2160@60 nv12 binned`.
    public var description: String {
        var text = "\(width)x\(height)@\(formattedFrameRate(maxFrameRate)) \(pixelFormat.rawValue)"
        if isBinned { text += " binned" }
        if isCropped { text += " crop" }
        return text
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case width, height, minFrameRate, maxFrameRate, pixelFormat
        case isBinned = "binned"
        case isCropped = "cropped"
    }

    /// The largest width or height accepted, a sanity bound above any real sensor (a 16384²
    /// frame is already 400 MB of NV12), so that no frame size can exhaust a small machine.
    public static let maximumDimension = 16_384

    /// The highest frame rate accepted, frames per second.
    public static let maximumFrameRate: FrameRate = 1000

    /// Decodes and validates a format: positive sizes, a non-empty positive frame-rate range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
        maxFrameRate = try container.decode(FrameRate.self, forKey: .maxFrameRate)
        minFrameRate = try container.decodeIfPresent(FrameRate.self, forKey: .minFrameRate) ?? 1
        pixelFormat = try container.decodeIfPresent(PixelFormat.self, forKey: .pixelFormat) ?? .nv12
        isBinned = try container.decodeIfPresent(Bool.self, forKey: .isBinned) ?? false
        isCropped = try container.decodeIfPresent(Bool.self, forKey: .isCropped) ?? false

        let bound = Self.maximumDimension
        for (key, value) in [(CodingKeys.width, width), (.height, height)]
        where value < 1 || value > bound {
            throw decoder.invalidValue(key, "expected an integer from 1 to \(bound), got \(value)")
        }
        guard maxFrameRate > 0, maxFrameRate <= Self.maximumFrameRate else {
            throw decoder.invalidValue(
                CodingKeys.maxFrameRate,
                "expected a frame rate above 0 and at most \(formattedFrameRate(Self.maximumFrameRate)) fps, got \(formattedFrameRate(maxFrameRate))"
            )
        }
        guard minFrameRate > 0, minFrameRate <= maxFrameRate else {
            throw decoder.invalidValue(
                CodingKeys.minFrameRate,
                "expected a frame rate above 0 and at most maxFrameRate (\(formattedFrameRate(maxFrameRate))),"
                    + " got \(formattedFrameRate(minFrameRate))")
        }
    }
}

/// A frame rate printed without a needless fraction: `30`, `29.97`.
func formattedFrameRate(_ frameRate: FrameRate) -> String {
    let value = frameRate.framesPerSecond
    return value == value.rounded() && abs(value) < 1e9
        ? String(Int(value)) : String(format2: value)
}

extension String {
    /// `value` with at most two decimals, trailing zeros removed.
    init(format2 value: Double) {
        var text = String((value * 100).rounded() / 100)
        if text.hasSuffix(".0") { text.removeLast(2) }
        self = text
    }
}
