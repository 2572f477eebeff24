import Testing
import Tracking

@Suite struct SyntheticSceneTests {
    private func render(seed: UInt64, seconds: Double) -> (GrayFrame, [FrameRenderer.Visible]) {
        var configuration = SyntheticScene.Configuration()
        configuration.seed = seed
        var scene = SyntheticScene(configuration: configuration)
        scene.advance(by: .seconds(seconds))
        var renderer = FrameRenderer(width: 320, height: 180)
        var frame = GrayFrame(width: 320, height: 180)
        let visible = renderer.render(scene, from: CameraPose(), into: &frame)
        return (frame, visible)
    }

    @Test func sameSeedSameFrames() {
        let a = render(seed: 5, seconds: 3)
        let b = render(seed: 5, seconds: 3)
        let c = render(seed: 6, seconds: 3)
        #expect(a.0.pixels == b.0.pixels)
        #expect(a.1 == b.1)
        #expect(a.0.pixels != c.0.pixels)
    }

    @Test func peopleWalk() {
        var scene = SyntheticScene()
        let before = scene.people
        scene.advance(by: .seconds(2))
        #expect(zip(before, scene.people).contains { $0.yaw != $1.yaw })
    }

    @Test func detectorFindsTheVisiblePeople() {
        var detector = BlobDetector(scale: 0.5)
        var checked = 0
        for seed in UInt64(1)...10 {
            let (frame, visible) = render(seed: seed, seconds: 2)
            let detections = detector.detect(in: frame)
            // People standing apart (touching people of a similar grey merge into one blob).
            let apart = visible.filter { person in
                let margin = BoundingBox(
                    minX: person.box.minX - 4, minY: person.box.minY - 4,
                    width: person.box.width + 8, height: person.box.height + 8)
                return !visible.contains {
                    $0.id != person.id && $0.box.intersectionArea(with: margin) > 0
                }
            }
            for person in apart where person.visibility > 0.95 {
                checked += 1
                let best = detections.map { $0.box.intersectionOverUnion(with: person.box) }.max()
                #expect((best ?? 0) > 0.7, "seed \(seed): person \(person.id) not found")
            }
        }
        #expect(checked >= 5)
    }

    @Test func lowerScaleReadsFewerPixelsAndStillFindsPeople() {
        let (frame, visible) = render(seed: 2, seconds: 1)
        var coarse = BlobDetector(scale: 0.25)
        #expect(coarse.blockSize == 4)
        let found = coarse.detect(in: frame)
        let big = visible.filter { $0.visibility > 0.95 && $0.box.height > 60 }
        for person in big {
            #expect(found.contains { $0.box.intersectionOverUnion(with: person.box) > 0.6 })
        }
    }
}
