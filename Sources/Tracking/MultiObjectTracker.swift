/// A ByteTrack-style multi-object tracker with appearance: one constant-velocity Kalman
/// filter per track; costs from IoU and, when detections carry an ``AppearanceDescriptor``,
/// from how alike they look (gated, as BoT-SORT and DeepSORT do); optimal assignment in stages
/// (high-confidence detections, then low-confidence ones for tracks still tracked, then
/// tentative tracks); track birth, confirmation and loss; and prediction-only steps for frames
/// the detector skips (the inference stride).
///
/// Identities survive what a motion model alone loses:
/// - **Occlusions**: a lost track is matched against its *last observation* as well as its
///   prediction (OC-SORT's observation-centric recovery), and, when the detection looks like
///   it, anywhere within a reach that grows with the frames it has been lost; on recovery the
///   velocity is re-estimated from the two observations around the gap.
/// - **Absences**: lost tracks stay in a gallery (at most
///   ``TrackerConfiguration/galleryCapacity`` of them, each for at most
///   ``TrackerConfiguration/reidentificationFrames``); a detection that matches no track by
///   motion takes over the identity of the gallery track it clearly looks like. Lost tracks
///   that look alike are pieces of one person: when one is taken, the others are folded into
///   it, so that a person comes back under one identity, not whichever piece is nearest.
/// - **Partial views**: a detection much smaller than its track that touches another
///   detection (someone in front) moves the track but keeps its size, aligned to the
///   detection's edges nearest the prediction, so a half-hidden person stays person-sized.
///
/// - **Lighting**: re-identification forgives a change of brightness
///   (``TrackerConfiguration/reidentificationLightChange``): someone back in another part of
///   the room stands in other light.
/// - **Late evidence**: a new identity is checked against the gallery again with each clean
///   view, so a track born from an overlapped or cut-off view (no look to go by), or while its
///   look matched two lost people, finds its lost identity once it shows it. Only identities
///   lost before the track started are candidates: one seen beside it is someone else.
/// - **Swaps**: a track's appearance settles over its first clean views and is then taught
///   only by views like it (``TrackerConfiguration/appearanceChangeLimit``); when a track's
///   views stay unlike it (``TrackerConfiguration/identityDoubtViews`` in a row), a look still
///   recognisably theirs (within ``TrackerConfiguration/reidentificationDistance``) is learned
///   anew, and any other means the track has slipped onto someone else — its identity goes
///   back to the gallery for its owner and the track is identified anew.
///
/// Appearance is learned only from clean views: sure detections (at least
/// ``TrackerConfiguration/highConfidence``), not cut short against the prediction, that
/// overlap no larger detection.
/// Without appearance the tracker is the ByteTrack of IoU costs it always was.
///
/// A value type: copy it to branch a run. Call ``update(with:)`` on frames with detections and
/// ``predict()`` on frames without; both advance one frame.
public struct MultiObjectTracker: Sendable {
    /// The settings this tracker was created with.
    public let configuration: TrackerConfiguration
    private var tracks: [TrackRecord] = []
    private var nextID = 1
    private var frameCount = 0
    /// Whether the detector gives looks (appearance descriptors): set by the first detection
    /// that carries one, so a frame without detections does not change how tracks coast.
    private var detectorGivesLooks = false

    /// Creates a tracker.
    ///
    /// - Throws: ``TrackerConfigurationError`` when a setting is out of range.
    public init(configuration: TrackerConfiguration = TrackerConfiguration())
        throws(TrackerConfigurationError)
    {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The number of tracks held, including tentative and lost ones (the gallery too).
    public var trackCount: Int { tracks.count }

    /// Where the tracker expects people in the next frame (before it is given): each track,
    /// new, confirmed or lost for at most ``TrackerConfiguration/maximumLostFrames``, moved on
    /// by its velocity. A detector that looks where people are looks here.
    public var expectedBoxes: [BoundingBox] {
        tracks.compactMap { record in
            guard
                record.state != .lost || record.framesSinceUpdate <= configuration.maximumLostFrames
            else { return nil }
            let box = record.filter.box
            let velocity = record.filter.velocity
            let expected = BoundingBox(
                centerX: box.centerX + velocity.centerX, centerY: box.centerY + velocity.centerY,
                width: box.width, height: box.height)
            return expected.isValid ? expected : nil
        }
    }

    /// Moves every track by `dx`, `dy` (detection units): camera-motion compensation, so that
    /// a pan of the stand is not mistaken for the subjects' own motion.
    public mutating func shiftTracks(dx: Double, dy: Double) {
        guard dx != 0 || dy != 0 else { return }
        for index in tracks.indices {
            tracks[index].filter.centerX.position += dx
            tracks[index].filter.centerY.position += dy
            tracks[index].lastObservation.minX += dx
            tracks[index].lastObservation.minY += dy
        }
    }

    /// Advances one frame without detections: every track moves by its velocity, and the
    /// confirmed ones are reported with predicted boxes.
    public mutating func predict() -> [TrackedObject] {
        advance()
        forgetExpiredTracks(also: [])
        return reported()
    }

    /// Advances one frame and associates the frame's detections.
    ///
    /// Detections below ``TrackerConfiguration/lowConfidence`` and invalid boxes (non-finite
    /// or empty) are ignored.
    /// - Returns: the confirmed tracks matched in this frame and the lost ones still coasting
    ///   (``TrackerConfiguration/coastingFrames``), by id.
    public mutating func update(with detections: [Detection]) -> [TrackedObject] {
        advance()
        let isFirstFrame = frameCount == 1
        var high: [Int] = []
        var low: [Int] = []
        for (index, detection) in detections.enumerated() where detection.box.isValid {
            if detection.confidence >= configuration.highConfidence {
                high.append(index)
            } else if detection.confidence >= configuration.lowConfidence {
                low.append(index)
            }
        }
        let surroundings = Self.surroundings(of: detections)
        // Without looks the tracker is ByteTrack by IoU: the aids below that only looks can
        // make safe stay off.
        if !detectorGivesLooks { detectorGivesLooks = detections.contains { $0.appearance != nil } }
        let looks = detectorGivesLooks
        func apply(_ matches: [Association.Match]) {
            for match in matches {
                update(
                    match.track, with: detections[match.detection],
                    among: surroundings[match.detection], looks: looks)
            }
        }
        // Stage 1: confirmed and recently lost tracks against high-confidence detections.
        let pool = tracks.indices.filter {
            tracks[$0].state == .confirmed
                || (tracks[$0].state == .lost
                    && tracks[$0].framesSinceUpdate <= configuration.maximumLostFrames)
        }
        // Recovery by the last observation needs looks to confirm it: by IoU alone a lost
        // track's old place is as likely someone else's now (on real pedestrians it was).
        let first = associate(
            pool, high, detections, minimumIoU: configuration.firstStageIoU, recovering: looks,
            looks: looks)
        apply(first.matches)
        // Stage 2: tracks that were tracked until now against low-confidence detections.
        let stillTracked = first.tracksLeft.filter { tracks[$0].state == .confirmed }
        let second = associate(
            stillTracked, low, detections, minimumIoU: configuration.secondStageIoU,
            recovering: false, looks: looks)
        apply(second.matches)
        for track in second.tracksLeft {
            tracks[track].state = .lost
            // A lost track with looks coasts at its size: a size still changing from its last
            // (perhaps merged or partial) detections would grow without bound while nothing
            // corrects it. By IoU alone there are no merged or partial views to fear, and the
            // size's motion is worth keeping (on TUD, Stadtmitte hard, IDF1 0.690 against 0.686).
            if looks { tracks[track].filter.stopResizing() }
        }
        // Stage 3: tentative tracks against the high-confidence detections left.
        let tentative = tracks.indices.filter { tracks[$0].state == .tentative }
        let third = associate(
            tentative, first.detectionsLeft, detections, minimumIoU: configuration.tentativeIoU,
            recovering: false, looks: looks)
        apply(third.matches)
        // Stage 4: re-identification of lost tracks by appearance alone.
        let reidentified = reidentify(third.detectionsLeft, detections, looks: looks)
        apply(reidentified.matches)
        // Births.
        for detection in reidentified.detectionsLeft
        where detections[detection].confidence >= configuration.newTrackConfidence {
            var record = TrackRecord(
                detection: detections[detection], clean: !surroundings[detection].overlapsLarger,
                noise: .init(
                    position: configuration.positionNoise, velocity: configuration.velocityNoise))
            record.startFrame = frameCount
            if isFirstFrame || configuration.confirmationHits <= 1 { confirm(&record) }
            tracks.append(record)
        }
        forgetExpiredTracks(also: third.tracksLeft)
        return reported()
    }

    private mutating func advance() {
        frameCount += 1
        for index in tracks.indices {
            tracks[index].filter.predict()
            tracks[index].age += 1
            tracks[index].framesSinceUpdate += 1
            tracks[index].matchedThisFrame = false
        }
    }

    /// Removes the tracks at `indices` (tentative tracks that missed), lost tracks whose
    /// identity a new track took over, lost tracks past their
    /// time (``TrackerConfiguration/maximumLostFrames`` without an appearance to re-identify
    /// them by, ``TrackerConfiguration/reidentificationFrames`` with one), and the longest lost
    /// beyond the gallery's capacity.
    private mutating func forgetExpiredTracks(also indices: [Int]) {
        var removed = [Bool](repeating: false, count: tracks.count)
        var anyRemoved = !indices.isEmpty
        for index in indices { removed[index] = true }
        var gallery: [Int] = []
        for index in tracks.indices {
            if tracks[index].isMerged {
                removed[index] = true
                anyRemoved = true
                continue
            }
            guard tracks[index].state == .lost else { continue }
            let lost = tracks[index].framesSinceUpdate
            let remembers =
                tracks[index].appearance != nil && configuration.reidentificationDistance > 0
            if lost
                > (remembers
                    ? configuration.reidentificationFrames : configuration.maximumLostFrames)
            {
                removed[index] = true
                anyRemoved = true
            } else if lost > configuration.maximumLostFrames {
                gallery.append(index)
            }
        }
        if gallery.count > configuration.galleryCapacity {
            gallery.sort { tracks[$0].framesSinceUpdate < tracks[$1].framesSinceUpdate }
            for index in gallery[configuration.galleryCapacity...] { removed[index] = true }
            anyRemoved = true
        }
        guard anyRemoved else { return }
        var kept = 0
        for index in tracks.indices where !removed[index] {
            tracks.swapAt(kept, index)
            kept += 1
        }
        tracks.removeLast(tracks.count - kept)
    }

    /// Confirms a track. A new track whose appearance identifies a lost one in the gallery
    /// takes over that identity (the lost record is dropped); otherwise it gets a new one.
    private mutating func confirm(_ record: inout TrackRecord) {
        record.state = .confirmed
        guard record.id == nil else { return }
        identify(&record, by: record.appearance, lostBefore: record.startFrame)
    }

    /// Gives `record` the identity of the lost track that `look` identifies in the gallery
    /// (that record is dropped), or else the next id, open to re-identification by its later
    /// clean views. `lostBefore`: only identities lost before this frame are candidates.
    private mutating func identify(
        _ record: inout TrackRecord, by look: AppearanceDescriptor?, lostBefore: Int?
    ) {
        if let look, let match = galleryMatch(for: look, kind: record.kind, lostBefore: lostBefore)
        {
            takeOver(match, into: &record)
            return
        }
        record.id = TrackID(nextID)
        nextID += 1
        record.hasNewIdentity = true
    }

    /// Moves the identity of the gallery's `match` to `record`; the lost record, and the
    /// earlier pieces of the same person, are dropped at the end of the frame.
    private mutating func takeOver(_ match: GalleryMatch, into record: inout TrackRecord) {
        record.id = tracks[match.index].id
        record.hasNewIdentity = false
        record.hits += absorb([match.index] + match.pieces)
    }

    /// Folds the earlier pieces of `match`'s person into its lost record (which a detection
    /// resumes): one identity a person, so the next time they come back there is no other.
    private mutating func mergePieces(of match: GalleryMatch) {
        tracks[match.index].hits += absorb(match.pieces)
    }

    /// Marks the lost records at `indices` as merged into another (they are dropped at the end
    /// of the frame) and returns the hits they had.
    private mutating func absorb(_ indices: [Int]) -> Int {
        var hits = 0
        for index in indices {
            hits += tracks[index].hits
            tracks[index].isMerged = true
        }
        return hits
    }

    /// Learns a clean view's `look` for `record` and acts on what it says about identity: a
    /// new identity still open to re-identification is exchanged for the lost one the settled
    /// look matches; a track whose views have been unlike its appearance for
    /// ``TrackerConfiguration/identityDoubtViews`` in a row has either drifted (the look is
    /// still recognisably theirs, and is learned anew) or follows someone else now — its
    /// identity goes back to the gallery (as a lost record with the appearance it had), and
    /// the track is identified anew by the look it shows.
    private mutating func learn(_ look: AppearanceDescriptor, for record: inout TrackRecord) {
        record.learn(
            look, changeLimit: configuration.appearanceChangeLimit,
            lightChange: configuration.reidentificationLightChange)
        guard record.state == .confirmed else { return }
        if record.hasNewIdentity, let learned = record.appearance,
            let match = galleryMatch(
                for: learned, kind: record.kind, lostBefore: record.startFrame)
        {
            takeOver(match, into: &record)
        }
        let doubt = configuration.identityDoubtViews
        guard doubt > 0, record.doubtedViews >= doubt, let doubted = record.doubtedLook else {
            return
        }
        record.dismissDoubt()
        if let settled = record.appearance,
            doubted.slidingDistance(
                to: settled, lightChange: configuration.reidentificationLightChange)
                <= configuration.reidentificationDistance
        {
            // Near enough to be recognised as the same person: the look has drifted (another
            // pose, another part of the room), not changed hands. It is learned anew.
            record.appearance = doubted
            return
        }
        var formerIdentity = record
        formerIdentity.state = .lost
        formerIdentity.framesSinceUpdate = configuration.maximumLostFrames + 1
        formerIdentity.matchedThisFrame = false
        record.appearance = doubted
        record.startFrame = frameCount
        identify(&record, by: doubted, lostBefore: nil)
        tracks.append(formerIdentity)
    }

    /// Corrects track `index` with a matched detection and where it sits among the others;
    /// `looks`: whether the frame's detections carry appearance.
    private mutating func update(
        _ index: Int, with detection: Detection, among surroundings: Surroundings, looks: Bool
    ) {
        var record = tracks[index]
        let gap = record.framesSinceUpdate
        let predicted = record.filter.box
        var measured = detection.box
        let shrunk =
            measured.height < 0.8 * predicted.height || measured.width < 0.7 * predicted.width
        // Only a detection with looks can tell a partial view from a box that came out small
        // (noise, or a prediction that grew): without them the detection's size stands.
        if looks && surroundings.touchesAnother && shrunk && record.hits >= 3 {
            measured = Self.partialView(measured, keepingSizeOf: predicted)
        }
        if looks && record.state == .lost && gap > 1 {
            // Observation-centric recovery: restart the motion from the last observation and
            // the velocity between it and this one, not from the prediction's drift. Only with
            // looks: by IoU alone a recovery after a missed frame or two is the common case,
            // and restarting from two noisy boxes throws away the filter's motion (on real
            // pedestrians, IDF1 fell from 0.61 to 0.53 with it).
            var filter = KalmanFilter(initial: record.lastObservation, noise: record.filter.noise)
            filter.setVelocity(
                centerX: (measured.centerX - record.lastObservation.centerX) / Double(gap),
                centerY: (measured.centerY - record.lastObservation.centerY) / Double(gap))
            filter.predict(dt: Double(gap))
            record.filter = filter
        }
        record.filter.update(with: measured)
        record.lastObservation = measured
        record.confidence = detection.confidence
        record.hits += 1
        record.framesSinceUpdate = 0
        record.matchedThisFrame = true
        // A clean view: whole (not cut short by someone in front or a region detected in
        // part) and sure, overlapping no larger detection.
        let clean =
            !surroundings.overlapsLarger && !shrunk
            && detection.confidence >= configuration.highConfidence
        if clean, let appearance = detection.appearance {
            learn(appearance, for: &record)
        }
        switch record.state {
        case .lost: record.state = .confirmed
        case .tentative:
            if record.hits >= configuration.confirmationHits { confirm(&record) }
        case .confirmed: break
        }
        tracks[index] = record
    }

    /// The box of a partly hidden object: `predicted`'s size, placed against the edges of the
    /// visible part `visible` that lie nearest the prediction's (the hidden side is the other).
    static func partialView(_ visible: BoundingBox, keepingSizeOf predicted: BoundingBox)
        -> BoundingBox
    {
        let width = max(visible.width, predicted.width)
        let height = max(visible.height, predicted.height)
        let leftAligned = abs(visible.minX - predicted.minX) <= abs(visible.maxX - predicted.maxX)
        let topAligned = abs(visible.minY - predicted.minY) <= abs(visible.maxY - predicted.maxY)
        return BoundingBox(
            minX: leftAligned ? visible.minX : visible.maxX - width,
            minY: topAligned ? visible.minY : visible.maxY - height, width: width, height: height)
    }

    /// How a detection sits among the frame's others.
    struct Surroundings {
        /// Its box touches another's (within two units): a small box may be the visible part
        /// of someone behind.
        var touchesAnother = false
        /// Its box overlaps a larger detection's: some of its pixels may be someone else's, so
        /// it does not teach appearance.
        var overlapsLarger = false
    }

    static func surroundings(of detections: [Detection]) -> [Surroundings] {
        var result = [Surroundings](repeating: Surroundings(), count: detections.count)
        let index = HorizontalIndex(count: detections.count) { detections[$0].box }
        for a in detections.indices {
            let box = detections[a].box
            let grown = BoundingBox(
                minX: box.minX - 2, minY: box.minY - 2, width: box.width + 4,
                height: box.height + 4)
            index.forEachOverlapping(grown.minX, grown.maxX) { b in
                guard b > a else { return }
                let other = detections[b].box
                guard grown.intersectionArea(with: other) > 0 else { return }
                result[a].touchesAnother = true
                result[b].touchesAnother = true
                if box.intersectionArea(with: other) > 0 {
                    result[box.area < other.area ? a : b].overlapsLarger = true
                }
            }
        }
        return result
    }

    /// The cost of associating `track` with `detection`, nil when they may not be associated.
    ///
    /// `1 − IoU + appearanceWeight × appearance distance`; pairs that look too different are
    /// never made. With `recovering`, a lost track also counts the IoU with its last
    /// observation, and a detection that looks like it within its recovery reach
    /// (``recoveryReach(_:)``) costs as a pair at the IoU threshold would.
    private func cost(
        of track: TrackRecord, _ detection: Detection, minimumIoU: Double, recovering: Bool
    ) -> Double? {
        guard detection.kind == track.kind else { return nil }
        let recovers = recovering && track.state == .lost
        var iou = track.predictedBox.intersectionOverUnion(with: detection.box)
        if recovers {
            iou = max(iou, track.lastObservation.intersectionOverUnion(with: detection.box))
        }
        // Most pairs do not overlap at all: no need to compare their looks.
        let overlaps = iou >= minimumIoU && iou > 0
        guard overlaps || recovers else { return nil }
        let appearance = track.appearance.flatMap { learned in
            detection.appearance.map { learned.distance(to: $0) }
        }
        if let appearance, appearance > track.appearanceGate(base: configuration.appearanceGate) {
            return nil
        }
        let appearanceCost = configuration.appearanceWeight * (appearance ?? 0)
        if overlaps { return 1 - iou + appearanceCost }
        guard recovers, let appearance, appearance <= configuration.reidentificationDistance
        else { return nil }
        let reach = recoveryReach(track)
        let nearest = min(
            Self.centerDistance(track.predictedBox, detection.box),
            Self.centerDistance(track.lastObservation, detection.box))
        return nearest <= reach ? 1 - minimumIoU + appearanceCost : nil
    }

    /// How far a lost track may be recovered from where it was heading or last seen: half a
    /// box height, plus a fiftieth per frame lost, at most one and a half.
    private func recoveryReach(_ track: TrackRecord) -> Double {
        track.lastObservation.height * min(1.5, 0.5 + 0.02 * Double(track.framesSinceUpdate))
    }

    /// The x range a detection must meet to be weighed against `track`: its predicted box, and
    /// for a lost track being recovered also its last observation and the recovery reach.
    private func reachAcross(_ track: TrackRecord, recovering: Bool) -> (Double, Double) {
        let predicted = track.predictedBox
        guard recovering && track.state == .lost else { return (predicted.minX, predicted.maxX) }
        let last = track.lastObservation
        let reach = recoveryReach(track)
        return (
            min(predicted.minX, last.minX, predicted.centerX - reach, last.centerX - reach),
            max(predicted.maxX, last.maxX, predicted.centerX + reach, last.centerX + reach)
        )
    }

    private static func centerDistance(_ a: BoundingBox, _ b: BoundingBox) -> Double {
        let dx = a.centerX - b.centerX
        let dy = a.centerY - b.centerY
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Optimal association of tracks with detections by ``cost(of:_:minimumIoU:recovering:)``;
    /// `looks`: whether the frame's detections carry appearance.
    /// - Returns: the matches (track index, detection index) and what is left on each side.
    private func associate(
        _ trackIndices: [Int], _ detectionIndices: [Int], _ detections: [Detection],
        minimumIoU: Double, recovering: Bool, looks: Bool
    ) -> Association {
        guard !trackIndices.isEmpty, !detectionIndices.isEmpty else {
            return Association([], tracks: trackIndices, detections: detectionIndices)
        }
        var costs = CostMatrix(
            rows: trackIndices.count, columns: detectionIndices.count, repeating: .infinity)
        let index = HorizontalIndex(count: detectionIndices.count) {
            detections[detectionIndices[$0]].box
        }
        for (row, track) in trackIndices.enumerated() {
            let record = tracks[track]
            let (low, high) = reachAcross(record, recovering: recovering)
            index.forEachOverlapping(low, high) { column in
                if let cost = cost(
                    of: record, detections[detectionIndices[column]], minimumIoU: minimumIoU,
                    recovering: recovering)
                {
                    costs[row, column] = cost
                }
            }
        }
        // A pair is worth making while it costs less than leaving both sides unmatched: by IoU
        // alone that is ByteTrack's 1 − minimum IoU; looks may add up to weight × the loosest
        // gate a young track has. (A higher limit by IoU alone trades good pairs for more
        // pairs.)
        let loosestGate = TrackRecord.spreadTolerance * configuration.appearanceGate
        let limit =
            1 - minimumIoU + (looks ? configuration.appearanceWeight * loosestGate : 0) + 1e-9
        return Association(
            LinearAssignment.solve(costs, limit: limit), tracks: trackIndices,
            detections: detectionIndices)
    }

    /// The lost track of the gallery that `appearance` identifies, if any: the nearest within
    /// ``TrackerConfiguration/reidentificationDistance``, unless another lost track that looks
    /// different from it is nearly as near (within a quarter of that distance) — of two
    /// people dressed alike neither takes the other's identity on a guess. Lost tracks that
    /// look like the nearest one are taken to be earlier pieces of the same person: the one
    /// seen most often wins. With `lostBefore`, only tracks last seen before that frame are
    /// weighed (the start of the track being identified: whoever was seen beside it is not it).
    private func galleryMatch(
        for appearance: AppearanceDescriptor, kind: ObservationKind, lostBefore: Int? = nil
    ) -> GalleryMatch? {
        let threshold = configuration.reidentificationDistance
        guard threshold > 0 else { return nil }
        let margin = threshold / 4
        var near: [(index: Int, distance: Double, learned: AppearanceDescriptor)] = []
        for index in tracks.indices
        where tracks[index].state == .lost && !tracks[index].matchedThisFrame
            && !tracks[index].isMerged && tracks[index].kind == kind
            && frameCount - tracks[index].framesSinceUpdate < (lostBefore ?? .max)
        {
            guard let learned = tracks[index].appearance else { continue }
            let distance = learned.distance(
                to: appearance, lightChange: configuration.reidentificationLightChange)
            if distance <= threshold + margin { near.append((index, distance, learned)) }
        }
        guard let nearest = near.min(by: { $0.distance < $1.distance }),
            nearest.distance <= threshold
        else { return nil }
        let rivals = near.filter { $0.distance <= nearest.distance + margin }
        let lightChange = configuration.reidentificationLightChange
        guard
            rivals.allSatisfy({
                $0.learned.distance(to: nearest.learned, lightChange: lightChange) <= margin
            })
        else {
            return nil
        }
        let chosen = rivals.max { tracks[$0.index].hits < tracks[$1.index].hits } ?? nearest
        return GalleryMatch(
            index: chosen.index, distance: chosen.distance,
            pieces: rivals.map(\.index).filter { $0 != chosen.index })
    }

    /// Stage 4: detections left after the motion stages against the gallery of lost tracks,
    /// by appearance alone (``galleryMatch(for:kind:lostBefore:)``); the pairs are made nearest first.
    private mutating func reidentify(
        _ detectionIndices: [Int], _ detections: [Detection], looks: Bool
    ) -> Association {
        // Without looks there is nothing to identify anyone by.
        guard looks else {
            return Association(matches: [], tracksLeft: [], detectionsLeft: detectionIndices)
        }
        var proposals: [(match: GalleryMatch, detection: Int)] = []
        for detection in detectionIndices
        where detections[detection].confidence >= configuration.newTrackConfidence {
            guard let appearance = detections[detection].appearance,
                let match = galleryMatch(for: appearance, kind: detections[detection].kind)
            else { continue }
            proposals.append((match, detection))
        }
        var matches: [Association.Match] = []
        var accepted: [GalleryMatch] = []
        var takenTracks = Set<Int>()
        for proposal in proposals.sorted(by: { $0.match.distance < $1.match.distance })
        where !takenTracks.contains(proposal.match.index) {
            takenTracks.insert(proposal.match.index)
            accepted.append(proposal.match)
            matches.append(
                Association.Match(track: proposal.match.index, detection: proposal.detection))
        }
        for var match in accepted {
            match.pieces.removeAll(where: takenTracks.contains)
            mergePieces(of: match)
        }
        let takenDetections = Set(matches.map(\.detection))
        return Association(
            matches: matches, tracksLeft: [],
            detectionsLeft: detectionIndices.filter { !takenDetections.contains($0) })
    }

    /// Confirmed tracks to report: on update frames those matched now; on prediction-only
    /// frames every confirmed (not lost) track; and lost tracks for their coasting frames.
    /// A box that has collapsed — under a hundredth of its last detection's width or height,
    /// as a size still shrinking after a sliver of someone was matched can become — is not
    /// anyone's and is left out (a MOT file could not carry it).
    private func reported() -> [TrackedObject] {
        var objects: [TrackedObject] = []
        for record in tracks
        where record.state == .confirmed
            || (record.state == .lost && record.framesSinceUpdate <= configuration.coastingFrames)
        {
            let box = record.filter.box
            let last = record.lastObservation
            guard let id = record.id, box.isValid, box.width >= last.width / 100,
                box.height >= last.height / 100
            else { continue }
            let velocity = record.filter.velocity
            objects.append(
                TrackedObject(
                    id: id, box: box, velocityX: velocity.centerX,
                    velocityY: velocity.centerY, kind: record.kind, confidence: record.confidence,
                    age: record.age, isPredicted: !record.matchedThisFrame))
        }
        objects.sort { $0.id < $1.id }
        return objects
    }
}

/// A lost identity the gallery finds for a look: the lost record (by index), how far its look
/// is, and the other lost records that look like it — earlier pieces of the same person.
struct GalleryMatch {
    var index: Int
    var distance: Double
    var pieces: [Int]
}

/// The outcome of one association stage: pairs (track index, detection index) and what is
/// left unmatched on each side, in the order given.
struct Association {
    /// A track (by index) paired with a detection (by index). A struct, not a tuple: an array
    /// of tuples looks up its type's metadata at run time, on every frame.
    struct Match {
        var track: Int
        var detection: Int
    }

    var matches: [Match]
    var tracksLeft: [Int]
    var detectionsLeft: [Int]

    init(matches: [Match], tracksLeft: [Int], detectionsLeft: [Int]) {
        self.matches = matches
        self.tracksLeft = tracksLeft
        self.detectionsLeft = detectionsLeft
    }

    /// The association of `pairs` (rows index `tracks`, columns `detections`).
    init(_ pairs: [LinearAssignment.Pair], tracks: [Int], detections: [Int]) {
        guard !pairs.isEmpty else {
            self.init(matches: [], tracksLeft: tracks, detectionsLeft: detections)
            return
        }
        var matched = [Bool](repeating: false, count: tracks.count + detections.count)
        for pair in pairs {
            matched[pair.row] = true
            matched[tracks.count + pair.column] = true
        }
        self.init(
            matches: pairs.map { Match(track: tracks[$0.row], detection: detections[$0.column]) },
            tracksLeft: tracks.indices.compactMap { matched[$0] ? nil : tracks[$0] },
            detectionsLeft: detections.indices.compactMap {
                matched[tracks.count + $0] ? nil : detections[$0]
            })
    }
}
