/// Tracking quality against inference load: one row per (frame rate, inference stride,
/// detector scale), measured on the synthetic scene. The governor reads it to know what a
/// lower stride or scale costs in identity keeping (IDF1), accuracy (MOTA) and framing.
public struct QualityTable: Sendable, Hashable, Codable {
    /// One measured setting.
    public struct Row: Sendable, Hashable, Codable {
        /// Frames per second of the pipeline.
        public var framesPerSecond: Double
        /// The detector runs on every `stride`-th frame, ≥ 1.
        public var stride: Int
        /// The detector's scale, (0, 1].
        public var scale: Double
        /// Identity F1, 0...1.
        public var idf1: Double
        /// Multiple-object tracking accuracy, ≤ 1.
        public var mota: Double
        /// Identity switches, summed over the seeds.
        public var idsw: Int
        /// The mean framing error of the primary subject's true position, in picture units.
        public var framingError: Double
        /// The fraction of frames in which the subject's true centre is within 0.1 of the
        /// target, 0...1.
        public var framedFraction: Double
        /// Detector runs per second (framesPerSecond / stride): the inference load.
        public var inferencesPerSecond: Double { framesPerSecond / Double(stride) }

        /// Creates a row.
        public init(
            framesPerSecond: Double, stride: Int, scale: Double, idf1: Double, mota: Double = 0,
            idsw: Int = 0,
            framingError: Double = 0, framedFraction: Double = 0
        ) {
            self.framesPerSecond = framesPerSecond
            self.stride = stride
            self.scale = scale
            self.idf1 = idf1
            self.mota = mota
            self.idsw = idsw
            self.framingError = framingError
            self.framedFraction = framedFraction
        }
    }

    /// The rows, in the order they were measured.
    public var rows: [Row]
    /// Seconds of scene each setting ran for, per seed.
    public var secondsPerRun: Double
    /// The scene seeds each setting ran with; rows are means over them (IDSW the sum).
    public var seeds: [UInt64]

    /// Creates a table; `secondsPerRun` and `seeds` record how it was measured (0 and none
    /// when unknown).
    public init(rows: [Row], secondsPerRun: Double = 0, seeds: [UInt64] = []) {
        self.rows = rows
        self.secondsPerRun = secondsPerRun
        self.seeds = seeds
    }

    private enum CodingKeys: String, CodingKey {
        case rows, secondsPerRun, seeds
    }

    /// Decodes a table; tables written before `secondsPerRun` and `seeds` existed still load.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rows = try container.decode([Row].self, forKey: .rows)
        secondsPerRun = try container.decodeIfPresent(Double.self, forKey: .secondsPerRun) ?? 0
        seeds = try container.decodeIfPresent([UInt64].self, forKey: .seeds) ?? []
    }

    /// The row for a setting, if it was measured.
    public func row(framesPerSecond: Double, stride: Int, scale: Double) -> Row? {
        rows.first {
            abs($0.framesPerSecond - framesPerSecond) < 1e-9 && $0.stride == stride
                && abs($0.scale - scale) < 1e-9
        }
    }

    /// A Markdown table, one line per row.
    public var markdown: String {
        var text =
            "| fps | stride | scale | inferences/s | IDF1 | MOTA | IDSW | framing error | framed |\n"
        text += "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for row in rows {
            text += "| \(fixed(row.framesPerSecond, 0)) | \(row.stride) | \(fixed(row.scale, 2)) "
            text += "| \(fixed(row.inferencesPerSecond, 1)) | \(fixed(row.idf1, 3)) "
            text += "| \(fixed(row.mota, 3)) | \(row.idsw) | \(fixed(row.framingError, 3)) "
            text += "| \(fixed(row.framedFraction, 3)) |\n"
        }
        return text
    }
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return String(value) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let whole = Int(rounded / scale)
    let fraction = Int(rounded) - whole * Int(scale)
    let sign = value < 0 && rounded > 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let digitsText = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: digits - digitsText.count)
        + digitsText
}
