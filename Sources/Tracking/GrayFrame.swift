/// An 8-bit greyscale pixel buffer, row-major, top-left origin.
public struct GrayFrame: Sendable {
    /// The width in pixels, > 0.
    public let width: Int
    /// The height in pixels, > 0.
    public let height: Int
    /// The pixels, `width × height` bytes, row after row.
    public var pixels: [UInt8]

    /// Creates a frame filled with `value`.
    public init(width: Int, height: Int, value: UInt8 = 0) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: value, count: width * height)
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
