import Units

/// An 8-bit greyscale pixel buffer, row-major, top-left origin: the luma the detectors read,
/// with the frame's colour beside it when it has colour (``chroma``), for the tracker's looks.
public struct GrayFrame: Sendable {
    /// The width in pixels, > 0.
    public let width: Int
    /// The height in pixels, > 0.
    public let height: Int
    /// The pixels, `width × height` bytes, row after row.
    public var pixels: [UInt8]
    /// The frame's colour (4:2:0 planes for this size), when it has colour.
    public var chroma: ChromaPlanes?

    /// Creates a frame filled with `value`.
    public init(width: Int, height: Int, value: UInt8 = 0) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: value, count: width * height)
    }

    /// Wraps existing pixels (`width × height` bytes, row after row) and colour, when given,
    /// without copying them.
    public init(width: Int, height: Int, pixels: [UInt8], chroma: ChromaPlanes? = nil) {
        precondition(pixels.count == width * height, "GrayFrame: expected \(width * height) pixels")
        precondition(
            chroma.map {
                ($0.width, $0.height) == ChromaPlanes.size(forFrameWidth: width, height: height)
            }
                ?? true, "GrayFrame: chroma planes of another size")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.chroma = chroma
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
