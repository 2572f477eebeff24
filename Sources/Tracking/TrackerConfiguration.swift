/// The tracker's thresholds and ages; defaults follow ByteTrack's published settings.
public struct TrackerConfiguration: Sendable, Hashable, Codable {
    /// Detections at or above this confidence take part in the first association stage.
    public var highConfidence: Double = 0.5
    /// Detections below this confidence are ignored; those between this and
    /// ``highConfidence`` only continue existing tracks (the second stage).
    public var lowConfidence: Double = 0.1
    /// A high-confidence detection that matches nothing starts a track when at least this sure.
    public var newTrackConfidence: Double = 0.6
    /// Minimum IoU for the first stage (ByteTrack's `match_thresh` 0.8 as a cost, 1 − IoU).
    public var firstStageIoU: Double = 0.2
    /// Minimum IoU for the second stage (low-confidence detections).
    public var secondStageIoU: Double = 0.5
    /// Minimum IoU for tentative tracks to match the leftover high-confidence detections.
    public var tentativeIoU: Double = 0.3
    /// Consecutive matched inference frames a new track needs to be confirmed (given an id).
    public var confirmationHits: Int = 2
    /// Frames (inference or not) a lost track is kept for re-identification before removal.
    public var maximumLostFrames: Int = 30
    /// Frames a lost track is still reported (with its predicted box) before it disappears
    /// from the output, bridging single missed detections; 0 reports matched tracks only,
    /// as ByteTrack does.
    public var coastingFrames: Int = 2
    /// How much appearance counts against motion when associating: a pair's cost is
    /// `1 − IoU + appearanceWeight × appearance distance` (when both sides have an appearance).
    public var appearanceWeight: Double = 3
    /// Pairs that look more different than this (``AppearanceDescriptor/distance(to:lightChange:)``)
    /// are never associated, however well they overlap: clothes one palette step apart in half
    /// the body (about 0.09) pass, other clothes do not. A track whose look varies more from
    /// view to view (a small box, whose bands are means of few pixels) is gated at twice its
    /// own variation instead, and a new one at twice this.
    public var appearanceGate: Double = 0.1
    /// A detection that matches no track by motion takes over a lost track's identity when
    /// their appearances are closer than this, and clearly closer than to any other lost track
    /// (re-identification); 0 turns re-identification off.
    public var reidentificationDistance: Double = 0.07
    /// The change in brightness re-identification forgives (``AppearanceDescriptor/distance(to:lightChange:)``):
    /// someone who comes back in another part of the room stands in other light. Association
    /// frame to frame compares looks as they are (the light changes little in a frame). Every
    /// bit forgiven also brings look-alikes closer: at 0.1, clothes one grey step (20 levels)
    /// lighter all over are within ``reidentificationDistance`` of each other; at 0.05 they
    /// are 0.11 apart, and a person under 7 % brighter light is still 0.03 from themself.
    public var reidentificationLightChange: Double = 0.05
    /// A clean view further than this (with ``reidentificationLightChange`` forgiven) from a
    /// track's settled appearance does not teach it: it is a merged or partial view, or someone
    /// else; ``identityDoubtViews`` of them in a row put its identity in doubt. A track whose
    /// look varies more from view to view (a small box) is allowed twice its own variation.
    public var appearanceChangeLimit: Double = 0.05
    /// Clean views in a row unlike a track's settled appearance (beyond
    /// ``appearanceChangeLimit``) after which their look is weighed again: within
    /// ``reidentificationDistance`` of the settled one it is the same person, and learned
    /// anew; further, the track is taken to follow someone else — its identity goes back to
    /// the gallery for its owner, and the track is identified anew by the look it shows now.
    /// 0 never doubts.
    public var identityDoubtViews: Int = 10
    /// Frames a lost track is remembered for re-identification; the motion association stops
    /// after ``maximumLostFrames``, the gallery keeps it until this.
    public var reidentificationFrames: Int = 9000
    /// The most lost tracks the gallery keeps; the longest lost go first.
    public var galleryCapacity: Int = 64
    /// The Kalman filter's noise model.
    public var positionNoise: Double = 1.0 / 20
    /// The Kalman filter's velocity noise, per unit of box size.
    public var velocityNoise: Double = 1.0 / 160

    /// The ByteTrack defaults.
    public init() {}

    /// Checks the ranges and returns a message for the first field out of range.
    ///
    /// - Throws: ``TrackerConfigurationError`` naming the field and the expected range.
    public func validate() throws(TrackerConfigurationError) {
        func unit(_ value: Double, _ field: String) throws(TrackerConfigurationError) {
            guard value.isFinite, value >= 0, value <= 1 else {
                throw TrackerConfigurationError(
                    field: field, problem: "expected 0...1, got \(value)")
            }
        }
        try unit(highConfidence, "highConfidence")
        try unit(lowConfidence, "lowConfidence")
        try unit(newTrackConfidence, "newTrackConfidence")
        try unit(firstStageIoU, "firstStageIoU")
        try unit(secondStageIoU, "secondStageIoU")
        try unit(tentativeIoU, "tentativeIoU")
        guard lowConfidence <= highConfidence else {
            throw TrackerConfigurationError(
                field: "lowConfidence",
                problem: "expected at most highConfidence (\(highConfidence)), got \(lowConfidence)"
            )
        }
        guard confirmationHits >= 1 else {
            throw TrackerConfigurationError(
                field: "confirmationHits", problem: "expected at least 1, got \(confirmationHits)")
        }
        guard coastingFrames >= 0 else {
            throw TrackerConfigurationError(
                field: "coastingFrames", problem: "expected at least 0, got \(coastingFrames)")
        }
        guard maximumLostFrames >= 0 else {
            throw TrackerConfigurationError(
                field: "maximumLostFrames", problem: "expected at least 0, got \(maximumLostFrames)"
            )
        }
        guard appearanceWeight.isFinite, appearanceWeight >= 0 else {
            throw TrackerConfigurationError(
                field: "appearanceWeight", problem: "expected at least 0, got \(appearanceWeight)")
        }
        try unit(appearanceGate, "appearanceGate")
        try unit(reidentificationDistance, "reidentificationDistance")
        try unit(reidentificationLightChange, "reidentificationLightChange")
        try unit(appearanceChangeLimit, "appearanceChangeLimit")
        guard identityDoubtViews >= 0 else {
            throw TrackerConfigurationError(
                field: "identityDoubtViews",
                problem: "expected at least 0, got \(identityDoubtViews)")
        }
        guard reidentificationFrames >= maximumLostFrames else {
            throw TrackerConfigurationError(
                field: "reidentificationFrames",
                problem:
                    "expected at least maximumLostFrames (\(maximumLostFrames)), got \(reidentificationFrames)"
            )
        }
        guard galleryCapacity >= 0 else {
            throw TrackerConfigurationError(
                field: "galleryCapacity", problem: "expected at least 0, got \(galleryCapacity)")
        }
        guard positionNoise.isFinite, positionNoise > 0 else {
            throw TrackerConfigurationError(
                field: "positionNoise", problem: "expected a positive number, got \(positionNoise)")
        }
        guard velocityNoise.isFinite, velocityNoise > 0 else {
            throw TrackerConfigurationError(
                field: "velocityNoise", problem: "expected a positive number, got \(velocityNoise)")
        }
    }
}

/// A tracker setting out of range: which field and what was expected.
public struct TrackerConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The field name, such as `lowConfidence`.
    public var field: String
    /// What was wrong and what was expected.
    public var problem: String

    /// `field: problem`.
    public var description: String { "\(field): \(problem)" }
}
