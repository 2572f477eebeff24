import Files
import Units

/// What one rung of a detector's inference ladder costs on this host: the CPU time of a frame
/// at that setting (a strided rung's frames averaged), measured by `headroom calibrate`.
public struct RungCost: Hashable, Sendable, Codable {
    /// The rung.
    public var setting: InferenceSetting
    /// CPU milliseconds a frame, every thread's.
    public var cpuMillisecondsPerFrame: Double

    /// A rung's measured cost.
    public init(setting: InferenceSetting, cpuMillisecondsPerFrame: Double) {
        self.setting = setting
        self.cpuMillisecondsPerFrame = cpuMillisecondsPerFrame
    }

    /// The CPU time a frame that the checks allow: a measured frame costs something, and no
    /// frame costs a minute.
    public static let plausibleMilliseconds = 0.0001...60_000.0

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case setting, cpuMillisecondsPerFrame
    }

    /// Decodes a cost strictly: a valid setting and a CPU time within
    /// ``plausibleMilliseconds``; the error names the field.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        setting = try container.decode(InferenceSetting.self, forKey: .setting)
        cpuMillisecondsPerFrame = try container.decode(
            Double.self, forKey: .cpuMillisecondsPerFrame)
        guard Self.plausibleMilliseconds.contains(cpuMillisecondsPerFrame) else {
            throw decoder.invalidValue(
                CodingKeys.cpuMillisecondsPerFrame,
                "expected CPU milliseconds from \(Self.plausibleMilliseconds.lowerBound) to \(Self.plausibleMilliseconds.upperBound), got \(cpuMillisecondsPerFrame)"
            )
        }
    }
}

extension DeviceProfile {
    /// Each rung of `ladder` priced by what it was measured to cost here, relative to the first
    /// (the heaviest, 1); nil unless every rung was measured (``rungCosts``).
    public func measuredCosts(of ladder: [InferenceSetting]) -> [Double]? {
        guard let rungCosts, let first = ladder.first else { return nil }
        var costs: [InferenceSetting: Double] = [:]
        for cost in rungCosts { costs[cost.setting] = cost.cpuMillisecondsPerFrame }
        guard let top = costs[first] else { return nil }
        let measured = ladder.compactMap { costs[$0].map { $0 / top } }
        return measured.count == ladder.count ? measured : nil
    }
}
