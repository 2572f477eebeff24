import Files

/// What Headroom reads from one `frigate/stats` payload: frames processed and skipped per
/// second over every camera (`process_fps`, `skipped_fps`), and the detectors' inference time
/// (`inference_speed`, milliseconds). Cameras are under `cameras` (Frigate 0.14 and later) or
/// at the top level (earlier versions), each an object with `camera_fps`.
public struct FrigateStats: Equatable, Sendable {
    /// The largest stats payload read (Frigate's are a few kilobytes for dozens of cameras):
    /// anything larger on the topic is not Frigate's and is not parsed.
    static let largestPayload = 1 << 20

    /// Frames the cameras' detection processed per second, summed.
    public var processedPerSecond: Double
    /// Frames skipped per second (detection could not keep up), summed.
    public var skippedPerSecond: Double
    /// The median and the slowest detector's inference time, seconds.
    public var inferenceSeconds: (p50: Double, p95: Double)

    /// Equal when every figure is.
    public static func == (lhs: FrigateStats, rhs: FrigateStats) -> Bool {
        lhs.processedPerSecond == rhs.processedPerSecond
            && lhs.skippedPerSecond == rhs.skippedPerSecond
            && lhs.inferenceSeconds == rhs.inferenceSeconds
    }

    /// The frame rates a camera's stats may give; others are left out.
    static let framesPerSecond = 0.0...1000
    /// The inference times a detector's stats may give, milliseconds; others are left out.
    static let inferenceMilliseconds = 0.001...60_000

    /// The stats in `json`; nil when it is not a stats object with at least one camera and one
    /// detector.
    public init?(json: [UInt8]) {
        guard let root = try? JSONParser.parse(json), let members = root.members else {
            return nil
        }
        let cameraTable = root["cameras"]?.members ?? members
        let cameras = cameraTable.map(\.value).filter { $0["camera_fps"] != nil }
        let speeds = (root["detectors"]?.members ?? [])
            .compactMap { $0.value["inference_speed"]?.number }
            .filter { Self.inferenceMilliseconds.contains($0) }.sorted()
        guard !cameras.isEmpty, !speeds.isEmpty else { return nil }
        // Values no camera or detector has (a payload that lies) are left out, so nothing
        // derived from them can overflow.
        func sum(_ key: String) -> Double {
            cameras.compactMap { $0[key]?.number }.filter { Self.framesPerSecond.contains($0) }
                .reduce(0, +)
        }
        processedPerSecond = sum("process_fps")
        skippedPerSecond = sum("skipped_fps")
        inferenceSeconds = (speeds[speeds.count / 2] / 1000, speeds.last! / 1000)
    }
}
