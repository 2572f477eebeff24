/// Finds objects in a frame. The backend protocol of the tracking pipeline: the synthetic
/// ``BlobDetector`` implements it, a neural network would too.
public protocol Detector: Sendable {
    /// Detections in the frame's pixel coordinates (top-left origin).
    mutating func detect(in frame: GrayFrame) -> [Detection]

    /// Whether each detection should carry its look (an ``AppearanceDescriptor`` of its
    /// pixels) to the tracker, which then keeps identities by appearance through occlusions.
    /// `true` unless a detector says otherwise.
    var attachesAppearance: Bool { get }
}

extension Detector {
    /// Looks are attached by default.
    public var attachesAppearance: Bool { true }
}
