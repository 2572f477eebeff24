import Testing
import Tracking
import Units

/// A fixed camera's view: a textured background with sensor noise, rectangles drawn over it.
private struct MotionScene {
    var width = 160
    var height = 120
    /// Added to every background pixel (a change of the whole scene's brightness).
    var brightness = 0
    private var background: [UInt8] = []
    private var generator = SeededGenerator(seed: 7)

    init(width: Int = 160, height: Int = 120) {
        self.width = width
        self.height = height
        // A gradient, a pattern of tiles and stripes, 50...130 grey levels: edges everywhere.
        background = (0..<(width * height)).map { index in
            let x = index % width
            let y = index / width
            let tile = ((x / 6 + y / 9) % 3) * 12
            let stripe = (x * 7 + y * 3) % 11
            return UInt8(50 + x * 30 / width + tile + stripe + y % 4)
        }
    }

    /// A frame: the background, ±3 grey levels of noise, and `movers` (box, grey level).
    mutating func frame(_ movers: [(box: BoundingBox, grey: UInt8)] = []) -> GrayFrame {
        var pixels = background.map { value -> UInt8 in
            let noise = Int(generator.next() % 7) - 3
            return UInt8(clamping: Int(value) + brightness + noise)
        }
        for mover in movers {
            let box = mover.box
            for y in max(0, Int(box.minY))..<min(height, Int(box.maxY)) {
                for x in max(0, Int(box.minX))..<min(width, Int(box.maxX)) {
                    pixels[y * width + x] = mover.grey
                }
            }
        }
        return GrayFrame(width: width, height: height, pixels: pixels)
    }
}

/// A 14 × 30 box whose left edge is at `x` (moving 2 pixels a frame in the tests).
private func walker(x: Double, y: Double = 40) -> BoundingBox {
    BoundingBox(minX: x, minY: y, width: 14, height: 30)
}

@Suite struct MotionDetectorTests {
    @Test(arguments: [UInt8(230), 10])
    func aMovingRectangleIsFoundOnceWithItsBox(grey: UInt8) {
        var scene = MotionScene()
        var detector = MotionDetector(scale: 1)
        for index in 0..<60 {
            let truth = walker(x: 10 + 2 * Double(index))
            let detections = detector.detect(in: scene.frame([(truth, grey)]))
            if index < detector.warmUpFrames {
                #expect(detections.isEmpty, "frame \(index): detections while warming up")
                continue
            }
            // The rectangle was there while the model formed; what it left in the model is
            // a ghost and is gone a few frames after the warm-up.
            guard index >= detector.warmUpFrames + 10 else { continue }
            #expect(detections.count == 1, "frame \(index): \(detections.map(\.box))")
            let overlap = detections.map { $0.box.intersectionOverUnion(with: truth) }.max() ?? 0
            #expect(overlap > 0.7, "frame \(index): IoU \(overlap)")
            #expect(detections.allSatisfy { $0.kind == .humanBody && $0.confidence > 0.6 })
        }
    }

    @Test func twoSeparatedMoversAreTwoDetections() {
        var scene = MotionScene()
        var detector = MotionDetector()
        for index in 0..<50 {
            let left = walker(x: 5 + 1.5 * Double(index), y: 10)
            let right = walker(x: 140 - 1.5 * Double(index), y: 75)
            let detections = detector.detect(in: scene.frame([(left, 220), (right, 15)]))
            guard index >= 25 else { continue }
            #expect(detections.count == 2, "frame \(index): \(detections.map(\.box))")
            for truth in [left, right] {
                let overlap = detections.map { $0.box.intersectionOverUnion(with: truth) }.max()
                #expect((overlap ?? 0) > 0.7, "frame \(index): \(truth) not found")
            }
        }
    }

    @Test func aStillSceneHasNoDetections() {
        var scene = MotionScene()
        var detector = MotionDetector()
        var found = 0
        for _ in 0..<80 { found += detector.detect(in: scene.frame()).count }
        #expect(found == 0)
    }

    @Test(arguments: [10, 25, -25])
    func aBrightnessChangeDoesNotLightUpTheFrame(change: Int) {
        var scene = MotionScene()
        var detector = MotionDetector()
        for _ in 0..<20 { _ = detector.detect(in: scene.frame()) }
        scene.brightness = change
        var found = 0
        for _ in 0..<10 { found += detector.detect(in: scene.frame()).count }
        #expect(found == 0)
    }

    @Test func withoutCompensationABrightnessChangeLightsUpTheFrame() {
        var scene = MotionScene()
        var detector = MotionDetector()
        detector.compensatesBrightness = false
        for _ in 0..<20 { _ = detector.detect(in: scene.frame()) }
        scene.brightness = 25
        let detections = detector.detect(in: scene.frame())
        let covered = detections.map(\.box.area).reduce(0, +)
        #expect(covered > 0.5 * 160 * 120)
    }

    @Test func changingTheScaleRestartsTheModelAndStillDetects() {
        var scene = MotionScene()
        var detector = MotionDetector(scale: 1)
        var position = 10.0
        func step() -> (BoundingBox, [Detection]) {
            position += 1.5
            let truth = walker(x: position)
            return (truth, detector.detect(in: scene.frame([(truth, 225)])))
        }
        for _ in 0..<25 { _ = step() }
        #expect(!detector.isWarmingUp)
        for scale in [0.5, 0.25, 1] {
            detector.scale = scale
            let (_, first) = step()
            #expect(first.isEmpty, "scale \(scale): the new model is warming up")
            #expect(detector.isWarmingUp)
            for _ in 0..<20 { _ = step() }
            let (truth, detections) = step()
            let overlap = detections.map { $0.box.intersectionOverUnion(with: truth) }.max()
            // A block of 4 pixels rounds each edge of a 14-pixel-wide box by up to 3 pixels.
            #expect((overlap ?? 0) > (scale == 0.25 ? 0.5 : 0.7), "scale \(scale)")
        }
    }

    @Test func aRectangleThatLeftIsForgottenAndOneThatStopsIsKept() {
        var scene = MotionScene()
        var detector = MotionDetector()
        let parked = walker(x: 20)
        for _ in 0..<20 { _ = detector.detect(in: scene.frame([(parked, 230)])) }
        // It leaves: the model's memory of it is a ghost, and ghosts are not reported.
        var ghostFrames = 0
        for _ in 0..<10 where !detector.detect(in: scene.frame()).isEmpty { ghostFrames += 1 }
        #expect(ghostFrames <= 1)
        // Another one arrives and stops: it is still found 100 frames later (two time
        // constants of the background rate, a fifth of the foreground one).
        let stopped = walker(x: 100)
        var missed = 0
        for _ in 0..<100 {
            let detections = detector.detect(in: scene.frame([(stopped, 20)]))
            if !detections.contains(where: { $0.box.intersectionOverUnion(with: stopped) > 0.7 }) {
                missed += 1
            }
        }
        #expect(missed == 0)
    }

    @Test func emptyAndTinyFramesHaveNoDetections() {
        var detector = MotionDetector()
        #expect(detector.detect(in: GrayFrame(width: 0, height: 0)).isEmpty)
        for (width, height) in [(1, 1), (3, 2), (1, 50), (64, 1), (65, 3)] {
            for index in 0..<15 {
                let frame = GrayFrame(width: width, height: height, value: index > 12 ? 255 : 0)
                #expect(detector.detect(in: frame).isEmpty, "\(width)×\(height)")
            }
        }
        var coarse = MotionDetector(scale: 0.05)
        #expect(coarse.blockSize == 20)
        #expect(coarse.detect(in: GrayFrame(width: 19, height: 100)).isEmpty)
    }

    @Test func confidenceGrowsWithFillAndSize() {
        let minimum = 100.0
        let values = [
            MotionDetector.confidence(pixels: 100, boxArea: 1_000, minimumPixels: minimum),
            MotionDetector.confidence(pixels: 100, boxArea: 200, minimumPixels: minimum),
            MotionDetector.confidence(pixels: 400, boxArea: 800, minimumPixels: minimum),
        ]
        #expect(values[0] < values[1] && values[1] < values[2])
        #expect(values.allSatisfy { (0...1).contains($0) })
        #expect(values[2] == 1)
        #expect(MotionDetector.confidence(pixels: 0, boxArea: 0, minimumPixels: minimum) == 0)
    }
}
