/// An axis-aligned box in any one consistent unit (pixels, or normalized image units).
///
/// The tracker and the MOT metrics only compare boxes with each other, so the origin
/// convention does not matter to them as long as every box uses the same one.
public struct BoundingBox: Sendable, Hashable, Codable {
    /// The smallest x coordinate (the left edge in top-left images).
    public var minX: Double
    /// The smallest y coordinate (the top edge in top-left images).
    public var minY: Double
    /// The width, ≥ 0.
    public var width: Double
    /// The height, ≥ 0.
    public var height: Double

    /// Creates a box from its minimum corner and size.
    public init(minX: Double, minY: Double, width: Double, height: Double) {
        self.minX = minX
        self.minY = minY
        self.width = width
        self.height = height
    }

    /// Creates a box from its centre and size.
    public init(centerX: Double, centerY: Double, width: Double, height: Double) {
        self.init(
            minX: centerX - width / 2, minY: centerY - height / 2, width: width, height: height)
    }

    /// The largest x coordinate.
    public var maxX: Double { minX + width }
    /// The largest y coordinate.
    public var maxY: Double { minY + height }
    /// The centre's x coordinate.
    public var centerX: Double { minX + width / 2 }
    /// The centre's y coordinate.
    public var centerY: Double { minY + height / 2 }
    /// The area, width × height.
    public var area: Double { width * height }

    /// Whether every coordinate is finite and the size is positive.
    public var isValid: Bool {
        minX.isFinite && minY.isFinite && width.isFinite && height.isFinite && width > 0
            && height > 0
    }

    /// The area both boxes cover, 0 when they do not overlap.
    public func intersectionArea(with other: BoundingBox) -> Double {
        let width = min(maxX, other.maxX) - max(minX, other.minX)
        let height = min(maxY, other.maxY) - max(minY, other.minY)
        return width > 0 && height > 0 ? width * height : 0
    }

    /// Intersection over union, in 0...1; 0 when either box is empty.
    public func intersectionOverUnion(with other: BoundingBox) -> Double {
        let intersection = intersectionArea(with: other)
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    /// The smallest box containing both boxes.
    public func union(_ other: BoundingBox) -> BoundingBox {
        let minX = min(self.minX, other.minX)
        let minY = min(self.minY, other.minY)
        return BoundingBox(
            minX: minX, minY: minY, width: max(maxX, other.maxX) - minX,
            height: max(maxY, other.maxY) - minY)
    }
}
