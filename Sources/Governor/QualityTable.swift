/// Tracking quality measured for each inference setting at each frame rate: what the governor
/// consults to lighten inference without losing more quality than a level allows.
///
/// Rows come from the tracking pipeline's evaluation on the synthetic scene (module `Tracking`
/// generates them; `headroom track --quality-table` prints them).
public struct QualityTable: Hashable, Sendable, Codable {
    /// One measured setting.
    public struct Row: Hashable, Sendable, Codable {
        /// Frame rate the scene was captured at, frames per second.
        public var frameRate: Double
        /// The inference setting evaluated.
        public var inference: InferenceSetting
        /// Identity F1 (0…1) of the tracks against ground truth.
        public var idf1: Double

        /// Creates a row.
        public init(frameRate: Double, inference: InferenceSetting, idf1: Double) {
            self.frameRate = frameRate
            self.inference = inference
            self.idf1 = idf1
        }
    }

    /// The measured rows.
    public var rows: [Row]

    /// A table of `rows`.
    public init(rows: [Row]) {
        self.rows = rows
    }

    /// The cheapest inference setting whose quality at `frameRate` (the nearest measured frame
    /// rate) is within `allowedLoss` (absolute IDF1) of the best there; ties go to the better
    /// quality. `nil` when the table is empty.
    public func cheapestSetting(at frameRate: Double, allowedLoss: Double) -> InferenceSetting? {
        guard
            let nearest = rows.min(by: {
                abs($0.frameRate - frameRate) < abs($1.frameRate - frameRate)
            })
        else { return nil }
        let candidates = rows.filter { $0.frameRate == nearest.frameRate }
        guard let best = candidates.map(\.idf1).max() else { return nil }
        return candidates.filter { $0.idf1 >= best - allowedLoss }
            .min { ($0.inference.relativeCost, -$0.idf1) < ($1.inference.relativeCost, -$1.idf1) }?
            .inference
    }

    /// The lightest inference setting in the table.
    public var lightestSetting: InferenceSetting? {
        rows.map(\.inference).min { $0.relativeCost < $1.relativeCost }
    }
}
