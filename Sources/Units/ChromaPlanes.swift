/// A frame's colour, beside its luma: the blue-difference (Cb) and red-difference (Cr) planes
/// at half the frame's width and height (4:2:0, as cameras and video files carry it), 8 bits a
/// sample, 128 for no colour, full range (JPEG's). Samples are copy-on-write arrays, so keeping
/// a frame's colour costs no copy.
public struct ChromaPlanes: Sendable, Hashable {
    /// Samples across, `(frame width + 1) / 2`.
    public let width: Int
    /// Rows, `(frame height + 1) / 2`.
    public let height: Int
    /// `width × height` blue-difference samples, row after row.
    public var blue: [UInt8]
    /// `width × height` red-difference samples, row after row.
    public var red: [UInt8]

    /// The planes' size for a frame of `width × height` pixels.
    public static func size(forFrameWidth width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + 1) / 2, (height + 1) / 2)
    }

    /// Planes of the given samples (`width × height` each).
    public init(width: Int, height: Int, blue: [UInt8], red: [UInt8]) {
        precondition(
            blue.count == width * height && red.count == width * height,
            "ChromaPlanes: expected \(width * height) samples a plane")
        self.width = width
        self.height = height
        self.blue = blue
        self.red = red
    }

    /// Colourless planes for a frame of `width × height` pixels.
    public init(neutralForFrameWidth width: Int, height: Int) {
        let size = Self.size(forFrameWidth: width, height: height)
        self.init(
            width: size.width, height: size.height,
            blue: [UInt8](repeating: 128, count: size.width * size.height),
            red: [UInt8](repeating: 128, count: size.width * size.height))
    }

    /// The blue and red difference at frame pixel (`x`, `y`), each −128...127.
    @inline(__always)
    public func difference(atFrameX x: Int, y: Int) -> (blue: Int, red: Int) {
        let index = (y >> 1) * width + (x >> 1)
        return (Int(blue[index]) - 128, Int(red[index]) - 128)
    }
}
