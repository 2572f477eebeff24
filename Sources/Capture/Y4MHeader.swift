import Units

/// The header line of a YUV4MPEG2 stream (`YUV4MPEG2 W960 H540 F30:1 Ip A1:1 C420jpeg`):
/// frame size, frame rate and colour space, which fixes how many bytes follow each `FRAME`
/// line. Supported colour spaces are the planar 8-bit ones: `C420`, `C420jpeg` (the default),
/// `C420paldv`, `C420mpeg2`, `C422`, `C444` and `Cmono`.
public struct Y4MHeader: Sendable, Hashable {
    /// The frame width in pixels, 1 to ``CameraFormat/maximumDimension``.
    public var width: Int
    /// The frame height in pixels, 1 to ``CameraFormat/maximumDimension``.
    public var height: Int
    /// Frames per second (`F` numerator over denominator), within ``frameRates``; `nil` when
    /// the header has none.
    public var frameRate: FrameRate?
    /// Bytes of chroma after each frame's `width × height` luma bytes.
    public var chromaBytes: Int

    /// The frame rates a stream may declare: from one frame in ten seconds (slower, a run at
    /// the video's pace would wait for ever between frames) to 1,000 a second.
    public static let frameRates: ClosedRange<FrameRate> = 0.1...1000

    /// Bytes of one frame's pixels (luma and chroma), after its `FRAME` line.
    public var frameBytes: Int { width * height + chromaBytes }

    /// What is wrong with a header line.
    public struct Problem: Error, Sendable {
        /// The problem and what was expected.
        public var problem: String
    }

    /// Parses a header line (without its newline).
    ///
    /// - Throws: ``Problem`` for a line that is not a YUV4MPEG2 header, a size out of range,
    ///   a malformed frame rate or an unsupported colour space.
    public init(line: some Collection<UInt8>) throws(Problem) {
        let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard fields.first == "YUV4MPEG2" else {
            throw Problem(problem: "expected a stream starting with \"YUV4MPEG2\"")
        }
        var width = 0
        var height = 0
        var colourSpace = "420"
        var frameRate: FrameRate?
        for field in fields.dropFirst() {
            let value = String(field.dropFirst())
            switch field.first {
            case "W": width = Int(value) ?? 0
            case "H": height = Int(value) ?? 0
            case "C": colourSpace = value
            case "F":
                // Integers, as the format has them: `Finf:1` and `F1e308:1e-308` are not rates.
                let parts = value.split(separator: ":", omittingEmptySubsequences: false).map {
                    UInt32($0)
                }
                guard parts.count == 2, let numerator = parts[0], let denominator = parts[1],
                    denominator > 0,
                    Self.frameRates.contains(
                        FrameRate(framesPerSecond: Double(numerator) / Double(denominator)))
                else {
                    throw Problem(
                        problem:
                            "expected a frame rate like F30:1 (whole numbers, \(Self.frameRates.lowerBound.framesPerSecond) to \(Int(Self.frameRates.upperBound.framesPerSecond)) frames a second), got F\(value.prefix(40))"
                    )
                }
                frameRate = FrameRate(framesPerSecond: Double(numerator) / Double(denominator))
            default: break
            }
        }
        let sizes = 1...CameraFormat.maximumDimension
        guard sizes.contains(width), sizes.contains(height) else {
            throw Problem(
                problem:
                    "expected W and H from 1 to \(sizes.upperBound) in the header, got W\(width) H\(height)"
            )
        }
        switch colourSpace {
        case "420", "420jpeg", "420paldv", "420mpeg2":
            chromaBytes = 2 * ((width + 1) / 2) * ((height + 1) / 2)
        case "422": chromaBytes = 2 * ((width + 1) / 2) * height
        case "444": chromaBytes = 2 * width * height
        case "mono": chromaBytes = 0
        default:
            throw Problem(
                problem:
                    "unsupported colour space C\(colourSpace.prefix(40)); expected C420, C422, C444 or Cmono"
            )
        }
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}
