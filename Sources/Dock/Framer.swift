import Tracking

/// Where the framed subjects are and where they should be.
public struct FramingResult: Sendable, Hashable {
    /// The box around everyone framed, normalized top-left.
    public var framedBox: BoundingBox
    /// The point of the framed box that framing steers: its centre, normalized top-left.
    public var subjectPoint: (x: Double, y: Double)
    /// Where that point should be, normalized top-left.
    public var target: (x: Double, y: Double)

    /// The horizontal error, subject minus target, in picture widths (positive: too far right).
    public var errorX: Double { subjectPoint.x - target.x }
    /// The vertical error, subject minus target, in picture heights (positive: too low).
    public var errorY: Double { subjectPoint.y - target.y }
    /// The distance between subject point and target, in picture units.
    public var error: Double { (errorX * errorX + errorY * errorY).squareRoot() }

    /// Compares all fields.
    public static func == (lhs: FramingResult, rhs: FramingResult) -> Bool {
        lhs.framedBox == rhs.framedBox && lhs.subjectPoint == rhs.subjectPoint
            && lhs.target == rhs.target
    }

    /// Hashes all fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(framedBox)
        hasher.combine(subjectPoint.x)
        hasher.combine(subjectPoint.y)
        hasher.combine(target.x)
        hasher.combine(target.y)
    }
}

/// Computes the framing target for the selected subjects in a framing mode and region of
/// interest, and the framing error.
public struct Framer: Sendable, Hashable {
    /// The framing mode.
    public var mode: FramingMode
    /// The region of interest framing aims into.
    public var region: RegionOfInterest
    /// In automatic mode, a subject moving faster than this (picture widths per frame) is led.
    public var leadSpeed: Double = 0.002

    /// Creates a framer.
    public init(mode: FramingMode = .automatic, region: RegionOfInterest = .fullFrame) {
        self.mode = mode
        self.region = region
    }

    /// The framing of `subjects` (the primary first), whose boxes are normalized top-left.
    /// - Returns: nil when there are no subjects.
    public func frame(_ subjects: [TrackedObject]) -> FramingResult? {
        guard let first = subjects.first else { return nil }
        let framed = subjects.dropFirst().reduce(first.box) { $0.union($1.box) }
        let roi = region.box
        let thirds: Double
        switch mode {
        case .left: thirds = 1.0 / 3
        case .center: thirds = 0.5
        case .right: thirds = 2.0 / 3
        case .automatic:
            if subjects.count == 1 && abs(first.velocityX) > leadSpeed {
                // Moving right: place on the left third so there is room ahead.
                thirds = first.velocityX > 0 ? 1.0 / 3 : 2.0 / 3
            } else {
                thirds = 0.5
            }
        }
        return FramingResult(
            framedBox: framed, subjectPoint: (framed.centerX, framed.centerY),
            target: (roi.minX + roi.width * thirds, roi.minY + roi.height / 2))
    }
}
