/// A track's identity, stable for the track's life; assigned when the track is confirmed,
/// counting up from 1.
public struct TrackID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The number, ≥ 1.
    public var rawValue: Int

    /// Wraps a number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// The number as text.
    public var description: String { String(rawValue) }

    /// Orders ids by number.
    public static func < (lhs: TrackID, rhs: TrackID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A confirmed track as the tracker reports it for one frame.
public struct TrackedObject: Sendable, Hashable {
    /// The stable identity.
    public var id: TrackID
    /// The estimated box in the detections' units.
    public var box: BoundingBox
    /// The estimated centre velocity, in box units per frame.
    public var velocityX: Double
    /// The estimated centre velocity, in box units per frame.
    public var velocityY: Double
    /// What the track shows.
    public var kind: ObservationKind
    /// The confidence of the last matched detection.
    public var confidence: Double
    /// Frames since the track was started.
    public var age: Int
    /// Whether the box is a prediction only (no detection matched it this frame).
    public var isPredicted: Bool

    /// Creates a tracked object (the tracker makes these; tests and stands may too).
    public init(
        id: TrackID, box: BoundingBox, velocityX: Double = 0, velocityY: Double = 0,
        kind: ObservationKind = .humanBody, confidence: Double = 1, age: Int = 0,
        isPredicted: Bool = false
    ) {
        self.id = id
        self.box = box
        self.velocityX = velocityX
        self.velocityY = velocityY
        self.kind = kind
        self.confidence = confidence
        self.age = age
        self.isPredicted = isPredicted
    }
}

/// The tracker's internal record of one track.
struct TrackRecord: Sendable {
    enum State: Sendable { case tentative, confirmed, lost }

    /// How far each clean observation moves the learned appearance (an exponential moving
    /// average with a memory of about ten observations).
    static let appearanceMomentum = 0.1

    var filter: KalmanFilter
    var state: State
    var id: TrackID?
    var kind: ObservationKind
    var confidence: Double
    var hits: Int
    var age: Int
    var framesSinceUpdate: Int
    var matchedThisFrame: Bool
    /// The box of the last matched detection (after partial-view correction).
    var lastObservation: BoundingBox
    /// The learned appearance, from clean observations only.
    var appearance: AppearanceDescriptor?
    /// Whether a new track took over this lost track's identity (it is removed at the end of
    /// the frame).
    var isMerged = false

    /// A tentative track started by `detection`; its appearance is learned when the view is
    /// `clean`.
    init(detection: Detection, clean: Bool, noise: KalmanFilter.Noise) {
        filter = KalmanFilter(initial: detection.box, noise: noise)
        state = .tentative
        kind = detection.kind
        confidence = detection.confidence
        hits = 1
        age = 0
        framesSinceUpdate = 0
        matchedThisFrame = true
        lastObservation = detection.box
        appearance = clean ? detection.appearance : nil
    }

    var predictedBox: BoundingBox { filter.box }

    /// Folds a clean observation's appearance into the learned one.
    mutating func learn(_ observed: AppearanceDescriptor) {
        if appearance == nil {
            appearance = observed
        } else {
            appearance?.blend(toward: observed, weight: Self.appearanceMomentum)
        }
    }
}
