/// What a person's clothes look like in colour: for the upper and the lower half of the body,
/// the share of its pixels in each of 64 colours (4 steps of grey × 4 of blue difference × 4 of
/// red difference). Where ``BandLook``'s band means average a patterned shirt into
/// one grey, a histogram keeps its colours apart, and it does not care where in the half a
/// colour sits, so a box a little higher or lower on the body changes it little.
///
/// On the people of `vtest.avi` (PETS 2009 S2L1, its published ground-truth boxes, every fifth
/// frame): the same person five frames apart is a median 0.07 apart (90th percentile 0.16),
/// two people in one frame 0.40 (10th percentile 0.22).
public struct ColourHistogram: Sendable, Hashable {
    /// Colours a half holds: grey steps × blue steps × red steps.
    public static let binCount = 64
    private static let greySteps = 4
    private static let colourSteps = 4
    /// Blue and red differences are cut at −10, 0 and +10: clothes under daylight differ from
    /// grey by little, and finer steps keep them apart.
    private static let colourStepWidth = 10

    /// The distance beyond which two views are of different people, for the tracker's
    /// ``TrackerConfiguration/appearanceGate``: between the same person's 90th percentile
    /// (0.16) and two people's 10th (0.22) on `vtest.avi`'s ground truth.
    public static let sameLookLimit = 0.2
    /// The distance within which a lost identity is taken up again, for
    /// ``TrackerConfiguration/reidentificationDistance``: stricter than ``sameLookLimit``, since
    /// a wrong re-identification merges two people for good.
    public static let reidentificationLimit = 0.15

    /// The upper half's shares, summing to 1. Held inline, as band looks are: a descriptor
    /// stays a plain value that copies without reference counting (the tracker copies
    /// detections and tracks for every pair it weighs; with the shares on the heap an update
    /// with looks of 100 subjects took 122–134 µs, inline 85–94 µs, docs/benchmarks.md).
    private var upper: SIMD64<Float>
    /// The lower half's shares, summing to 1.
    private var lower: SIMD64<Float>

    /// The histogram of the body in `box` (pixels, top-left origin) inside `frame`: the middle
    /// 70 % of its width, from a tenth below its top (the head) to its bottom; nil when the
    /// frame has no colour or that holds fewer than 4 × 8 pixels. Reads at most about 64 × 64
    /// pixels a half, however large the box.
    public init?(box: BoundingBox, in frame: GrayFrame) {
        guard let chroma = frame.chroma else { return nil }
        let x0 = max(0, Int((box.minX + box.width * 0.15).rounded()))
        let x1 = min(frame.width, Int((box.maxX - box.width * 0.15).rounded()))
        let y0 = max(0, Int((box.minY + box.height * 0.1).rounded()))
        let y1 = min(frame.height, Int(box.maxY.rounded()))
        guard x1 - x0 >= 4, y1 - y0 >= 8 else { return nil }
        let middle = (y0 + y1) / 2
        let columnStep = max(1, (x1 - x0) / 32)
        let rowStep = max(1, (y1 - y0) / 64)
        // Counts on the stack, the upper half's 64 bins and then the lower half's.
        let counts = withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * Self.binCount) {
            counts in
            counts.initialize(repeating: 0)
            frame.pixels.withUnsafeBufferPointer { pixels in
                for row in stride(from: y0, to: y1, by: rowStep) {
                    let base = row * frame.width
                    let half = row < middle ? 0 : Self.binCount
                    for column in stride(from: x0, to: x1, by: columnStep) {
                        let difference = chroma.difference(atFrameX: column, y: row)
                        let bin =
                            (Int(pixels[base + column]) * Self.greySteps / 256) * 16
                            + Self.colourStep(difference.blue) * 4
                            + Self.colourStep(difference.red)
                        counts[half + bin] += 1
                    }
                }
            }
            return (
                upper: SIMD64(counts[0..<Self.binCount]),
                lower: SIMD64(counts[Self.binCount...])
            )
        }
        upper = counts.upper / counts.upper.sum()
        lower = counts.lower / counts.lower.sum()
    }

    /// The step (0...3) of a blue or red difference (−128...127).
    @inline(__always)
    private static func colourStep(_ difference: Int) -> Int {
        min(colourSteps - 1, max(0, difference / colourStepWidth + (difference < 0 ? 1 : 2)))
    }

    /// How different two histograms are, 0...1: 1 − the Bhattacharyya coefficient (the
    /// squared Hellinger distance) of each half, averaged.
    public func distance(to other: ColourHistogram) -> Double {
        let upperOverlap = (upper * other.upper).squareRoot().sum()
        let lowerOverlap = (lower * other.lower).squareRoot().sum()
        return Double(max(0, 1 - (upperOverlap + lowerOverlap) / 2))
    }

    /// This histogram moved toward `other` by `weight` (0...1); the shares still sum to 1.
    public func blended(toward other: ColourHistogram, weight: Double) -> ColourHistogram {
        var result = self
        let weight = Float(weight)
        result.upper += (other.upper - upper) * weight
        result.lower += (other.lower - lower) * weight
        return result
    }
}
