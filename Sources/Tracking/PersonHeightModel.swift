/// How tall a person stands at each row of a fixed camera's view, learned from the people it
/// has found: for a camera looking down on a floor, a person's height in the image grows
/// (close to linearly) with the row their feet are on, so a least-squares line through the
/// (foot row, height) of recent sure boxes predicts the height of a person not yet found —
/// someone far away, seen only as motion. Frigate learns the same per camera (a grid of the
/// region sizes its objects needed).
///
/// It predicts only once it has seen ``minimumSamples`` boxes whose feet spread over at
/// least ``minimumSpread`` of the frame's height (else every row would get one person's
/// height), and keeps the latest ``capacity`` of them, so it follows a camera that moved.
public struct PersonHeightModel: Sendable {
    /// The boxes kept: the latest this many.
    public static let capacity = 256
    /// Boxes needed before the model predicts.
    public static let minimumSamples = 16
    /// The least spread of the kept boxes' foot rows, as a share of the frame's height.
    public static let minimumSpread = 0.1

    /// (foot row, height) in pixels, a ring of at most ``capacity``.
    private var samples: [(footRow: Double, height: Double)] = []
    private var next = 0
    /// The fitted line, height = slope × foot row + intercept; nil until it can predict.
    private var line: (slope: Double, intercept: Double)?
    /// Samples added since the line was last fitted.
    private var sinceFit = 0

    /// A model that has seen nobody.
    public init() {}

    /// Learns from a person found at `box` (pixels) in a frame `frameHeight` pixels tall.
    public mutating func learn(_ box: BoundingBox, frameHeight: Double) {
        let sample = (footRow: box.maxY, height: box.height)
        if samples.count < Self.capacity {
            samples.append(sample)
        } else {
            samples[next] = sample
        }
        next = (next + 1) % Self.capacity
        sinceFit += 1
        // Refitted every few boxes: the line moves slowly, and a fit is a pass over the ring.
        if line == nil || sinceFit >= 8 { fit(frameHeight: frameHeight) }
    }

    /// The height of a person whose feet are on `footRow`; nil until the model can predict.
    public func height(atFootRow footRow: Double) -> Double? {
        line.map { $0.slope * footRow + $0.intercept }
    }

    private mutating func fit(frameHeight: Double) {
        sinceFit = 0
        guard samples.count >= Self.minimumSamples else { return }
        let count = Double(samples.count)
        let meanRow = samples.reduce(0) { $0 + $1.footRow } / count
        let meanHeight = samples.reduce(0) { $0 + $1.height } / count
        var covariance = 0.0
        var variance = 0.0
        var lowest = Double.infinity
        var highest = -Double.infinity
        for sample in samples {
            covariance += (sample.footRow - meanRow) * (sample.height - meanHeight)
            variance += (sample.footRow - meanRow) * (sample.footRow - meanRow)
            lowest = min(lowest, sample.footRow)
            highest = max(highest, sample.footRow)
        }
        guard highest - lowest >= Self.minimumSpread * frameHeight, variance > 0 else {
            line = nil
            return
        }
        let slope = covariance / variance
        line = (slope, meanHeight - slope * meanRow)
    }
}
