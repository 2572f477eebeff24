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
    /// How many luma pixels across and down share one chroma sample (4:2:0 is 2 × 2, 4:2:2
    /// 2 × 1, 4:4:4 1 × 1); `nil` for a grey stream (`Cmono`).
    public var chromaSubsampling: Subsampling?

    /// How many luma pixels across and down share one chroma sample.
    public struct Subsampling: Sendable, Hashable {
        /// Pixels across.
        public var across: Int
        /// Rows down.
        public var down: Int
    }

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
            chromaSubsampling = Subsampling(across: 2, down: 2)
        case "422": chromaSubsampling = Subsampling(across: 2, down: 1)
        case "444": chromaSubsampling = Subsampling(across: 1, down: 1)
        case "mono": chromaSubsampling = nil
        default:
            throw Problem(
                problem:
                    "unsupported colour space C\(colourSpace.prefix(40)); expected C420, C422, C444 or Cmono"
            )
        }
        chromaBytes =
            chromaSubsampling.map { 2 * Self.planeSize(width: width, height: height, $0) } ?? 0
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    /// Samples in one chroma plane of a `width × height` frame subsampled by `subsampling`.
    private static func planeSize(
        width: Int, height: Int, _ subsampling: Subsampling
    ) -> Int {
        (width + subsampling.across - 1) / subsampling.across
            * ((height + subsampling.down - 1) / subsampling.down)
    }

    /// The colour of a frame's pixel bytes (luma then chroma, ``frameBytes`` of them) as 4:2:0
    /// planes, taking every other sample across or down where the stream has more; `nil` for
    /// a grey stream.
    public func chroma(of pixels: ArraySlice<UInt8>) -> ChromaPlanes? {
        guard let subsampling = chromaSubsampling else { return nil }
        let planeWidth = (width + subsampling.across - 1) / subsampling.across
        let plane = Self.planeSize(width: width, height: height, subsampling)
        let blueStart = pixels.startIndex + width * height
        let size = ChromaPlanes.size(forFrameWidth: width, height: height)
        if subsampling == Subsampling(across: 2, down: 2) {
            return ChromaPlanes(
                width: size.width, height: size.height,
                blue: Array(pixels[blueStart..<(blueStart + plane)]),
                red: Array(pixels[(blueStart + plane)..<(blueStart + 2 * plane)]))
        }
        func halved(_ start: Int) -> [UInt8] {
            var samples = [UInt8](repeating: 128, count: size.width * size.height)
            for row in 0..<size.height {
                let sourceRow = start + row * 2 / subsampling.down * planeWidth
                for column in 0..<size.width {
                    samples[row * size.width + column] =
                        pixels[sourceRow + column * 2 / subsampling.across]
                }
            }
            return samples
        }
        return ChromaPlanes(
            width: size.width, height: size.height, blue: halved(blueStart),
            red: halved(blueStart + plane))
    }
}
