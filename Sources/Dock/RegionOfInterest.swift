import Tracking

/// The part of the picture framing aims into, in normalized top-left coordinates (x right,
/// y down, the whole picture is 0...1 on both axes); the default is the whole picture.
public struct RegionOfInterest: Sendable, Hashable, Codable {
    /// The region as a normalized top-left box.
    public let box: BoundingBox

    /// The whole picture.
    public static let fullFrame = RegionOfInterest(
        uncheckedBox: BoundingBox(
            minX: 0, minY: 0, width: 1, height: 1))

    private init(uncheckedBox box: BoundingBox) { self.box = box }

    /// Creates a region.
    ///
    /// - Throws: ``RegionOfInterestError`` when the box is not finite, is empty, or does not lie
    ///   inside 0...1 on both axes.
    public init(_ box: BoundingBox) throws(RegionOfInterestError) {
        guard box.isValid else {
            throw RegionOfInterestError(
                problem: "expected a finite box with positive size, got \(box)")
        }
        guard box.minX >= 0, box.minY >= 0, box.maxX <= 1 + 1e-9, box.maxY <= 1 + 1e-9 else {
            throw RegionOfInterestError(
                problem: "expected a box inside the normalized picture 0...1, got \(box)")
        }
        self.box = box
    }
}

/// A region of interest that cannot be used.
public struct RegionOfInterestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was wrong and what was expected.
    public var problem: String
    /// `region of interest: problem`.
    public var description: String { "region of interest: \(problem)" }
}
