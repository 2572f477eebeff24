import Capture
import LaunchTiming
import Testing
import Tracking
import Units

@testable import Pipeline

/// What a run keeps does not grow with its length: its quality is graded frame by frame and
/// its samples are thinned.
@Suite struct LongRunBoundsTests {
    /// Frame `n` of a walk: two people crossing a 640-wide picture, and tracks that follow them
    /// but swap identities every `swapEvery` frames.
    private func frame(_ n: Int, swapEvery: Int = 400) -> (truths: [MOTRecord], tracks: [MOTRecord])
    {
        let x = Double(n % 600)
        let truths = [
            MOTRecord(frame: n, id: 1, box: BoundingBox(minX: x, minY: 10, width: 30, height: 60)),
            MOTRecord(
                frame: n, id: 2, box: BoundingBox(minX: 600 - x, minY: 200, width: 30, height: 60)),
        ]
        let generation = n / swapEvery
        let tracks = truths.map { truth in
            var track = truth
            track.id = 100 + generation * 2 + truth.id
            track.box = BoundingBox(
                minX: truth.box.minX + 2, minY: truth.box.minY, width: 30, height: 60)
            return track
        }
        return (truths, tracks)
    }

    @Test(
        "a run shorter than the HOTA window scores exactly as the whole-sequence evaluators, switches across 30 s included"
    )
    func shortRunIsExact() throws {
        var quality = RunQuality()
        var truths: [MOTRecord] = []
        var tracks: [MOTRecord] = []
        for n in 1...2400 {
            let step = frame(n)
            quality.add(
                number: n, seconds: Double(n - 1) / 30, truths: step.truths, tracks: step.tracks)
            truths += step.truths
            tracks += step.tracks
        }
        let graded = try #require(quality.quality())
        let mot = MOTEvaluator().evaluate(groundTruth: truths, hypotheses: tracks)
        let hota = HOTAEvaluator().evaluate(groundTruth: truths, hypotheses: tracks)
        #expect(graded.idf1 == mot.idf1 && graded.mota == mot.mota)
        #expect(graded.identitySwitches == mot.idsw && mot.idsw > 0)
        #expect(graded.hota == hota.hota && graded.detA == hota.detA && graded.assA == hota.assA)
    }

    @Test("over a long run it keeps one HOTA window of frames, and identity stays exact")
    func longRunKeepsOneWindow() throws {
        var quality = RunQuality()
        var truths: [MOTRecord] = []
        var tracks: [MOTRecord] = []
        let rate = 30.0
        for n in 1...19_000 {
            let step = frame(n)
            quality.add(
                number: n, seconds: Double(n - 1) / rate, truths: step.truths, tracks: step.tracks)
            truths += step.truths
            tracks += step.tracks
            // The open HOTA window's frames, and at most as many again before the next
            // compaction.
            #expect(quality.keptFrames <= 2 * Int(RunQuality.hotaWindow.seconds * rate) + 2)
        }
        let graded = try #require(quality.quality())
        let mot = MOTEvaluator().evaluate(groundTruth: truths, hypotheses: tracks)
        #expect(graded.idf1 == mot.idf1 && graded.identitySwitches == mot.idsw)
        #expect(abs((graded.recentDuration - TrackingQuality.recentWindow).seconds) <= 1 / rate)
    }

    @Test("HOTA counts add up as TrackEval combines sequences")
    func hotaCountsCombine() {
        let first = (1...300).map { frame($0) }
        let second = (301...900).map { frame($0, swapEvery: 50) }
        let evaluator = HOTAEvaluator()
        let a = evaluator.counts(
            groundTruth: first.flatMap(\.truths), hypotheses: first.flatMap(\.tracks))
        let b = evaluator.counts(
            groundTruth: second.flatMap(\.truths), hypotheses: second.flatMap(\.tracks))
        let combined = (a + b).metrics
        // DetA at each α: summed true positives over summed boxes, as combine_sequences adds
        // HOTA_TP, HOTA_FN and HOTA_FP; AssA weighted by true positives.
        let alpha = 0
        let tp = Double(a.alphas[alpha].truePositives + b.alphas[alpha].truePositives)
        let boxes = Double(a.truthBoxes + b.truthBoxes + a.trackBoxes + b.trackBoxes)
        let assA = (a.alphas[alpha].associationAccuracy + b.alphas[alpha].associationAccuracy) / tp
        #expect(abs(combined.hota0 - (tp / (boxes - tp) * assA).squareRoot()) < 1e-12)
        // A sequence combined with itself scores as itself.
        let doubled = (a + a).metrics
        let single = a.metrics
        #expect(abs(doubled.hota - single.hota) < 1e-12 && abs(doubled.locA - single.locA) < 1e-12)
        #expect(
            a.metrics
                == evaluator.evaluate(
                    groundTruth: first.flatMap(\.truths), hypotheses: first.flatMap(\.tracks)))
    }

    @Test("a thinned series keeps at most its capacity, evenly spread from the first value")
    func thinnedSeries() {
        var series = ThinnedSeries<Int>(capacity: 8)
        for value in 0..<1000 {
            series.append(value)
            #expect(series.values.count <= 8)
        }
        let kept = series.values
        #expect(kept.first == 0)
        let gaps = Set(zip(kept, kept.dropFirst()).map { $1 - $0 })
        #expect(gaps == [series.step])
        #expect(series.offered == 1000 && kept.last! + series.step > 999 - series.step)
    }

    @Test("the scene keeps its latest frames' ground truth, also when a late camera skips numbers")
    func sceneTruthStaysBounded() {
        let source = SceneFrameSource(
            scene: SyntheticScene.Configuration(), width: 64, height: 36, pose: CameraPose())
        for run in 0..<3 {
            for number in stride(from: 0, to: 3000, by: 7) {
                var frame = Frame(camera: "c", number: number, width: 64, height: 36)
                frame.timestamp = MonotonicInstant(
                    nanoseconds: UInt64(run * 3000 + number) * 33_333_333)
                source.render(&frame)
                #expect(source.retainedTruthCount <= 2 * SceneFrameSource.retainedFrames)
            }
        }
        #expect(source.groundTruth(run: 2, number: 2996) != nil)
    }
}
