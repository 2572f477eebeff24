/// What an observation shows.
public enum ObservationKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A human face.
    case humanFace
    /// A human body.
    case humanBody
    /// Any other object.
    case object
}

/// One detection as the stand sees it: a normalized rectangle, what it shows, how sure the
/// detector is, and optionally the identifier the producer gave it.
public struct Observation: Sendable, Hashable, Codable {
    /// The rectangle, normalized, lower-left origin.
    public var rect: NormalizedRect
    /// What the rectangle shows.
    public var kind: ObservationKind
    /// The detector's confidence, 0...1.
    public var confidence: Double
    /// The producer's identifier (a track id), when it has one.
    public var identifier: Int?

    /// Creates an observation.
    public init(
        rect: NormalizedRect, kind: ObservationKind, confidence: Double, identifier: Int? = nil
    ) {
        self.rect = rect
        self.kind = kind
        self.confidence = confidence
        self.identifier = identifier
    }
}

/// One detection in tracker coordinates: a box (any consistent unit), a kind and a confidence.
public struct Detection: Sendable, Hashable {
    /// The detected box.
    public var box: BoundingBox
    /// The detector's confidence, 0...1.
    public var confidence: Double
    /// What the box shows; the tracker only associates a detection with tracks of its kind.
    public var kind: ObservationKind
    /// What the box looks like, when its pixels were at hand; the tracker uses it to keep
    /// identities through occlusions and absences.
    public var appearance: AppearanceDescriptor?

    /// Creates a detection.
    public init(
        box: BoundingBox, confidence: Double, kind: ObservationKind = .humanBody,
        appearance: AppearanceDescriptor? = nil
    ) {
        self.box = box
        self.confidence = confidence
        self.kind = kind
        self.appearance = appearance
    }

    /// The detection of an observation, in normalized top-left coordinates.
    public init(_ observation: Observation) {
        self.init(
            box: observation.rect.topLeft, confidence: observation.confidence,
            kind: observation.kind)
    }
}
