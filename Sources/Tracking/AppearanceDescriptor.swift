/// What a detected box looks like, from its pixels alone: the mean grey of eight horizontal
/// bands down the middle half of the box (the edges are left out, where the background shows
/// around a body). Cheap — no model weights — and enough to tell a light top over dark legs
/// from the reverse.
///
/// Two descriptors are compared band by band (``distance(to:)``): light that changes across a
/// room moves every band a little, clothes of another grey move some bands a lot.
public struct AppearanceDescriptor: Sendable, Hashable {
    /// The number of bands from the top of the box to the bottom.
    public static let bandCount = 8

    /// The mean grey of each band, top first, 0...255 — held inline (no heap array), so
    /// copying a detection or a track, which the tracker does for every pair it weighs, costs
    /// no reference counting.
    private var means: SIMD8<Double>

    /// The mean grey of each band, top first, 0...255.
    public var bands: [Double] { (0..<Self.bandCount).map { means[$0] } }

    /// The descriptor of the part of `box` (pixels, top-left origin) inside `frame`; nil when
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
        var samples = [Int](repeating: 0, count: count)
        frame.pixels.withUnsafeBufferPointer { pixels in
            for row in stride(from: y0, to: y1, by: rowStep) {
                let band = (row - y0) * count / (y1 - y0)
                let base = row * frame.width
                for column in stride(from: x0, to: x1, by: columnStep) {
                    sums[band] += Int(pixels[base + column])
                    samples[band] += 1
                }
            }
        }
        means = SIMD8(zip(sums, samples).map { Double($0) / Double(max(1, $1)) })
    }

    /// A descriptor with the given band means (``bandCount`` of them).
    public init(bands: [Double]) {
        precondition(bands.count == Self.bandCount, "expected \(Self.bandCount) bands")
        means = SIMD8(bands)
    }

    /// The mean grey over all bands.
    public var level: Double { means.sum() / Double(Self.bandCount) }

    /// How different two descriptors look, ≥ 0: the mean absolute difference of their bands
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
    public func distance(to other: AppearanceDescriptor, lightChange: Double = 0) -> Double {
        let (mine, theirs) = scaledTogether(with: other, lightChange: lightChange)
        return Self.bandDistance(mine - theirs)
    }

    /// ``distance(to:lightChange:)`` with `other`'s bands also slid one band up and down, the
    /// least of the three: how far a look has drifted from the same person's when their box
    /// sits a little higher or lower on the body. A waist between two bands moves both of
    /// them, which ``distance(to:lightChange:)`` takes for other clothes; other clothes stay
    /// apart however the bands slide.
    public func slidingDistance(to other: AppearanceDescriptor, lightChange: Double = 0)
        -> Double
    {
        let (mine, theirs) = scaledTogether(with: other, lightChange: lightChange)
        let t = theirs
        let slidDown = SIMD8(t[0], t[0], t[1], t[2], t[3], t[4], t[5], t[6])
        let slidUp = SIMD8(t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[7])
        return min(
            Self.bandDistance(mine - theirs), Self.bandDistance(mine - slidDown),
            Self.bandDistance(mine - slidUp))
    }

    /// The two descriptors' bands scaled toward each other by up to `1 + lightChange` in all.
    private func scaledTogether(with other: AppearanceDescriptor, lightChange: Double)
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

    /// This descriptor moved toward `other` by `weight` (0...1): the running appearance of a
    /// track, updated with each clean observation.
    public func blended(toward other: AppearanceDescriptor, weight: Double) -> AppearanceDescriptor
    {
        var result = self
        result.means += (other.means - means) * weight
        return result
    }
}
