import Dock
import Testing
import Tracking
import Units

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
        let pixels = annotation.draw(over: luma, chroma: nil, width: width, height: height)
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

    @Test("frames in colour are drawn in colour (full-range BT.601)")
    func drawsInColour() {
        let (width, height) = (4, 2)
        // Left half red (Y 76, Cb 85, Cr 255), right half blue (Y 29, Cb 255, Cr 107).
        let luma: [UInt8] = [76, 76, 29, 29, 76, 76, 29, 29]
        let chroma = ChromaPlanes(width: 2, height: 1, blue: [85, 255], red: [255, 107])
        let annotation = FrameAnnotation(tracks: [], primary: nil, framing: nil)
        let pixels = annotation.draw(over: luma, chroma: chroma, width: width, height: height)
        let red = Array(pixels[0..<3]).map(Int.init)
        let blue = Array(pixels[9..<12]).map(Int.init)
        #expect(red[0] > 250 && red[1] < 5 && red[2] < 5, "\(red)")
        #expect(blue[0] < 5 && blue[1] < 5 && blue[2] > 250, "\(blue)")
    }
}
