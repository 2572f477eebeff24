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
    /// Whether the track's identity was new when given and no lost one has been found for it
    /// yet: each clean view may still exchange it for a lost identity its look matches.
    var hasNewIdentity = false
    /// The frame the track began following its person in (the tracker's count): its start, or
    /// the frame a doubt found it following someone else. A lost identity seen since then was
    /// seen beside this person, so it is someone else's.
    var startFrame = 0
    /// The clean views folded into ``appearance`` while it settles (up to
    /// ``appearanceMaturity``).
    var settlingViews = 0
    /// The look of the recent clean views unlike the settled appearance (a moving average
    /// with ``doubtMomentum``).
    var doubtedLook: AppearanceDescriptor?
    /// The number of clean views in a row unlike the settled appearance.
    var doubtedViews = 0
    /// How far a settling view typically lay from the appearance learned before it (the mean
    /// distance): how much this track's look varies from view to view, larger for a small
    /// box, whose bands are means of few pixels.
    var lookSpread = 0.0

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
        if clean, let look = detection.appearance {
            appearance = look
            settlingViews = 1
        }
    }

    var predictedBox: BoundingBox { filter.box }

    /// The clean views a track's appearance is averaged over before it is trusted; after them
    /// a view unlike it (beyond the change limit) no longer teaches it.
    static let appearanceMaturity = 10

    /// How far each doubted view moves ``doubtedLook``: a shorter memory than the settled
    /// appearance's, since a doubt is decided within a few views.
    static let doubtMomentum = 0.2

    /// How many times its own ``lookSpread`` a settled track's view may differ from its
    /// appearance and still be taken as a view of it: a look measured over few pixels is
    /// noisy, and noise is not someone else.
    static let spreadTolerance = 2.0

    /// The association gate for this track (pairs whose looks differ more are never made):
    /// `base`, or ``spreadTolerance`` times the track's own ``lookSpread`` where that is
    /// larger; while the spread is not yet known (under three views), ``spreadTolerance``
    /// times `base`.
    func appearanceGate(base: Double) -> Double {
        settlingViews < 3
            ? Self.spreadTolerance * base : max(base, Self.spreadTolerance * lookSpread)
    }

    /// Forgets the views counted as doubt: the track's looks are settled again.
    mutating func dismissDoubt() {
        doubtedLook = nil
        doubtedViews = 0
    }

    /// Folds a clean view's appearance into the learned one: freely while it settles (its
    /// first ``appearanceMaturity`` views, averaged, which also measure ``lookSpread``), then
    /// only when it is within `changeLimit` of it, or ``spreadTolerance`` times the spread
    /// where that is more (`lightChange` forgiven); an unlike view is counted as doubt
    /// instead (``doubtedViews``), and its look kept (``doubtedLook``).
    mutating func learn(_ observed: AppearanceDescriptor, changeLimit: Double, lightChange: Double)
    {
        guard let learned = appearance else {
            appearance = observed
            settlingViews = 1
            return
        }
        if settlingViews < Self.appearanceMaturity {
            lookSpread += (learned.distance(to: observed) - lookSpread) / Double(settlingViews)
            settlingViews += 1
            let weight = max(Self.appearanceMomentum, 1 / Double(settlingViews))
            appearance = learned.blended(toward: observed, weight: weight)
        } else if learned.distance(to: observed, lightChange: lightChange)
            <= max(changeLimit, Self.spreadTolerance * lookSpread)
        {
            appearance = learned.blended(toward: observed, weight: Self.appearanceMomentum)
            dismissDoubt()
        } else {
            doubtedLook =
                doubtedLook?.blended(toward: observed, weight: Self.doubtMomentum) ?? observed
            doubtedViews += 1
        }
    }
}
