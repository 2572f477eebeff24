import Units

/// Tracking quality against inference load: one row per (frame rate, inference stride,
/// detector scale), measured on the synthetic scene. The governor reads it to know what a
/// lower stride or scale costs in identity keeping (IDF1), accuracy (MOTA) and framing.
public struct QualityTable: Sendable, Hashable, Codable {
    /// One measured setting.
    public struct Row: Sendable, Hashable, Codable {
        /// The pipeline's frame rate.
        public var frameRate: FrameRate
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
        /// The share of frames in which the subject's true centre is within 0.1 of the target.
        public var framedFraction: Share
        /// Detector runs per second (the frame rate over the stride): the inference load.
        public var inferencesPerSecond: Double { frameRate.framesPerSecond / Double(stride) }

        /// Creates a row.
        public init(
            frameRate: FrameRate, stride: Int, scale: Double, idf1: Double, mota: Double = 0,
            idsw: Int = 0,
            framingError: Double = 0, framedFraction: Share = 0
        ) {
            self.frameRate = frameRate
            self.stride = stride
            self.scale = scale
            self.idf1 = idf1
            self.mota = mota
            self.idsw = idsw
            self.framingError = framingError
            self.framedFraction = framedFraction
        }

        private enum CodingKeys: String, CodingKey {
            case frameRate = "framesPerSecond"
            case stride, scale, idf1, mota, idsw, framingError, framedFraction
        }
    }

    /// The rows, in the order they were measured.
    public var rows: [Row]
    /// How long each setting ran on the scene, per seed.
    public var runDuration: Duration
    /// The scene seeds each setting ran with; rows are means over them (IDSW the sum).
    public var seeds: [UInt64]

    /// Creates a table; `runDuration` and `seeds` record how it was measured (zero and none
    /// when unknown).
    public init(rows: [Row], runDuration: Duration = .zero, seeds: [UInt64] = []) {
        self.rows = rows
        self.runDuration = runDuration
        self.seeds = seeds
    }

    private enum CodingKeys: String, CodingKey {
        case rows, seeds
        case runDuration = "secondsPerRun"
    }

    /// Decodes a table; tables written before `secondsPerRun` and `seeds` existed still load.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rows = try container.decode([Row].self, forKey: .rows)
        runDuration =
            try container.decodeIfPresent(SecondsCoded.self, forKey: .runDuration)?.wrappedValue
            ?? .zero
        seeds = try container.decodeIfPresent([UInt64].self, forKey: .seeds) ?? []
    }

    /// Encodes the table; the run's duration as seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(SecondsCoded(wrappedValue: runDuration), forKey: .runDuration)
        try container.encode(seeds, forKey: .seeds)
    }

    /// The row for a setting, if it was measured.
    public func row(frameRate: FrameRate, stride: Int, scale: Double) -> Row? {
        rows.first {
            abs($0.frameRate.framesPerSecond - frameRate.framesPerSecond) < 1e-9
                && $0.stride == stride
                && abs($0.scale - scale) < 1e-9
        }
    }

    /// A Markdown table, one line per row.
    public var markdown: String {
        var text =
            "| fps | stride | scale | inferences/s | IDF1 | MOTA | IDSW | framing error | framed |\n"
        text += "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for row in rows {
            text +=
                "| \(fixed(row.frameRate.framesPerSecond, 0)) | \(row.stride) | \(fixed(row.scale, 2)) "
            text += "| \(fixed(row.inferencesPerSecond, 1)) | \(fixed(row.idf1, 3)) "
            text += "| \(fixed(row.mota, 3)) | \(row.idsw) | \(fixed(row.framingError, 3)) "
            text += "| \(fixed(row.framedFraction.fraction, 3)) |\n"
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
