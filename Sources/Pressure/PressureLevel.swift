/// How much pressure the system is under, from `nominal` to `shutdown` (0–4 in metrics).
public enum PressureLevel: Int, Hashable, Comparable, Sendable, Codable, CaseIterable,
    CustomStringConvertible
{
    /// Cool; no action needed.
    case nominal = 0
    /// Warm; work may continue, consider lighter settings.
    case fair = 1
    /// Hot; reduce work (the high limit is reached).
    case serious = 2
    /// Near the critical limit; minimum work only.
    case critical = 3
    /// At the critical limit; stop.
    case shutdown = 4

    /// Orders levels from nominal to shutdown.
    public static func < (lhs: PressureLevel, rhs: PressureLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The level's name, such as `serious`.
    public var name: String {
        switch self {
        case .nominal: "nominal"
        case .fair: "fair"
        case .serious: "serious"
        case .critical: "critical"
        case .shutdown: "shutdown"
        }
    }

    /// The level's name.
    public var description: String { name }

    /// Decodes the level's name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let level = Self.allCases.first(where: { $0.name == name }) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "expected nominal, fair, serious, critical or shutdown, got \(name)")
        }
        self = level
    }

    /// Encodes the level's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
