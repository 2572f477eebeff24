/// The header line of a YUV4MPEG2 stream (`YUV4MPEG2 W960 H540 F30:1 Ip A1:1 C420jpeg`):
/// frame size, frame rate and colour space, which fixes how many bytes follow each `FRAME`
/// line. Supported colour spaces are the planar 8-bit ones: `C420`, `C420jpeg` (the default),
/// `C420paldv`, `C420mpeg2`, `C422`, `C444` and `Cmono`.
public struct Y4MHeader: Sendable, Hashable {
    /// The frame width in pixels, 1...32768.
    public var width: Int
    /// The frame height in pixels, 1...32768.
    public var height: Int
    /// Frames per second (`F` numerator over denominator); `nil` when the header has none.
    public var frameRate: Double?
    /// Bytes of chroma after each frame's `width × height` luma bytes.
    public var chromaBytes: Int

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
        var frameRate: Double?
        for field in fields.dropFirst() {
            let value = String(field.dropFirst())
            switch field.first {
            case "W": width = Int(value) ?? 0
            case "H": height = Int(value) ?? 0
            case "C": colourSpace = value
            case "F":
                let parts = value.split(separator: ":").compactMap { Double($0) }
                guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
                    throw Problem(problem: "expected a frame rate like F30:1, got F\(value)")
                }
                frameRate = parts[0] / parts[1]
            default: break
            }
        }
        guard width > 0, height > 0, width <= 32_768, height <= 32_768 else {
            throw Problem(
                problem: "expected positive W and H in the header, got W\(width) H\(height)")
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
                    "unsupported colour space C\(colourSpace); expected C420, C422, C444 or Cmono")
        }
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}
