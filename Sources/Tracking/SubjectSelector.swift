/// Chooses the primary subject among the tracks and keeps it: the choice changes only when the
/// subject has been gone for ``patience`` frames, never because someone else is nearer the
/// centre. Tracks close to the primary subject (interacting with it) are framed with it.
public struct SubjectSelector: Sendable {
    /// Frames the primary subject may be missing before another one is chosen, ≥ 0.
    public var patience: Int
    /// Another track joins the framed group when the gap between it and the primary subject
    /// is less than this many subject widths.
    public var interactionDistance: Double
    /// The current primary subject, if any.
    public private(set) var primary: TrackID?
    private var missingFrames = 0

    /// Creates a selector.
    public init(patience: Int = 15, interactionDistance: Double = 0.75) {
        self.patience = max(0, patience)
        self.interactionDistance = interactionDistance
    }

    /// Updates the choice with this frame's tracks (any consistent box units) and returns the
    /// tracks to frame: the primary subject first, then the ones interacting with it; empty
    /// when there is nobody to frame.
    public mutating func select(from tracks: [TrackedObject]) -> [TrackedObject] {
        if let primary, tracks.contains(where: { $0.id == primary }) {
            missingFrames = 0
        } else if primary != nil {
            missingFrames += 1
            if missingFrames > patience { primary = nil }
        }
        if primary == nil, let best = tracks.max(by: { score($0) < score($1) }) {
            primary = best.id
            missingFrames = 0
        }
        guard let primary, let subject = tracks.first(where: { $0.id == primary }) else {
            return []
        }
        let reach = subject.box.width * interactionDistance
        let group = tracks.filter { track in
            guard track.id != primary else { return false }
            let gapX = max(
                0, max(track.box.minX - subject.box.maxX, subject.box.minX - track.box.maxX))
            let gapY = max(
                0, max(track.box.minY - subject.box.maxY, subject.box.minY - track.box.maxY))
            return gapX <= reach && gapY <= reach
        }
        return [subject] + group
    }

    /// Bigger, surer and older tracks make better subjects.
    private func score(_ track: TrackedObject) -> Double {
        track.box.area * track.confidence * Double(min(track.age, 30) + 1)
    }
}
