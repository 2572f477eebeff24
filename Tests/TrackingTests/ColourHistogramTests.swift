import Testing
import Tracking
import Units

@Suite struct ColourHistogramTests {
    /// A 100 × 120 frame, a person at x 40..<60, y 0..<102: a top of `top` down to row 56 (the
    /// histogram's halves meet there: its rows are 10..<102) and trousers of `trousers` (grey,
    /// blue difference, red difference as stored, 128 for none), with a stripe of `stripe`
    /// over rows 20..<30 when given. Colours change on even rows, as 4:2:0 chroma can.
    private func frame(
        top: (UInt8, UInt8, UInt8), trousers: (UInt8, UInt8, UInt8),
        stripe: (UInt8, UInt8, UInt8)? = nil, colour: Bool = true
    ) -> GrayFrame {
        var frame = GrayFrame(width: 100, height: 120, value: 30)
        var chroma = ChromaPlanes(neutralForFrameWidth: 100, height: 120)
        for y in 0..<102 {
            for x in 40..<60 {
                var paint = y < 56 ? top : trousers
                if let stripe, (20..<30).contains(y) { paint = stripe }
                frame[x, y] = paint.0
                chroma.blue[(y / 2) * 50 + x / 2] = paint.1
                chroma.red[(y / 2) * 50 + x / 2] = paint.2
            }
        }
        frame.chroma = colour ? chroma : nil
        return frame
    }

    private let person = BoundingBox(minX: 40, minY: 0, width: 20, height: 102)
    private let redTop: (UInt8, UInt8, UInt8) = (120, 100, 200)
    private let blueTrousers: (UInt8, UInt8, UInt8) = (80, 190, 110)

    @Test("a red top over blue trousers is far from the reverse, near itself a few pixels off")
    func clothesAreToldApart() throws {
        let redOverBlue = try #require(
            ColourHistogram(box: person, in: frame(top: redTop, trousers: blueTrousers)))
        let blueOverRed = try #require(
            ColourHistogram(box: person, in: frame(top: blueTrousers, trousers: redTop)))
        #expect(redOverBlue.distance(to: redOverBlue) == 0)
        // Every pixel of each half in another colour: as far apart as can be.
        #expect(redOverBlue.distance(to: blueOverRed) == 1)
        #expect(blueOverRed.distance(to: redOverBlue) == 1)
        // The box 4 pixels lower and 2 to the right: 4 of each half's 46 rows change sides.
        let shifted = BoundingBox(minX: 42, minY: 4, width: 20, height: 102)
        let seenAgain = try #require(
            ColourHistogram(box: shifted, in: frame(top: redTop, trousers: blueTrousers)))
        let overlap = (42.0 / 46).squareRoot()
        #expect(abs(redOverBlue.distance(to: seenAgain) - (1 - overlap)) < 1e-6)
        #expect(redOverBlue.distance(to: seenAgain) < ColourHistogram.sameLookLimit)
        // The same grey, another colour: a green top is far from the red one (half the body).
        let greenTop: (UInt8, UInt8, UInt8) = (120, 100, 60)
        let greenOverBlue = try #require(
            ColourHistogram(box: person, in: frame(top: greenTop, trousers: blueTrousers)))
        #expect(redOverBlue.distance(to: greenOverBlue) == 0.5)
    }

    @Test("a stripe keeps its colour where band means would average it away")
    func aPatternIsKept() throws {
        let plain = try #require(
            ColourHistogram(box: person, in: frame(top: redTop, trousers: blueTrousers)))
        let striped = try #require(
            ColourHistogram(
                box: person,
                in: frame(top: redTop, trousers: blueTrousers, stripe: (240, 128, 128))))
        // 10 of the upper half's 46 rows in white: its overlap is √(36/46), the lower one's 1.
        let expected = (1 - (36.0 / 46).squareRoot()) / 2
        #expect(abs(plain.distance(to: striped) - expected) < 1e-6)
    }

    @Test func aGreyFrameOrATinyBoxHasNoHistogram() {
        #expect(
            ColourHistogram(
                box: person, in: frame(top: redTop, trousers: blueTrousers, colour: false)) == nil)
        let tiny = BoundingBox(minX: 40, minY: 10, width: 3, height: 60)
        #expect(ColourHistogram(box: tiny, in: frame(top: redTop, trousers: blueTrousers)) == nil)
        let outside = BoundingBox(minX: 40, minY: -200, width: 20, height: 100)
        #expect(
            ColourHistogram(box: outside, in: frame(top: redTop, trousers: blueTrousers)) == nil)
    }

    @Test("blending moves a look part of the way, and it stays a histogram")
    func blending() throws {
        let a = try #require(
            ColourHistogram(box: person, in: frame(top: redTop, trousers: blueTrousers)))
        let b = try #require(
            ColourHistogram(box: person, in: frame(top: blueTrousers, trousers: redTop)))
        let halfway = a.blended(toward: b, weight: 0.5)
        // Half of each half's pixels in either colour: overlap √0.5 with each end.
        let expected = 1 - (0.5 as Double).squareRoot()
        #expect(abs(halfway.distance(to: a) - expected) < 1e-6)
        #expect(abs(halfway.distance(to: b) - expected) < 1e-6)
        #expect(a.blended(toward: b, weight: 0) == a)
    }

    @Test("descriptors of the two kinds are as far apart as can be; each kind compares its own")
    func descriptorsOfTwoKinds() throws {
        let picture = frame(top: redTop, trousers: blueTrousers)
        let histogram = try #require(
            AppearanceDescriptor(box: person, in: picture, style: .colourHistogram))
        let bands = try #require(AppearanceDescriptor(box: person, in: picture, style: .bands))
        #expect(histogram.distance(to: bands) == 1)
        #expect(bands.slidingDistance(to: histogram) == 1)
        #expect(histogram.distance(to: histogram) == 0)
        #expect(histogram.slidingDistance(to: histogram) == 0)
        #expect(histogram.hasColour && histogram.bands.isEmpty)
        // Blending with the other kind teaches nothing.
        #expect(histogram.blended(toward: bands, weight: 0.5) == histogram)
        // Without colour there is no histogram look.
        #expect(
            AppearanceDescriptor(
                box: person, in: frame(top: redTop, trousers: blueTrousers, colour: false),
                style: .colourHistogram) == nil)
    }

    @Test func theNeuralDetectorsBoxesCarryHistogramsAndItsTrackerGatesThem() {
        #expect(DetectorKind.personSSD.appearanceStyle == .colourHistogram)
        #expect(DetectorKind.blob.appearanceStyle == .bands)
        #expect(DetectorKind.hog.appearanceStyle == nil)
        let settings = DetectorKind.personSSD.trackerConfiguration
        #expect(settings.appearanceGate == ColourHistogram.sameLookLimit)
        #expect(settings.reidentificationDistance == ColourHistogram.reidentificationLimit)
        #expect(ColourHistogram.reidentificationLimit < ColourHistogram.sameLookLimit)
    }
}
