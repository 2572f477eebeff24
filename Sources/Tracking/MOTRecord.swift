/// One line of a MOTChallenge text file: a box of one object (or detection) in one frame.
///
/// Boxes are in pixels with a top-left origin, as MOTChallenge writes them.
public struct MOTRecord: Sendable, Hashable {
    /// The frame number, ≥ 1.
    public var frame: Int
    /// The object or track id; −1 for detections without one.
    public var id: Int
    /// The box in pixels, top-left origin.
    public var box: BoundingBox
    /// The confidence (detections) or the "consider" flag (ground truth); 1 when absent.
    public var confidence: Double

    /// A frame and an id: what names one box of an identity.
    public struct FrameIdentity: Hashable, Sendable {
        /// The frame number.
        public var frame: Int
        /// The id.
        public var id: Int
    }

    /// Creates a record.
    public init(frame: Int, id: Int, box: BoundingBox, confidence: Double = 1) {
        self.frame = frame
        self.id = id
        self.box = box
        self.confidence = confidence
    }
}
