/// A ByteTrack-style multi-object tracker: one constant-velocity Kalman filter per track,
/// IoU costs with optimal assignment, two association stages (high- then low-confidence
/// detections), track birth, confirmation and loss, and prediction-only steps for frames the
/// detector skips (the inference stride).
///
/// A value type: copy it to branch a run. Call ``update(with:)`` on frames with detections and
/// ``predict()`` on frames without; both advance one frame.
public struct MultiObjectTracker: Sendable {
    /// The settings this tracker was created with.
    public let configuration: TrackerConfiguration
    private var tracks: [TrackRecord] = []
    private var nextID = 1
    private var frameCount = 0

    /// Creates a tracker.
    ///
    /// - Throws: ``TrackerConfigurationError`` when a setting is out of range.
    public init(configuration: TrackerConfiguration = TrackerConfiguration())
        throws(TrackerConfigurationError)
    {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The number of tracks held, including tentative and lost ones.
    public var trackCount: Int { tracks.count }

    /// Moves every track by `dx`, `dy` (detection units): camera-motion compensation, so that
    /// a pan of the stand is not mistaken for the subjects' own motion.
    public mutating func shiftTracks(dx: Double, dy: Double) {
        guard dx != 0 || dy != 0 else { return }
        for index in tracks.indices {
            tracks[index].filter.centerX.position += dx
            tracks[index].filter.centerY.position += dy
        }
    }

    /// Advances one frame without detections: every track moves by its velocity, and the
    /// confirmed ones are reported with predicted boxes.
    public mutating func predict() -> [TrackedObject] {
        frameCount += 1
        for index in tracks.indices {
            tracks[index].filter.predict()
            tracks[index].age += 1
            tracks[index].framesSinceUpdate += 1
            tracks[index].matchedThisFrame = false
        }
        tracks.removeAll {
            $0.state == .lost && $0.framesSinceUpdate > configuration.maximumLostFrames
        }
        return reported()
    }

    /// Advances one frame and associates the frame's detections.
    ///
    /// Detections below ``TrackerConfiguration/lowConfidence`` and invalid boxes (non-finite
    /// or empty) are ignored.
    /// - Returns: the confirmed tracks matched in this frame and the lost ones still coasting
    ///   (``TrackerConfiguration/coastingFrames``), by id.
    public mutating func update(with detections: [Detection]) -> [TrackedObject] {
        frameCount += 1
        let isFirstFrame = frameCount == 1
        for index in tracks.indices {
            tracks[index].filter.predict()
            tracks[index].age += 1
            tracks[index].framesSinceUpdate += 1
            tracks[index].matchedThisFrame = false
        }
        var high: [Int] = []
        var low: [Int] = []
        for (index, detection) in detections.enumerated() where detection.box.isValid {
            if detection.confidence >= configuration.highConfidence {
                high.append(index)
            } else if detection.confidence >= configuration.lowConfidence {
                low.append(index)
            }
        }
        // Stage 1: confirmed and lost tracks against high-confidence detections.
        let pool = tracks.indices.filter { tracks[$0].state != .tentative }
        let (firstMatches, poolLeft, highLeft) = associate(
            pool, high, detections, minimumIoU: configuration.firstStageIoU)
        for (track, detection) in firstMatches { apply(detections[detection], to: track) }
        // Stage 2: tracks that were tracked until now against low-confidence detections.
        let stillTracked = poolLeft.filter { tracks[$0].state == .confirmed }
        let (secondMatches, trackedLeft, _) = associate(
            stillTracked, low, detections, minimumIoU: configuration.secondStageIoU)
        for (track, detection) in secondMatches { apply(detections[detection], to: track) }
        for track in trackedLeft { tracks[track].state = .lost }
        // Stage 3: tentative tracks against the high-confidence detections left.
        let tentative = tracks.indices.filter { tracks[$0].state == .tentative }
        let (tentativeMatches, tentativeLeft, newLeft) = associate(
            tentative, highLeft, detections, minimumIoU: configuration.tentativeIoU)
        for (track, detection) in tentativeMatches { apply(detections[detection], to: track) }
        var removed = Set(tentativeLeft)
        // Births.
        for detection in newLeft
        where detections[detection].confidence >= configuration.newTrackConfidence {
            let source = detections[detection]
            var record = TrackRecord(
                filter: KalmanFilter(
                    initial: source.box,
                    noise: .init(
                        position: configuration.positionNoise,
                        velocity: configuration.velocityNoise)),
                state: .tentative, id: nil, kind: source.kind, confidence: source.confidence,
                hits: 1, age: 0, framesSinceUpdate: 0, matchedThisFrame: true)
            if isFirstFrame || configuration.confirmationHits <= 1 { confirm(&record) }
            tracks.append(record)
        }
        for index in tracks.indices
        where tracks[index].state == .lost
            && tracks[index].framesSinceUpdate > configuration.maximumLostFrames
        {
            removed.insert(index)
        }
        if !removed.isEmpty {
            tracks = tracks.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        }
        return reported()
    }

    private mutating func confirm(_ record: inout TrackRecord) {
        record.state = .confirmed
        if record.id == nil {
            record.id = TrackID(nextID)
            nextID += 1
        }
    }

    private mutating func confirmTrack(at index: Int) {
        var record = tracks[index]
        confirm(&record)
        tracks[index] = record
    }

    private mutating func apply(_ detection: Detection, to index: Int) {
        tracks[index].filter.update(with: detection.box)
        tracks[index].confidence = detection.confidence
        tracks[index].hits += 1
        tracks[index].framesSinceUpdate = 0
        tracks[index].matchedThisFrame = true
        switch tracks[index].state {
        case .lost: tracks[index].state = .confirmed
        case .tentative:
            if tracks[index].hits >= configuration.confirmationHits { confirmTrack(at: index) }
        case .confirmed: break
        }
    }

    /// Optimal IoU association of tracks with detections.
    /// - Returns: the matches (track index, detection index) and what is left on each side.
    private func associate(
        _ trackIndices: [Int], _ detectionIndices: [Int], _ detections: [Detection],
        minimumIoU: Double
    ) -> (matches: [(Int, Int)], tracksLeft: [Int], detectionsLeft: [Int]) {
        guard !trackIndices.isEmpty, !detectionIndices.isEmpty else {
            return ([], trackIndices, detectionIndices)
        }
        var costs = CostMatrix(
            rows: trackIndices.count, columns: detectionIndices.count, repeating: .infinity)
        for (row, track) in trackIndices.enumerated() {
            let box = tracks[track].predictedBox
            let kind = tracks[track].kind
            for (column, detection) in detectionIndices.enumerated()
            where detections[detection].kind == kind {
                let iou = box.intersectionOverUnion(with: detections[detection].box)
                if iou > 0 { costs[row, column] = 1 - iou }
            }
        }
        let pairs = LinearAssignment.solve(costs, limit: 1 - minimumIoU + 1e-12)
        var trackMatched = [Bool](repeating: false, count: trackIndices.count)
        var detectionMatched = [Bool](repeating: false, count: detectionIndices.count)
        var matches: [(Int, Int)] = []
        matches.reserveCapacity(pairs.count)
        for pair in pairs {
            trackMatched[pair.row] = true
            detectionMatched[pair.column] = true
            matches.append((trackIndices[pair.row], detectionIndices[pair.column]))
        }
        let tracksLeft = trackIndices.indices.filter { !trackMatched[$0] }.map { trackIndices[$0] }
        let detectionsLeft = detectionIndices.indices.filter { !detectionMatched[$0] }
            .map { detectionIndices[$0] }
        return (matches, tracksLeft, detectionsLeft)
    }

    /// Confirmed tracks to report: on update frames those matched now; on prediction-only
    /// frames every confirmed (not lost) track; and lost tracks for their coasting frames.
    private func reported() -> [TrackedObject] {
        var objects: [TrackedObject] = []
        for record in tracks
        where record.state == .confirmed
            || (record.state == .lost && record.framesSinceUpdate <= configuration.coastingFrames)
        {
            guard let id = record.id, record.filter.box.isValid else { continue }
            let velocity = record.filter.velocity
            objects.append(
                TrackedObject(
                    id: id, box: record.filter.box, velocityX: velocity.centerX,
                    velocityY: velocity.centerY, kind: record.kind, confidence: record.confidence,
                    age: record.age, isPredicted: !record.matchedThisFrame))
        }
        return objects.sorted { $0.id < $1.id }
    }
}
