import Testing
import Tracking

/// Every expected value is worked out by hand in the comments and was confirmed with TrackEval
/// 1.3.0 (PyPI `trackeval`, `MotChallenge2DBox` with BENCHMARK MOT15 then
/// `HOTA().eval_sequence`, the means over its 19 alphas), to 1e-15.
@Suite struct HOTAEvaluatorTests {
    /// A 10 × 20 box at `x`.
    private func record(_ frame: Int, _ id: Int, _ x: Double, confidence: Double = 1) -> MOTRecord {
        MOTRecord(
            frame: frame, id: id, box: BoundingBox(minX: x, minY: 0, width: 10, height: 20),
            confidence: confidence)
    }

    private func isClose(_ value: Double, _ expected: Double) -> Bool {
        abs(value - expected) < 1e-12
    }

    private func evaluate(_ truth: [MOTRecord], _ tracks: [MOTRecord]) -> HOTAMetrics {
        HOTAEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
    }

    @Test func alphasAreTrackEvalsThresholds() {
        let alphas = HOTAEvaluator.alphas
        #expect(alphas.count == 19)
        #expect(alphas.first == 0.05 && alphas[9] == 0.5)
        // np.arange(0.05, 0.99, 0.05)[-1] is 0.9500000000000001, not 0.95.
        #expect(alphas.last == 0.9500000000000001)
    }

    @Test func perfectTrackingScoresOne() {
        let truth = (1...10).flatMap { [record($0, 1, 0), record($0, 2, 50)] }
        let tracks = truth.map {
            var copy = $0
            copy.id += 100
            return copy
        }
        let metrics = evaluate(truth, tracks)
        for score in [
            metrics.hota, metrics.detA, metrics.assA, metrics.detRe, metrics.detPr, metrics.assRe,
            metrics.assPr, metrics.locA, metrics.hota0, metrics.locA0,
        ] {
            #expect(score == 1)
        }
    }

    @Test func identitySwitchHalvesAssociationButNotDetection() {
        // Object 1 for 10 frames, followed exactly by track 7 on frames 1–5 and track 8 on 6–10.
        // Every α: TP = 10, DetA = 1. Pairs (1,7) and (1,8) each match 5 frames of the object's
        // 10 and the track's 5: association IoU 5 / (10 + 5 − 5) = 1/2, so AssA = 1/2,
        // AssRe = 5/10 = 1/2, AssPr = 5/5 = 1, HOTA = √(1 · 1/2).
        let truth = (1...10).map { record($0, 1, 0) }
        let tracks = (1...10).map { record($0, $0 <= 5 ? 7 : 8, 0) }
        let metrics = evaluate(truth, tracks)
        #expect(metrics.detA == 1 && metrics.detRe == 1 && metrics.detPr == 1)
        #expect(isClose(metrics.assA, 0.5))
        #expect(isClose(metrics.assRe, 0.5))
        #expect(isClose(metrics.assPr, 1))
        #expect(isClose(metrics.hota, 0.5.squareRoot()))
        #expect(metrics.locA == 1)
    }

    @Test func missingTracksScoreZeroWithLocAOne() {
        // TrackEval returns early: TP = 0 everywhere, and LocA is 1 (not 0) at every α.
        let boxes = (1...5).map { record($0, 1, 0) }
        let cases: [(truth: [MOTRecord], tracks: [MOTRecord])] = [
            (boxes, []), ([], boxes), ([], []),
        ]
        for (truth, tracks) in cases {
            let metrics = evaluate(truth, tracks)
            for score in [
                metrics.hota, metrics.detA, metrics.assA, metrics.detRe, metrics.detPr,
                metrics.assRe, metrics.assPr, metrics.hota0,
            ] {
                #expect(score == 0)
            }
            #expect(metrics.locA == 1 && metrics.locA0 == 1)
        }
    }

    @Test func disjointBoxesNeverMatch() {
        // Boxes that do not overlap are never true positives, even at α = 0.05.
        let truth = (1...5).map { record($0, 1, 0) }
        let tracks = (1...5).map { record($0, 2, 10) }
        let metrics = evaluate(truth, tracks)
        #expect(metrics.hota == 0 && metrics.detA == 0 && metrics.assA == 0)
        #expect(metrics.locA == 1)
    }

    @Test func iouBetweenThresholdsCountsOnlyTheAlphasBelowIt() {
        // Object 1 at x = 0 and track 5 at x = 4 in each of 10 frames: IoU = 120 / 280 = 3/7
        // ≈ 0.4286, a true positive at the 8 alphas 0.05…0.40 and nothing at the other 11.
        // HOTA, DetA, AssA, DetRe, DetPr = 8/19; LocA = (8 · 3/7 + 11 · 1) / 19 (1 where no TP).
        let truth = (1...10).map { record($0, 1, 0) }
        let tracks = (1...10).map { record($0, 5, 4) }
        let metrics = evaluate(truth, tracks)
        let matchedShare: Double = 8 / 19
        let iou: Double = 3 / 7
        let locA: Double = (8 * iou + 11) / 19
        for score in [
            metrics.hota, metrics.detA, metrics.assA, metrics.detRe, metrics.detPr, metrics.assRe,
            metrics.assPr,
        ] {
            #expect(isClose(score, matchedShare))
        }
        #expect(isClose(metrics.locA, locA))
        #expect(metrics.hota0 == 1)
        #expect(isClose(metrics.locA0, iou))
    }

    @Test func hotaIsTheMeanOverAlphasNotTheRootOfTheMeans() {
        // Object 1 tracked exactly by track 10; object 2 (x = 100) by track 20 at IoU 3/7.
        // α ≤ 0.40 (8): TP = 20 of 20, DetA = AssA = HOTA = 1, LocA = (1 + 3/7) / 2 = 5/7.
        // α > 0.40 (11): TP = 10, FN = FP = 10, DetA = 1/3, DetRe = DetPr = 1/2, AssA = 1,
        // HOTA = √(1/3), LocA = 1. The mean HOTA is (8 + 11·√(1/3)) / 19 ≈ 0.7553, below
        // √(mean DetA · mean AssA) ≈ 0.7836.
        var truth: [MOTRecord] = []
        var tracks: [MOTRecord] = []
        for frame in 1...10 {
            truth += [record(frame, 1, 0), record(frame, 2, 100)]
            tracks += [record(frame, 10, 0), record(frame, 20, 104)]
        }
        let metrics = evaluate(truth, tracks)
        let hota: Double = (8 + 11 * (1 / 3 as Double).squareRoot()) / 19
        let detA: Double = (8 + 11 / 3) / 19
        let detReAndPr: Double = (8 + 11 / 2) / 19
        let locA: Double = (8 * 5 / 7 + 11) / 19
        #expect(isClose(metrics.hota, hota))
        #expect(isClose(metrics.detA, detA))
        #expect(isClose(metrics.assA, 1))
        #expect(isClose(metrics.detRe, detReAndPr))
        #expect(isClose(metrics.detPr, detReAndPr))
        #expect(isClose(metrics.locA, locA))
        #expect(metrics.hota < (metrics.detA * metrics.assA).squareRoot() - 0.02)
    }

    @Test func matchingPrefersGloballyAlignedIdsOverHigherIoU() {
        // Frames 1–9: object 1 at x = 0 with track 10, object 2 at x = 100 with track 20, exact.
        // Frame 10: object 2 moves to x = 2; track 10 is at x = 2 and track 20 at x = 0. By IoU
        // alone the swap (two IoUs of 1) beats keeping the ids (two of 16/24 = 2/3), but the
        // global alignment of (1,10) and (2,20) is near 1 and of the swapped pairs near 0.02, so
        // HOTA keeps the ids: true positives at the 13 alphas ≤ 0.65 only. At the 6 alphas
        // ≥ 0.70: TP = 18, FN = FP = 2, DetA = 18/22 = 9/11; each pair matches 9 frames of
        // 10 + 10, AssA = 9 / (20 − 9) = 9/11; HOTA = √(9/11 · 9/11) = 9/11.
        var truth: [MOTRecord] = []
        var tracks: [MOTRecord] = []
        for frame in 1...10 {
            truth += [record(frame, 1, 0), record(frame, 2, frame < 10 ? 100 : 2)]
            tracks += [
                record(frame, 10, frame < 10 ? 0 : 2), record(frame, 20, frame < 10 ? 100 : 0),
            ]
        }
        let metrics = evaluate(truth, tracks)
        let expected: Double = (13 + 6 * 9 / 11) / 19
        let locA: Double = (13 * (9 + 2 / 3) / 10 + 6) / 19
        #expect(isClose(metrics.hota, expected))
        #expect(isClose(metrics.detA, expected))
        #expect(isClose(metrics.assA, expected))
        #expect(isClose(metrics.locA, locA))
    }

    @Test func groundTruthMarkedZeroIsIgnored() {
        // MOTChallenge's "consider" column: TrackEval drops ground truth whose confidence
        // truncates to 0 (0, 0.5, −0.9), and keeps the rest (1, −1).
        let truth = (1...10).map { record($0, 1, 0) }
        let tracks = (1...10).map { record($0, 7, 0) }
        for confidence in [0.0, 0.5, -0.9] {
            let ignored = truth + (1...10).map { record($0, 2, 200, confidence: confidence) }
            #expect(evaluate(ignored, tracks) == evaluate(truth, tracks))
        }
        // Kept: object 2 is a miss in every frame, DetA = 10 / (10 + 10) at every α.
        let kept = truth + (1...10).map { record($0, 2, 200, confidence: -1) }
        #expect(isClose(evaluate(kept, tracks).detA, 0.5))
    }
}
