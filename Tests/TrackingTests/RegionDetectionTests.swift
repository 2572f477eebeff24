import Foundation
import Testing
import Tracking

/// Detection on regions at the model's own scale: where to look, how tall people stand, one
/// frame's boxes from several regions — and the real network on real frames.
struct RegionDetectionTests {
    func box(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> BoundingBox {
        BoundingBox(minX: x, minY: y, width: width, height: height)
    }

    @Test("a plan covers people with squares three times their height, within the budget")
    func plan() {
        let far = RegionPlan.Target(box: box(100, 100, 15, 40), personHeight: 40, weight: 2)
        let beside = RegionPlan.Target(box: box(130, 110, 15, 40), personHeight: 40, weight: 2)
        let near = RegionPlan.Target(box: box(500, 300, 50, 150), personHeight: 150, weight: 2)
        let motion = RegionPlan.Target(box: box(700, 50, 20, 20), personHeight: 60, weight: 1)
        let plan = RegionPlan(
            width: 768, height: 576, targets: [far, near, beside, motion], budget: 2,
            wholeFrame: false)
        #expect(!plan.looksAtWholeFrame)
        #expect(plan.regions.count == 2)
        // The two far people share the smallest square (160: 3 × 40 is smaller); the near one
        // gets 3 × 150 = 450; the motion, worth least, is left for another frame.
        #expect(plan.regions.contains { $0.width == 160 && $0.height == 160 })
        #expect(plan.regions.contains { $0.width == 450 })
        for region in plan.regions {
            #expect(region.x >= 0 && region.y >= 0)
            #expect(region.x + region.width <= 768 && region.y + region.height <= 576)
        }
        let whole = RegionPlan(
            width: 768, height: 576, targets: [far], budget: 3, wholeFrame: true)
        #expect(whole.looksAtWholeFrame && whole.regions.count == 2)
        #expect(whole.regions[0] == RegionPlan.Region(x: 0, y: 0, width: 768, height: 576))
        let still = RegionPlan(width: 768, height: 576, targets: [], budget: 3, wholeFrame: false)
        #expect(still.looksAtWholeFrame && still.regions.count == 1)
        // A person taller than the frame allows gets the largest square there is.
        let giant = RegionPlan.Target(box: box(0, 0, 200, 570), personHeight: 570, weight: 1)
        let clamped = RegionPlan(
            width: 768, height: 576, targets: [giant], budget: 1, wholeFrame: false)
        #expect(clamped.regions == [RegionPlan.Region(x: 0, y: 0, width: 576, height: 576)])
    }

    @Test("people's height is learned against their foot row once feet spread over the frame")
    func heights() {
        var model = PersonHeightModel()
        // Height = 0.5 × foot row − 50: 100 pixels at row 300, 200 at row 500.
        for index in 0..<40 {
            let foot = 200 + Double(index * 8)
            model.learn(box(10, foot - (foot / 2 - 50), 20, foot / 2 - 50), frameHeight: 576)
        }
        #expect(abs((model.height(atFootRow: 400) ?? 0) - 150) < 0.01)
        var flat = PersonHeightModel()
        for _ in 0..<40 { flat.learn(box(10, 100, 20, 80), frameHeight: 576) }
        #expect(flat.height(atFootRow: 400) == nil, "one row says nothing of the others")
    }

    @Test("boxes from several regions: the whole view beats a cut one, parts of a kept box go")
    func merge() {
        func found(_ box: BoundingBox, _ score: Double, cut: Bool = false) -> RegionMerge.Found {
            RegionMerge.Found(detection: Detection(box: box, confidence: score), isCut: cut)
        }
        let cut = found(box(100, 100, 30, 60), 0.9, cut: true)
        let whole = found(box(100, 100, 30, 80), 0.6)
        let part = found(box(105, 105, 20, 30), 0.5)
        let other = found(box(200, 100, 30, 80), 0.3)
        let merged = RegionMerge.merge([cut, part, whole, other])
        #expect(merged == [whole, other])
    }

    @Test(
        "on real frames, regions around the people find far people the whole frame misses",
        .enabled(if: SSDPersonDetectorTests.model != nil))
    func findsFarPeople() throws {
        let model = try #require(SSDPersonDetectorTests.model)
        let truth = try Self.groundTruth()
        var whole = try SSDPersonDetector(model: model)
        var regions = try SSDPersonDetector(model: model, regions: 6)
        regions.search.wholeFrameInterval = 1000
        var found = (whole: 0, regions: 0, people: 0)
        // Four frames a hundred apart, given the true boxes as the tracker's expectation.
        for number in [100, 200, 300, 400] {
            let people = try #require(truth[number])
            let frame = try HOGDetectorTests.videoFrame(number - 1)
            found.people += people.count
            found.whole += Self.matched(people, whole.detect(in: frame).map(\.box))
            found.regions += Self.matched(
                people, regions.detect(in: frame, expecting: people).map(\.box))
        }
        #expect(regions.networkCalls <= 4 * 6)
        #expect(
            Double(found.regions) >= 0.75 * Double(found.people) && found.regions > found.whole,
            "regions \(found.regions), whole frame \(found.whole), of \(found.people)")
    }

    /// The published ground truth of `vtest.avi` (PETS09-S2L1), by frame (1 = the first).
    static func groundTruth() throws -> [Int: [BoundingBox]] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/people/PETS09-S2L1-gt.txt").standardized.path
        var boxes: [Int: [BoundingBox]] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count >= 6 else { continue }
            boxes[Int(fields[0]), default: []].append(
                BoundingBox(minX: fields[2], minY: fields[3], width: fields[4], height: fields[5]))
        }
        return boxes
    }

    /// How many of `people` a box overlaps by IoU 0.5 or more, each box counted once.
    static func matched(_ people: [BoundingBox], _ boxes: [BoundingBox]) -> Int {
        var used = Set<Int>()
        var count = 0
        for person in people {
            let best = boxes.indices.filter { !used.contains($0) }
                .max {
                    boxes[$0].intersectionOverUnion(with: person)
                        < boxes[$1].intersectionOverUnion(with: person)
                }
            if let best, boxes[best].intersectionOverUnion(with: person) >= 0.5 {
                used.insert(best)
                count += 1
            }
        }
        return count
    }
}
