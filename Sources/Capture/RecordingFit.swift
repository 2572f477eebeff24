import Storage

/// Whether a session's recordings fit the space they go to: the movie outputs' data rate
/// (Y4M at each camera's frame rate) against the capacity left, for how long — what
/// `estimate --duration` answers before a recording is committed.
public struct RecordingFit: Codable, Equatable, Sendable {
    /// What the movie outputs write together.
    public var dataRate: DataRate
    /// The space they write into: the reserve's remaining capacity, or a filesystem's free
    /// space for outputs that do not use the reserve.
    public var remainingBytes: ByteCount
    /// Whether that space is the pro video storage reserve.
    public var usesProVideoStorage: Bool
    /// How long the recordings can run before the space is full, seconds.
    public var fitsSeconds: Double
    /// The duration asked about, seconds.
    public var durationSeconds: Double
    /// The bytes that duration needs.
    public var neededBytes: ByteCount
    /// Whether the duration fits.
    public var fits: Bool

    /// The fit of `configuration`'s movie outputs for `duration` seconds in `remaining` bytes;
    /// `nil` when the session has no movie output.
    public init?(
        configuration: SessionConfiguration, duration: Double, remaining: ByteCount,
        usesProVideoStorage: Bool
    ) {
        let rates = configuration.outputs.filter { $0.kind == .movie }.compactMap { output in
            (output.camera.flatMap { id in configuration.cameras.first { $0.id == id } }
                ?? configuration.cameras.first)
                .map { MovieFormat(camera: $0).dataRate.bytesPerSecond }
        }
        guard !rates.isEmpty else { return nil }
        dataRate = DataRate(bytesPerSecond: rates.reduce(0, +))
        remainingBytes = remaining
        self.usesProVideoStorage = usesProVideoStorage
        fitsSeconds = dataRate.seconds(toWrite: remaining)
        durationSeconds = duration
        neededBytes = ByteCount(saturating: dataRate.bytesPerSecond * duration)
        fits = neededBytes <= remaining
    }
}
