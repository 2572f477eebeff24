import Tracking

/// How far the framed subject's true position is from where the framing wants it: the measure
/// of how well a follower keeps its subject in frame.
public enum FramingError {
    /// The error counted for a frame without a subject, or whose subject matches no person.
    public static let missed = 0.5

    /// The distance (picture units, at most ``missed``) between the framing target and the true
    /// centre of the person behind the primary subject, found by the best overlap (IoU > 0.3)
    /// among `people` (pixel boxes in a `width × height` frame).
    public static func measure(
        framing: FramingResult?, subject: TrackedObject?, people: [BoundingBox], width: Double,
        height: Double
    ) -> Double {
        guard let framing, let subject else { return missed }
        let pixels = BoundingBox(
            minX: subject.box.minX * width, minY: subject.box.minY * height,
            width: subject.box.width * width, height: subject.box.height * height)
        guard
            let truth = people.max(by: {
                $0.intersectionOverUnion(with: pixels) < $1.intersectionOverUnion(with: pixels)
            }), truth.intersectionOverUnion(with: pixels) > 0.3
        else { return missed }
        let dx = truth.centerX / width - framing.target.x
        let dy = truth.centerY / height - framing.target.y
        return min(missed, (dx * dx + dy * dy).squareRoot())
    }
}
