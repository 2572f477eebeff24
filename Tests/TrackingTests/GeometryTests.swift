import Testing
import Tracking

@Suite struct GeometryTests {
    @Test func pixelBoxesBecomeLowerLeftNormalizedRects() {
        let rect = NormalizedRect(
            pixels: BoundingBox(minX: 160, minY: 0, width: 320, height: 90), bufferWidth: 640,
            bufferHeight: 360)
        #expect(rect == NormalizedRect(x: 0.25, y: 0.75, width: 0.5, height: 0.25))
        #expect(rect.topLeft == BoundingBox(minX: 0.25, minY: 0, width: 0.5, height: 0.25))
        #expect(rect.pixels(imageWidth: 640, imageHeight: 360).minX == 160)
    }

    @Test func orientationRotatesIntoTheUprightImage() {
        // A box at the buffer's top-left corner.
        let box = BoundingBox(minX: 0, minY: 0, width: 100, height: 50)
        let right = NormalizedRect(
            pixels: box, bufferWidth: 400, bufferHeight: 200, orientation: .right)
        // Turned 90° clockwise, the buffer's top-left corner is the image's top-right.
        #expect(abs(right.topLeft.maxX - 1) < 1e-12)
        #expect(abs(right.topLeft.minY) < 1e-12)
        #expect(abs(right.width - 0.25) < 1e-12)  // the buffer's height becomes the width
        #expect(abs(right.height - 0.25) < 1e-12)
        let down = NormalizedRect(
            pixels: box, bufferWidth: 400, bufferHeight: 200, orientation: .down)
        #expect(abs(down.x - 0.75) < 1e-12 && abs(down.y) < 1e-12)
    }

    @Test(arguments: CameraOrientation.allCases)
    func orientationPreservesArea(orientation: CameraOrientation) {
        let box = BoundingBox(minX: 30, minY: 40, width: 100, height: 60)
        let rect = NormalizedRect(
            pixels: box, bufferWidth: 400, bufferHeight: 200, orientation: orientation)
        #expect(abs(rect.width * rect.height - (100.0 / 400) * (60.0 / 200)) < 1e-12)
    }

    @Test func intersectionOverUnion() {
        let a = BoundingBox(minX: 0, minY: 0, width: 10, height: 10)
        #expect(a.intersectionOverUnion(with: a) == 1)
        #expect(
            a.intersectionOverUnion(with: BoundingBox(minX: 5, minY: 0, width: 10, height: 10))
                == 50.0 / 150)
        #expect(
            a.intersectionOverUnion(with: BoundingBox(minX: 20, minY: 0, width: 1, height: 1)) == 0)
    }

    @Test func observationsBecomeTopLeftDetections() {
        let observation = Observation(
            rect: NormalizedRect(x: 0.1, y: 0.6, width: 0.2, height: 0.3), kind: .humanFace,
            confidence: 0.8)
        let detection = Detection(observation)
        #expect(abs(detection.box.minY - 0.1) < 1e-12)
        #expect(detection.kind == .humanFace)
    }
}
