import Units

/// Finds objects in a frame. The backend protocol of the tracking pipeline: the synthetic
/// ``BlobDetector`` implements it, a neural network would too.
public protocol Detector: Sendable {
    /// Detections in the frame's pixel coordinates (top-left origin).
    mutating func detect(in frame: GrayFrame) -> [Detection]

    /// Detections in the frame, told where the tracker expects its people (pixel boxes), for
    /// a detector that looks where people are rather than at the whole frame. By default the
    /// expectation is ignored: ``detect(in:)``.
    mutating func detect(in frame: GrayFrame, expecting expected: [BoundingBox]) -> [Detection]

    /// The look each detection carries to the tracker (an ``AppearanceDescriptor`` of its
    /// pixels), which then keeps identities by appearance through occlusions; nil for none.
    /// ``AppearanceStyle/bands`` unless a detector says otherwise.
    var appearanceStyle: AppearanceStyle? { get }

    /// The settings the governor may run the detector at, heaviest first: its ladder, which
    /// only the detector knows how to shed (its knob may be stride, magnification or the
    /// network's input). ``InferenceSetting/standardLadder`` unless a detector says otherwise.
    static var inferenceLadder: [InferenceSetting] { get }

    /// The tracking quality measured at rungs of ``inferenceLadder`` on real footage against
    /// published ground truth (HOTA, 0–1), by which the governor chooses the rung that keeps
    /// most for what it saves; empty when unmeasured (the governor then goes by position).
    static var rungQuality: [InferenceSetting: Double] { get }
}

extension Detector {
    /// ``detect(in:)``: the whole frame, whatever is expected.
    public mutating func detect(in frame: GrayFrame, expecting expected: [BoundingBox])
        -> [Detection]
    {
        detect(in: frame)
    }

    /// Band looks by default.
    public var appearanceStyle: AppearanceStyle? { .bands }

    /// Stride, then scale down to half: for a detector that finds what it finds down to half
    /// scale (the blob and motion detectors).
    public static var inferenceLadder: [InferenceSetting] { InferenceSetting.standardLadder }

    /// Unmeasured.
    public static var rungQuality: [InferenceSetting: Double] { [:] }
}
