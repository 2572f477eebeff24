/// What a detected box looks like as band means, from its pixels alone: the mean grey of eight
/// horizontal bands down the middle half of the box (the edges are left out, where the background shows
/// around a body). Cheap — no model weights — and enough to tell a light top over dark legs
/// from the reverse.
///
/// Two looks are compared band by band (``distance(to:)``): light that changes across a
/// room moves every band a little, clothes of another grey move some bands a lot.
///
/// In a frame with colour (``GrayFrame/chroma``) each band also keeps its mean blue and red
/// difference, and two looks in colour are also compared by them: clothes of the same
/// grey but another colour (a red coat and a green one) are told apart, and a change of light,
/// which moves grey, leaves colour nearly where it was.
public struct BandLook: Sendable, Hashable {
    /// The number of bands from the top of the box to the bottom.
    public static let bandCount = 8

    /// The mean grey of each band, top first, 0...255 — held inline (no heap array), so
    /// copying a detection or a track, which the tracker does for every pair it weighs, costs
    /// no reference counting.
    private var means: SIMD8<Double>
    /// The mean blue and red difference of each band (−128...127), when seen in colour.
    private var colour: BandColour?

    /// Each band's mean colour.
    private struct BandColour: Sendable, Hashable {
        var blue: SIMD8<Double>
        var red: SIMD8<Double>
    }

    /// The mean grey of each band, top first, 0...255.
    public var bands: [Double] { (0..<Self.bandCount).map { means[$0] } }

    /// The look of the part of `box` (pixels, top-left origin) inside `frame`; nil when
    /// that holds less than one pixel per band. Reads at most about 24 × 24 pixels per band,
    /// however large the box.
    public init?(box: BoundingBox, in frame: GrayFrame) {
        let x0 = max(0, Int((box.minX + box.width / 4).rounded()))
        let x1 = min(frame.width, Int((box.maxX - box.width / 4).rounded()))
        let y0 = max(0, Int(box.minY.rounded()))
        let y1 = min(frame.height, Int(box.maxY.rounded()))
        let count = Self.bandCount
        guard x1 > x0, y1 - y0 >= count else { return nil }
        let columnStep = max(1, (x1 - x0) / 24)
        let rowStep = max(1, (y1 - y0) / (count * 24))
        var sums = [Int](repeating: 0, count: count)
        var blueSums = sums
        var redSums = sums
        var samples = [Int](repeating: 0, count: count)
        let chroma = frame.chroma
        frame.pixels.withUnsafeBufferPointer { pixels in
            for row in stride(from: y0, to: y1, by: rowStep) {
                let band = (row - y0) * count / (y1 - y0)
                let base = row * frame.width
                for column in stride(from: x0, to: x1, by: columnStep) {
                    sums[band] += Int(pixels[base + column])
                    samples[band] += 1
                    if let chroma {
                        let difference = chroma.difference(atFrameX: column, y: row)
                        blueSums[band] += difference.blue
                        redSums[band] += difference.red
                    }
                }
            }
        }
        func bandMeans(_ sums: [Int]) -> SIMD8<Double> {
            SIMD8(zip(sums, samples).map { Double($0) / Double(max(1, $1)) })
        }
        means = bandMeans(sums)
        colour = chroma.map { _ in BandColour(blue: bandMeans(blueSums), red: bandMeans(redSums)) }
    }

    /// A look with the given band means (``bandCount`` of them).
    public init(bands: [Double]) {
        precondition(bands.count == Self.bandCount, "expected \(Self.bandCount) bands")
        means = SIMD8(bands)
    }

    /// A look in colour: each band's mean grey, blue and red difference
    /// (``bandCount`` of each).
    public init(bands: [Double], blue: [Double], red: [Double]) {
        self.init(bands: bands)
        precondition(blue.count == Self.bandCount && red.count == Self.bandCount)
        colour = BandColour(blue: SIMD8(blue), red: SIMD8(red))
    }

    /// Whether the look was seen in colour.
    public var hasColour: Bool { colour != nil }

    /// How different two looks are, ≥ 0: the mean absolute difference of their bands
    /// in hundreds of grey levels, leaving out the band that differs most — one band alone is
    /// where a box's edge or a body's waist falls a little higher or lower, or where a head is
    /// hidden, not other clothes. The same person seen twice is typically under 0.01 (noise);
    /// the scene's ±4 % lighting moves that up to about 0.15 across a room (see
    /// `lightChange`); clothes one palette step (20 levels) apart in one half of the body are
    /// about 0.09 apart, a light-over-dark body against a dark-over-light one 0.4 or more.
    ///
    /// - Parameter lightChange: the relative change in brightness to forgive, ≥ 0: the two are
    ///   compared after scaling them toward each other by up to `1 + lightChange` in all
    ///   (someone seen under other light, in another part of a room). 0 compares them as they
    ///   are.
    public func distance(to other: BandLook, lightChange: Double = 0) -> Double {
        let (mine, theirs) = scaledTogether(with: other, lightChange: lightChange)
        return Self.bandDistance(mine - theirs) + colourDistance(to: other, slide: 0)
    }

    /// ``distance(to:lightChange:)`` with `other`'s bands also slid one band up and down, the
    /// least of the three: how far a look has drifted from the same person's when their box
    /// sits a little higher or lower on the body. A waist between two bands moves both of
    /// them, which ``distance(to:lightChange:)`` takes for other clothes; other clothes stay
    /// apart however the bands slide.
    public func slidingDistance(to other: BandLook, lightChange: Double = 0)
        -> Double
    {
        let (mine, theirs) = scaledTogether(with: other, lightChange: lightChange)
        return [0, -1, 1].map { slide in
            Self.bandDistance(mine - Self.slid(theirs, by: slide))
                + colourDistance(to: other, slide: slide)
        }.min()!
    }

    /// `bands` moved one band up (1: each takes the one below it) or down (−1), the end band
    /// repeated; as they are for 0.
    private static func slid(_ bands: SIMD8<Double>, by slide: Int) -> SIMD8<Double> {
        let b = bands
        switch slide {
        case -1: return SIMD8(b[0], b[0], b[1], b[2], b[3], b[4], b[5], b[6])
        case 1: return SIMD8(b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[7])
        default: return bands
        }
    }

    /// How different two looks' colours are, in the units of grey's distance: the mean
    /// absolute difference of the bands' blue plus red differences, in hundreds of levels, the
    /// band that differs most left out; 0 unless both were seen in colour. The light's
    /// brightness moves colour differences little, so none of it is forgiven. `slide` moves
    /// `other`'s bands one up (1) or down (−1), as ``slidingDistance(to:lightChange:)`` does.
    private func colourDistance(to other: BandLook, slide: Int) -> Double {
        guard let mine = colour, let theirs = other.colour else { return 0 }
        let blue = mine.blue - Self.slid(theirs.blue, by: slide)
        let red = mine.red - Self.slid(theirs.red, by: slide)
        return Self.bandDistance(
            blue.replacing(with: -blue, where: blue .< 0)
                + red.replacing(with: -red, where: red .< 0))
    }

    /// The two looks' bands scaled toward each other by up to `1 + lightChange` in all.
    private func scaledTogether(with other: BandLook, lightChange: Double)
        -> (SIMD8<Double>, SIMD8<Double>)
    {
        guard lightChange > 0, other.means.sum() > 0 else { return (means, other.means) }
        let limit = 1 + lightChange
        let gain = min(limit, max(1 / limit, means.sum() / other.means.sum())).squareRoot()
        return (means / gain, other.means * gain)
    }

    /// The mean absolute band difference in hundreds of grey levels, the largest left out.
    private static func bandDistance(_ difference: SIMD8<Double>) -> Double {
        let absolute = difference.replacing(with: -difference, where: difference .< 0)
        return (absolute.sum() - absolute.max()) / Double(bandCount - 1) / 100
    }

    /// This look moved toward `other` by `weight` (0...1): the running appearance of a
    /// track, updated with each clean observation.
    public func blended(toward other: BandLook, weight: Double) -> BandLook {
        var result = self
        result.means += (other.means - means) * weight
        if let mine = colour, let theirs = other.colour {
            result.colour = BandColour(
                blue: mine.blue + (theirs.blue - mine.blue) * weight,
                red: mine.red + (theirs.red - mine.red) * weight)
        }
        return result
    }
}
