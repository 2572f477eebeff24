import Testing
import Tracking

@Suite struct MOTEvaluatorTests {
    private func record(_ frame: Int, _ id: Int, _ x: Double) -> MOTRecord {
        MOTRecord(frame: frame, id: id, box: BoundingBox(minX: x, minY: 0, width: 10, height: 20))
    }

    @Test func perfectTrackingScoresOne() {
        let truth = (1...10).flatMap { [record($0, 1, 0), record($0, 2, 50)] }
        let tracks = truth.map {
            var copy = $0
            copy.id += 100
            return copy
        }
        let metrics = MOTEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        #expect(metrics.mota == 1)
        #expect(metrics.idf1 == 1)
        #expect(metrics.motp == 1)
        #expect(metrics.idsw == 0 && metrics.fp == 0 && metrics.fn == 0)
        #expect(metrics.mt == 2 && metrics.ml == 0)
    }

    @Test func countsSwitchesMissesAndFalsePositives() {
        // Object 1 for 10 frames: track 7 on frames 1–4, nothing on 5–6, track 8 on 7–10.
        // A stray track 9 on frames 1–2 far away.
        var truth: [MOTRecord] = []
        var tracks: [MOTRecord] = []
        for frame in 1...10 {
            truth.append(record(frame, 1, 0))
            if frame <= 4 { tracks.append(record(frame, 7, 1)) }
            if frame >= 7 { tracks.append(record(frame, 8, 1)) }
            if frame <= 2 { tracks.append(record(frame, 9, 500)) }
        }
        let metrics = MOTEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        #expect(metrics.idsw == 1)
        #expect(metrics.fn == 2)
        #expect(metrics.fp == 2)
        #expect(abs(metrics.mota - (1 - 5.0 / 10)) < 1e-12)
        // IDTP = 4 (object 1 ↔ track 7 or 8), IDFN = 6, IDFP = 10 − 4 = 6.
        #expect(abs(metrics.idf1 - 8.0 / (8 + 6 + 6)) < 1e-12)
        #expect(abs(metrics.motp - 9.0 / 11) < 1e-12)  // IoU of boxes shifted by 1 of 10
        #expect(metrics.mt == 1 && metrics.ml == 0)  // matched in 8 of 10 frames
    }

    @Test("ground truth marked 0 (MOTChallenge's ignore flag) is left out, as HOTA leaves it out")
    func ignoredGroundTruthIsLeftOut() {
        // Object 2 is marked 0 and nobody tracks it: no miss, and it is not an object.
        var truth = (1...10).map { record($0, 1, 0) }
        truth += (1...10).map {
            var far = record($0, 2, 200)
            far.confidence = 0
            return far
        }
        let tracks = (1...10).map { record($0, 7, 0) }
        let metrics = MOTEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        #expect(metrics.fn == 0 && metrics.mota == 1 && metrics.idf1 == 1)
        #expect(metrics.groundTruthCount == 10 && metrics.objectCount == 1)
        // HOTA agrees: the same tracking is perfect.
        let hota = HOTAEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        #expect(hota.hota == 1)
    }

    @Test func belowThresholdIsNoMatch() {
        let truth = [record(1, 1, 0)]
        let tracks = [record(1, 5, 6)]  // IoU 4/16 = 0.25
        let metrics = MOTEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        #expect(metrics.fn == 1 && metrics.fp == 1 && metrics.matchCount == 0)
    }

    @Test("identity matching grows with the ids that overlap, not truth ids × track ids")
    func manyIdentitiesEachInItsOwnFrame() {
        // 20,000 ids, each one box in its own frame: a dense id matrix was 3.2 GB.
        let truth = (1...20_000).map { record($0, $0, 0) }
        let tracks = truth.map {
            var copy = $0
            copy.id += 1_000_000
            return copy
        }
        let metrics = MOTEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        #expect(metrics.idf1 == 1 && metrics.objectCount == 20_000)
    }

    @Test("identity matching over separate groups adds up the best of each")
    func componentsAddUp() {
        // Group one: track 7 covers person 1 (frames 1–6), then person 2 (frames 4–10).
        // Group two, far away and never overlapping: person 3 followed by track 20 throughout.
        let truth = (1...10).flatMap {
            [record($0, 1, 0), record($0, 2, 500), record($0, 3, 5000)]
        }
        let tracks = (1...10).flatMap { frame in
            [
                record(frame, frame <= 6 ? 7 : 8, 0), record(frame, frame <= 3 ? 9 : 7, 500),
                record(frame, 20, 5000),
            ]
        }
        let metrics = MOTEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        // Group one at best: 2↔7 (7 frames) with 1↔8 (4) = 11, over 1↔7 (6) with 2↔9 (3) = 9;
        // group two: 10. IDTP 21 of 30 truth and 30 track boxes.
        #expect(abs(metrics.idf1 - 42.0 / 60.0) < 1e-12)
    }
}
