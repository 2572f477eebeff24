/// Where a region-looking detector looks, frame by frame: it keeps what that takes between
/// frames — a model of the background, to see what moves (``MotionDetector``, at half scale),
/// how tall people stand at each row (``PersonHeightModel``), and when the whole frame was
/// last looked at — and plans each frame's regions (``RegionPlan``) around the people the
/// tracker expects and the motion it sees. The whole frame is looked at every
/// ``wholeFrameInterval`` frames (for people who stand still and are not tracked yet) and
/// whenever there is nothing else to look at.
public struct RegionSearch: Sendable {
    /// Frames between looks at the whole frame.
    public var wholeFrameInterval = 10
    /// How the squares are sized.
    public var sizing = RegionPlan.Sizing()
    /// What a tracked person is worth against a motion: the budget goes to the people the
    /// tracker holds first (a person missed is an identity at risk), and to motion — someone
    /// new — with what is left, unless one square covers four motions. On `vtest.avi` 4 took
    /// IDF1 from 0.629 (2) to 0.657 and MOTA from 0.695 to 0.711; 1 scored 0.629 and 0.688, 8
    /// the same as 4 (docs/run.md).
    public static let trackedWeight = 4.0

    private var motion = MotionDetector(scale: 0.5)
    private(set) var heights = PersonHeightModel()
    private var frames = 0

    /// A search that has seen nothing.
    public init() {}

    /// The regions to look at in `frame`: at most `budget`, around `expected` (the tracker's
    /// people, in pixels) and what moves.
    public mutating func plan(
        for frame: GrayFrame, expecting expected: [BoundingBox], budget: Int
    ) -> RegionPlan {
        let isWholeFrameDue = frames % max(1, wholeFrameInterval) == 0
        frames += 1
        var targets = expected.filter(\.isValid).map {
            RegionPlan.Target(box: $0, personHeight: $0.height, weight: Self.trackedWeight)
        }
        for moving in motion.detect(in: frame) {
            let box = moving.box
            // Motion is often a part of someone (legs, a head above a parked car): the person
            // there stands as tall as people stand at its foot row.
            let height = heights.height(atFootRow: box.maxY).map { max($0, box.height) }
            targets.append(
                RegionPlan.Target(box: box, personHeight: height ?? box.height, weight: 1))
        }
        return RegionPlan(
            width: frame.width, height: frame.height, targets: targets, budget: budget,
            wholeFrame: isWholeFrameDue, sizing: sizing)
    }

    /// Learns how tall people stand from the sure boxes found whole in a frame `frameHeight`
    /// pixels tall.
    public mutating func learn(from people: [BoundingBox], frameHeight: Int) {
        for box in people { heights.learn(box, frameHeight: Double(frameHeight)) }
    }
}
