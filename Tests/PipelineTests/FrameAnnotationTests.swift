import Dock
import Testing
import Tracking

@testable import Pipeline

@Suite struct FrameAnnotationTests {
    @Test func drawsTracksTheirIdsThePrimarySubjectAndTheFraming() {
        let (width, height) = (120, 80)
        let luma = [UInt8](repeating: 50, count: width * height)
        let track = TrackedObject(
            id: TrackID(7), box: BoundingBox(minX: 20, minY: 30, width: 30, height: 40))
        let primary = TrackedObject(
            id: TrackID(7), box: BoundingBox(minX: 0.5, minY: 0.25, width: 0.25, height: 0.5))
        let annotation = FrameAnnotation(tracks: [track], primary: primary, framing: nil)
        let pixels = annotation.draw(over: luma, width: width, height: height)
        #expect(pixels.count == width * height * 3)
        func colour(_ x: Int, _ y: Int) -> [UInt8] {
            Array(pixels[((y * width + x) * 3)..<((y * width + x) * 3 + 3)])
        }
        let trackColour = RGBCanvas.trackColours[7 % RGBCanvas.trackColours.count]
        #expect(colour(20, 50) == [trackColour.red, trackColour.green, trackColour.blue])
        #expect(colour(35, 50) == [50, 50, 50])  // inside the box: the picture
        #expect(colour(60, 40) == [255, 220, 0])  // the primary subject's edge, yellow
        // The id's plate sits above the box, with the digit's pixels in the track's colour.
        let plate = (0..<30).flatMap { y in (0..<40).map { colour($0, y) } }
        #expect(plate.contains([0, 0, 0]))
        #expect(plate.contains([trackColour.red, trackColour.green, trackColour.blue]))
    }
}
