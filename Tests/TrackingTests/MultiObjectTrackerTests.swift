import Testing
import Tracking

@Suite struct MultiObjectTrackerTests {
    private func box(_ x: Double, _ y: Double = 100) -> BoundingBox {
        BoundingBox(minX: x, minY: y, width: 40, height: 120)
    }

    @Test func keepsIdentityThroughATenFrameOcclusion() throws {
        var tracker = try MultiObjectTracker()
        var idsBefore: [Double: TrackID] = [:]
        var idsAfter: [Double: TrackID] = [:]
        // Two people walk toward each other; the one walking left is hidden for 10 frames.
        for frame in 0..<60 {
            let a = 100 + Double(frame) * 4
            let b = 500 - Double(frame) * 4
            var detections = [Detection(box: box(a), confidence: 0.9)]
            let hidden = (25..<35).contains(frame)
            if !hidden { detections.append(Detection(box: box(b, 110), confidence: 0.9)) }
            let tracks = tracker.update(with: detections)
            if frame == 20 {
                for track in tracks { idsBefore[track.box.minY < 105 ? 0 : 1] = track.id }
            }
            if frame == 50 {
                for track in tracks { idsAfter[track.box.minY < 105 ? 0 : 1] = track.id }
            }
        }
        #expect(idsBefore.count == 2)
        #expect(idsBefore == idsAfter)
    }

    @Test func byIoUAloneAShortDetectionBesideAnotherKeepsItsOwnSize() throws {
        // Without looks the tracker cannot tell a half-hidden person from a box that came out
        // short, so it believes the detection (the partial-view rule needs appearance).
        var tracker = try MultiObjectTracker()
        var last: TrackedObject?
        for frame in 0..<20 {
            let x = 100 + Double(frame) * 2
            var detections = [
                Detection(box: box(x), confidence: 0.9),
                Detection(box: box(x + 41), confidence: 0.9),
            ]
            if frame >= 10 {
                detections[0].box = BoundingBox(minX: x, minY: 100, width: 40, height: 70)
            }
            last = tracker.update(with: detections).min { $0.box.minX < $1.box.minX }
        }
        let tracked = try #require(last)
        #expect(tracked.box.height < 80)
    }

    @Test func predictionOnlyFramesKeepTracksMoving() throws {
        var tracker = try MultiObjectTracker()
        for frame in 0..<20 {
            _ = tracker.update(with: [Detection(box: box(Double(frame) * 5), confidence: 0.9)])
        }
        let last = try #require(
            tracker.update(with: [Detection(box: box(100), confidence: 0.9)]).first)
        var previous = last.box.minX
        for _ in 0..<4 {
            let predicted = try #require(tracker.predict().first)
            #expect(predicted.isPredicted)
            #expect(predicted.id == last.id)
            #expect(predicted.box.minX > previous + 4)
            previous = predicted.box.minX
        }
        // The next inference frame finds the subject where it walked to: same identity.
        let next = try #require(
            tracker.update(with: [Detection(box: box(125), confidence: 0.9)]).first)
        #expect(next.id == last.id)
        #expect(!next.isPredicted)
    }

    @Test func lowConfidenceDetectionsOnlyContinueTracks() throws {
        var tracker = try MultiObjectTracker()
        #expect(tracker.update(with: [Detection(box: box(0), confidence: 0.3)]).isEmpty)
        #expect(tracker.trackCount == 0)
        _ = tracker.update(with: [Detection(box: box(0), confidence: 0.9)])
        let id = try #require(
            tracker.update(with: [Detection(box: box(2), confidence: 0.9)]).first?.id)
        // A partly occluded (low-confidence) detection keeps the track alive.
        let continued = tracker.update(with: [Detection(box: box(4), confidence: 0.3)])
        #expect(continued.map(\.id) == [id])
    }

    @Test func newTracksNeedConfirmationAndLostTracksExpire() throws {
        var configuration = TrackerConfiguration()
        configuration.maximumLostFrames = 5
        var tracker = try MultiObjectTracker(configuration: configuration)
        _ = tracker.update(with: [])  // not the first frame any more
        #expect(tracker.update(with: [Detection(box: box(0), confidence: 0.9)]).isEmpty)
        #expect(tracker.update(with: [Detection(box: box(1), confidence: 0.9)]).count == 1)
        for _ in 0..<5 { _ = tracker.update(with: []) }
        #expect(tracker.trackCount == 1)
        _ = tracker.update(with: [])
        #expect(tracker.trackCount == 0)
    }

    @Test func aMissedDetectionIsBridgedForTheCoastingFrames() throws {
        var tracker = try MultiObjectTracker()
        for frame in 0..<10 {
            _ = tracker.update(with: [Detection(box: box(Double(frame) * 3), confidence: 0.9)])
        }
        let first = try #require(tracker.update(with: []).first)
        #expect(first.isPredicted)
        #expect(tracker.update(with: []).count == 1)
        #expect(tracker.update(with: []).isEmpty)  // beyond the 2 coasting frames
        #expect(tracker.trackCount == 1)  // still kept for re-identification
    }

    @Test func aTrackWhoseBoxCollapsesIsNotReported() throws {
        // Someone shrinking fast (walking out past the frame's edge, down to a sliver) gives
        // the size a steep velocity; the next prediction can leave a box a few ten-thousandths
        // of a pixel wide: valid, but nobody's, and written to a MOT file as width 0. Across
        // final widths around the one whose prediction lands next to zero, every box reported
        // must be one a MOT file can carry.
        func record(_ objects: [TrackedObject]) -> [MOTRecord] {
            objects.map { MOTRecord(frame: 1, id: $0.id.rawValue, box: $0.box) }
        }
        var records: [MOTRecord] = []
        for step in 0..<2000 {
            var tracker = try MultiObjectTracker()
            let finalWidth = 4.98 + Double(step) / 100_000
            for width in Array(stride(from: 80.0, to: 5, by: -5)) + [finalWidth] {
                let box = BoundingBox(minX: 100, minY: 100, width: width, height: 200)
                records += record(tracker.update(with: [Detection(box: box, confidence: 0.9)]))
            }
            for _ in 1...3 { records += record(tracker.predict()) }
        }
        #expect(!records.isEmpty)
        let read = try MOTFile.parse(MOTFile.format(records), file: "tracks.txt")
        #expect(read.count == records.count)
    }

    @Test func invalidBoxesAreIgnored() throws {
        var tracker = try MultiObjectTracker()
        let bad = [
            Detection(box: BoundingBox(minX: .nan, minY: 0, width: 10, height: 10), confidence: 1),
            Detection(box: BoundingBox(minX: 0, minY: 0, width: -5, height: 10), confidence: 1),
            Detection(
                box: BoundingBox(minX: 0, minY: 0, width: .infinity, height: 10), confidence: 1),
        ]
        #expect(tracker.update(with: bad).isEmpty)
        #expect(tracker.trackCount == 0)
    }

    @Test func rejectsInvalidConfiguration() {
        var configuration = TrackerConfiguration()
        configuration.lowConfidence = 0.8
        #expect(throws: TrackerConfigurationError.self) {
            try MultiObjectTracker(configuration: configuration)
        }
        configuration = TrackerConfiguration()
        configuration.confirmationHits = 0
        do {
            _ = try MultiObjectTracker(configuration: configuration)
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "confirmationHits")
        }
    }
}
