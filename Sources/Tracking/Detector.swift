/// Finds objects in a frame. The backend protocol of the tracking pipeline: the synthetic
/// ``BlobDetector`` implements it, a neural network would too.
public protocol Detector: Sendable {
    /// Detections in the frame's pixel coordinates (top-left origin).
    mutating func detect(in frame: GrayFrame) -> [Detection]
}
