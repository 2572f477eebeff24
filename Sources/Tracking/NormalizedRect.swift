/// A rectangle in normalized image coordinates with a lower-left origin, as Vision and DockKit
/// report observations: x grows to the right, y grows upwards, the image is 0...1 on both axes.
public struct NormalizedRect: Sendable, Hashable, Codable {
    /// The left edge, 0 at the image's left border.
    public var x: Double
    /// The bottom edge, 0 at the image's bottom border.
    public var y: Double
    /// The width as a fraction of the image width.
    public var width: Double
    /// The height as a fraction of the image height.
    public var height: Double

    /// Creates a rectangle from its lower-left corner and size, all normalized.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Converts a normalized rectangle given with a top-left origin (y grows downwards).
    public init(topLeftX: Double, topLeftY: Double, width: Double, height: Double) {
        self.init(x: topLeftX, y: 1 - topLeftY - height, width: width, height: height)
    }

    /// Converts a pixel rectangle of a camera buffer (top-left origin) into the upright image.
    ///
    /// - Parameters:
    ///   - pixels: the box in buffer pixels, top-left origin.
    ///   - bufferWidth: the buffer's width in pixels, > 0.
    ///   - bufferHeight: the buffer's height in pixels, > 0.
    ///   - orientation: how the buffer turns upright.
    public init(
        pixels: BoundingBox, bufferWidth: Double, bufferHeight: Double,
        orientation: CameraOrientation = .up
    ) {
        let minX = pixels.minX / bufferWidth
        let minY = pixels.minY / bufferHeight
        let maxX = pixels.maxX / bufferWidth
        let maxY = pixels.maxY / bufferHeight
        let a = orientation.upright(x: minX, y: minY)
        let b = orientation.upright(x: maxX, y: maxY)
        let left = min(a.x, b.x)
        let top = min(a.y, b.y)
        self.init(
            topLeftX: left, topLeftY: top, width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    /// The same rectangle with a top-left origin, as a normalized `BoundingBox`.
    public var topLeft: BoundingBox {
        BoundingBox(minX: x, minY: 1 - y - height, width: width, height: height)
    }

    /// The rectangle in pixels of an upright image of the given size (top-left origin).
    public func pixels(imageWidth: Double, imageHeight: Double) -> BoundingBox {
        let box = topLeft
        return BoundingBox(
            minX: box.minX * imageWidth, minY: box.minY * imageHeight,
            width: box.width * imageWidth, height: box.height * imageHeight)
    }

    /// The centre's x coordinate.
    public var midX: Double { x + width / 2 }
    /// The centre's y coordinate (lower-left origin).
    public var midY: Double { y + height / 2 }
}
