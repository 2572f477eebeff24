import Files
import Units

/// The share of a device's budget that can be sustained at the current thermal headroom:
/// 1.0 while cool, shrinking linearly as headroom rises past ``fullUntil``, to
/// ``atSerious`` at headroom 1 (the serious threshold), never below ``minimum``.
///
/// The Governor divides a configuration's hardware cost by this share to get its *system
/// pressure cost*; `Pressure` itself knows nothing of cameras.
public struct SustainableBudget: Hashable, Sendable, Codable {
    /// Headroom up to which the whole budget is sustainable, 0…1.
    public var fullUntil = 0.75
    /// The share sustainable at headroom 1.0, 0…1.
    public var atSerious = 0.5
    /// The smallest share ever reported, 0…1.
    public var minimum = 0.1

    /// The defaults.
    public init() {}

    /// A budget curve with the given points.
    public init(fullUntil: Double, atSerious: Double, minimum: Double) {
        self.fullUntil = fullUntil
        self.atSerious = atSerious
        self.minimum = minimum
    }

    /// The sustainable share for `headroom` (NaN when unknown) at `level`.
    ///
    /// Without a headroom (no thermal sensors) the level alone decides: 1 nominal, 0.85 fair,
    /// 0.6 serious, 0.3 critical, 0 shutdown; with one, the smaller of both applies.
    public func share(headroom: Double, level: PressureLevel) -> Share {
        let byLevel: Double =
            switch level {
            case .nominal: 1
            case .fair: 0.85
            case .serious: 0.6
            case .critical: 0.3
            case .shutdown: 0
            }
        guard headroom.isFinite else { return Share(fraction: byLevel) }
        let slope = (1 - atSerious) / max(1 - fullUntil, 1e-9)
        let byHeadroom = max(minimum, min(1, 1 - (headroom - fullUntil) * slope))
        return Share(fraction: level == .shutdown ? 0 : min(byLevel, byHeadroom))
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case fullUntil, atSerious, minimum
    }

    /// Decodes the curve; missing keys keep their defaults, points must be within 0…1 and
    /// `minimum ≤ atSerious`.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for key in CodingKeys.allCases {
            guard let value = try container.decodeIfPresent(Double.self, forKey: key) else {
                continue
            }
            guard (0...1).contains(value) else {
                throw decoder.invalidValue(key, "expected a number in 0…1, got \(value)")
            }
            switch key {
            case .fullUntil: fullUntil = value
            case .atSerious: atSerious = value
            case .minimum: minimum = value
            }
        }
        guard minimum <= atSerious else {
            throw decoder.invalidValue(
                CodingKeys.minimum, "expected at most atSerious (\(atSerious)), got \(minimum)")
        }
        guard fullUntil < 1 else {
            throw decoder.invalidValue(
                CodingKeys.fullUntil, "expected less than 1, got \(fullUntil)")
        }
    }
}
