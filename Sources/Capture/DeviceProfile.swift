import Files
import Storage

/// What a machine's imaging pipeline can move: the budgets the hardware-cost model divides
/// by, the per-output overheads, and the camera formats its typical sensors offer.
///
/// Every number is an average the pipeline can sustain, not a peak; ``sources`` says where each
/// one comes from or marks it as an estimate.
public struct DeviceProfile: Hashable, Codable, Sendable {
    /// The profile's name, as sessions and `--profile` refer to it.
    public var name: String
    /// One line saying what machine this is.
    public var summary: String
    /// Pixels per second the imaging pipeline (ISP or CPU conversion) sustains.
    public var pixelRate: Double
    /// Bytes per second of memory traffic the camera pipeline can use.
    public var memoryBandwidth: Double
    /// How many cameras can run at once (CSI ports, or USB bandwidth reservations).
    public var cameraPorts: Int
    /// The share of the pixel budget each running camera costs regardless of its format
    /// (sensor control, statistics, 3A), from 0 to 1.
    public var perCameraOverhead: Double
    /// Bytes per raw photosite the sensor writes to memory before processing (10-bit packed: 1.25).
    public var rawBytesPerPixel: Double
    /// Raw readout relative to output size for a binned mode (below 1: fewer conversions).
    public var binnedReadoutFactor: Double
    /// Raw readout relative to output size for a full-sensor mode scaled down (at least 1).
    public var fullSensorReadoutFactor: Double
    /// Full-frame equivalents of work each output adds per frame.
    public var outputWeights: OutputWeights
    /// The sensors a machine of this kind typically carries, with their formats.
    public var sensors: [SensorModes]
    /// Where each number comes from, keyed by field name; "estimate" where it is one.
    public var sources: [String: String]
    /// The pro video storage reserve's sustained write rate, measured by `headroom calibrate`
    /// (writes past the page cache, as recordings into the reserve make them, long enough to
    /// pass the disk's caches); `nil` when never measured: movie outputs are then not priced
    /// against the disk.
    public var storageWriteRate: DataRate?
    /// The share of the budget each frame a `videoData` consumer takes costs whatever its
    /// size, for a frame rate of one a second (a detector whose input is fixed, such as the
    /// neural person detector's network: its work is per frame, not per pixel), measured by
    /// `headroom calibrate --detector person-ssd`; `nil` when the consumer's work follows the
    /// pixels (its `outputWeights.videoData` prices it).
    public var videoDataFrameShare: Double?
    /// What each rung of the calibrated detector's inference ladder costs a frame here,
    /// measured by `headroom calibrate`; the governor then sheds by measured cost
    /// (``measuredCosts(of:)``), not by the ladder's assumed one. `nil` when never measured.
    public var rungCosts: [RungCost]?

    /// The share of ``storageWriteRate`` recordings are priced against: the rest is left to
    /// the disk's other writers and to its variation, so that a recording admitted at its
    /// budget drops no frame (docs/recording.md).
    public static let recordingWriteShare = 0.8

    /// What the estimator prices movie outputs against: ``storageWriteRate`` ×
    /// ``recordingWriteShare``; `nil` when the rate was never measured.
    public var recordingWriteBudget: DataRate? {
        storageWriteRate.map {
            DataRate(bytesPerSecond: $0.bytesPerSecond * Self.recordingWriteShare)
        }
    }

    /// Creates a profile; see each property for units.
    public init(
        name: String, summary: String, pixelRate: Double, memoryBandwidth: Double, cameraPorts: Int,
        perCameraOverhead: Double, rawBytesPerPixel: Double, binnedReadoutFactor: Double,
        fullSensorReadoutFactor: Double, outputWeights: OutputWeights, sensors: [SensorModes],
        sources: [String: String], storageWriteRate: DataRate? = nil,
        videoDataFrameShare: Double? = nil, rungCosts: [RungCost]? = nil
    ) {
        self.name = name
        self.summary = summary
        self.pixelRate = pixelRate
        self.memoryBandwidth = memoryBandwidth
        self.cameraPorts = cameraPorts
        self.perCameraOverhead = perCameraOverhead
        self.rawBytesPerPixel = rawBytesPerPixel
        self.binnedReadoutFactor = binnedReadoutFactor
        self.fullSensorReadoutFactor = fullSensorReadoutFactor
        self.outputWeights = outputWeights
        self.sensors = sensors
        self.sources = sources
        self.storageWriteRate = storageWriteRate
        self.videoDataFrameShare = videoDataFrameShare
        self.rungCosts = rungCosts
    }

    /// The sensor a camera is: the one it names, else the first whose formats include its
    /// format, else `nil`.
    public func sensor(for camera: CameraConfiguration) -> SensorModes? {
        if let name = camera.sensor { return sensors.first { $0.name == name } }
        return sensors.first { $0.formats.contains(camera.format) }
    }

    /// The formats the planner may switch `camera` to: its sensor's formats, or, when the
    /// camera's format is not one a profile sensor offers, every format of every sensor.
    /// A camera naming a sensor the profile does not have gets none.
    public func candidateFormats(for camera: CameraConfiguration) -> [CameraFormat] {
        if let sensor = sensor(for: camera) { return sensor.formats }
        return camera.sensor == nil ? sensors.flatMap(\.formats) : []
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, summary, pixelRate, memoryBandwidth, cameraPorts, perCameraOverhead
        case rawBytesPerPixel, binnedReadoutFactor, fullSensorReadoutFactor, outputWeights
        case sensors, sources, storageWriteRate, videoDataFrameShare, rungCosts
    }

    /// Decodes and validates a profile: positive budgets, factors in their ranges.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
        pixelRate = try container.decode(Double.self, forKey: .pixelRate)
        memoryBandwidth = try container.decode(Double.self, forKey: .memoryBandwidth)
        cameraPorts = try container.decode(Int.self, forKey: .cameraPorts)
        perCameraOverhead =
            try container.decodeIfPresent(Double.self, forKey: .perCameraOverhead) ?? 0
        rawBytesPerPixel =
            try container.decodeIfPresent(Double.self, forKey: .rawBytesPerPixel) ?? 1.25
        binnedReadoutFactor =
            try container.decodeIfPresent(Double.self, forKey: .binnedReadoutFactor) ?? 0.6
        fullSensorReadoutFactor =
            try container.decodeIfPresent(Double.self, forKey: .fullSensorReadoutFactor) ?? 1.5
        outputWeights =
            try container.decodeIfPresent(OutputWeights.self, forKey: .outputWeights) ?? .init()
        sensors = try container.decodeIfPresent([SensorModes].self, forKey: .sensors) ?? []
        sources = try container.decodeIfPresent([String: String].self, forKey: .sources) ?? [:]
        storageWriteRate = try container.decodeIfPresent(DataRate.self, forKey: .storageWriteRate)
        videoDataFrameShare =
            try container.decodeIfPresent(Double.self, forKey: .videoDataFrameShare)
        rungCosts = try container.decodeIfPresent([RungCost].self, forKey: .rungCosts)

        guard !name.isEmpty else {
            throw decoder.invalidValue(CodingKeys.name, "expected a non-empty name")
        }
        // Every number is bounded to what real hardware can be, so that no cost, share or
        // printed figure derived from a profile can overflow.
        var bounded: [(CodingKeys, Double, ClosedRange<Double>, String)] = [
            (.pixelRate, pixelRate, 1e3...1e13, "1e3 to 1e13 pixels per second"),
            (.memoryBandwidth, memoryBandwidth, 1e3...1e14, "1e3 to 1e14 bytes per second"),
            (.rawBytesPerPixel, rawBytesPerPixel, 0.01...16, "0.01 to 16 bytes per pixel"),
            (
                .fullSensorReadoutFactor, fullSensorReadoutFactor, 1.0.nextUp...100,
                "a factor above 1 and at most 100"
            ),
        ]
        if let rate = storageWriteRate?.bytesPerSecond {
            bounded.append(
                (.storageWriteRate, rate, 1e3...1e12, "1e3 to 1e12 bytes per second"))
        }
        for (key, value, range, expected) in bounded where !range.contains(value) {
            throw decoder.invalidValue(key, "expected \(expected), got \(value)")
        }
        guard (1...64).contains(cameraPorts) else {
            throw decoder.invalidValue(
                CodingKeys.cameraPorts, "expected 1 to 64 camera ports, got \(cameraPorts)")
        }
        guard perCameraOverhead >= 0, perCameraOverhead < 1 else {
            throw decoder.invalidValue(
                CodingKeys.perCameraOverhead,
                "expected a share from 0 up to (not including) 1, got \(perCameraOverhead)")
        }
        if let share = videoDataFrameShare, !(share >= 0 && share < 1) {
            throw decoder.invalidValue(
                CodingKeys.videoDataFrameShare,
                "expected a share from 0 up to (not including) 1, got \(share)")
        }
        guard binnedReadoutFactor > 0, binnedReadoutFactor < 1 else {
            throw decoder.invalidValue(
                CodingKeys.binnedReadoutFactor,
                "expected a factor above 0 and below 1, got \(binnedReadoutFactor)")
        }
    }

    /// Parses and validates profile JSON; errors name `file` and the field path.
    public static func decode(_ data: some Sequence<UInt8>, file: String? = nil)
        throws(ConfigurationError)
        -> DeviceProfile
    {
        try decodeStrictly(DeviceProfile.self, from: data, file: file)
    }
}

/// Full-frame equivalents of work an output adds for each frame of its camera: a `videoData`
/// consumer converts every frame (1), a preview scales it to display size (about 0.25).
public struct OutputWeights: Hashable, Codable, Sendable {
    /// Work of an on-screen preview.
    public var preview: Double
    /// Work of a full-rate frame consumer.
    public var videoData: Double
    /// Idle work of a photo output (a ready high-resolution path).
    public var photo: Double
    /// Work of a recording, including the encoder (large where encoding runs on the CPU).
    public var movie: Double

    /// Creates weights; the defaults suit a machine with a hardware encoder.
    public init(
        preview: Double = 0.25, videoData: Double = 1, photo: Double = 0.1, movie: Double = 1.5
    ) {
        self.preview = preview
        self.videoData = videoData
        self.photo = photo
        self.movie = movie
    }

    /// The weight of one output of `kind`.
    public subscript(kind: OutputKind) -> Double {
        switch kind {
        case .preview: preview
        case .videoData: videoData
        case .photo: photo
        case .movie: movie
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case preview, videoData, photo, movie
    }

    /// The largest weight accepted: an output a thousand times the cost of a video stream
    /// is beyond any real one.
    public static let maximumWeight = 1000.0

    /// Decodes weights, each above 0 and at most ``maximumWeight``; a missing one keeps its
    /// default.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = OutputWeights()
        preview = try container.decodeIfPresent(Double.self, forKey: .preview) ?? defaults.preview
        videoData =
            try container.decodeIfPresent(Double.self, forKey: .videoData) ?? defaults.videoData
        photo = try container.decodeIfPresent(Double.self, forKey: .photo) ?? defaults.photo
        movie = try container.decodeIfPresent(Double.self, forKey: .movie) ?? defaults.movie
        let weights: [(CodingKeys, Double)] = [
            (.preview, preview), (.videoData, videoData), (.photo, photo), (.movie, movie),
        ]
        for (key, weight) in weights where !(weight > 0 && weight <= Self.maximumWeight) {
            throw decoder.invalidValue(
                key,
                "expected a weight above 0 and at most \(Int(Self.maximumWeight)), got \(weight)")
        }
    }
}

/// A sensor model and the formats it offers: what the planner may switch a camera between.
public struct SensorModes: Hashable, Codable, Sendable {
    /// The sensor's name (`imx708`).
    public var name: String
    /// Its formats, any order.
    public var formats: [CameraFormat]

    /// Creates a sensor with its formats.
    public init(name: String, formats: [CameraFormat]) {
        self.name = name
        self.formats = formats
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, formats
    }

    /// Decodes a sensor, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        formats = try container.decode([CameraFormat].self, forKey: .formats)
    }
}
