/// A number of bytes: a reserve's capacity, a recording's length, a data rate's numerator.
///
/// Sizes are written the way `fallocate -l` and `truncate -s` read them: a number, possibly
/// with a fraction, then an optional unit. `K`, `M`, `G`, `T` and `KiB` … `TiB` are powers of
/// 1024; `KB` … `TB` are powers of 1000; `B` or nothing is bytes. Units are case-insensitive.
public struct ByteCount: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The count.
    public var bytes: Int64

    /// `bytes` bytes.
    public init(_ bytes: Int64) { self.bytes = bytes }

    /// `bytes` rounded up to whole bytes, held at the largest count a file can have: a data
    /// rate times a year of seconds may overflow 64 bits, and is then simply "more than any
    /// disk". Not-a-number and negative amounts count as zero.
    public init(saturating bytes: Double) {
        let rounded = bytes.rounded(.up)
        self.bytes =
            rounded.isNaN || rounded <= 0 ? 0 : rounded >= Double(Int64.max) ? .max : Int64(rounded)
    }

    /// `count` mebibytes (2²⁰ bytes).
    public static func mebibytes(_ count: Int64) -> ByteCount { ByteCount(count << 20) }

    /// `count` gibibytes (2³⁰ bytes).
    public static func gibibytes(_ count: Int64) -> ByteCount { ByteCount(count << 30) }

    /// No bytes.
    public static let zero = ByteCount(0)

    /// The units a size may carry, with their multipliers.
    private static let units: [(names: [String], multiplier: Double)] = [
        (["", "b"], 1),
        (["k", "kib"], 1024), (["kb"], 1e3),
        (["m", "mib"], 1_048_576), (["mb"], 1e6),
        (["g", "gib"], 1_073_741_824), (["gb"], 1e9),
        (["t", "tib"], 1_099_511_627_776), (["tb"], 1e12),
    ]

    /// Parses a size such as `512M`, `4G`, `1.5GiB` or `1000000`, rounding to whole bytes.
    /// `nil` for anything else: no number, a negative or non-finite one, an unknown unit, or
    /// more bytes than a file can hold.
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace
        let numberEnd =
            trimmed.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? trimmed.endIndex
        let unit = trimmed[numberEnd...].trimmingWhitespace.lowercased()
        guard let number = Double(trimmed[..<numberEnd]), number.isFinite, number >= 0,
            let multiplier = Self.units.first(where: { $0.names.contains(unit) })?.multiplier
        else { return nil }
        let bytes = (number * multiplier).rounded()
        guard bytes < Double(Int64.max) else { return nil }
        self.bytes = Int64(bytes)
    }

    /// The count in the largest binary unit that keeps it at least 1: `1.5 GiB`, `512 MiB`,
    /// `0 B`; three significant figures at most.
    public var description: String {
        let names = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var value = Double(bytes)
        var index = 0
        while abs(value) >= 1024 && index < names.count - 1 {
            value /= 1024
            index += 1
        }
        if index == 0 { return "\(bytes) B" }
        let digits = abs(value) >= 100 ? 0 : abs(value) >= 10 ? 1 : 2
        return "\(trimmedDecimal(value, digits)) \(names[index])"
    }

    /// Orders by count.
    public static func < (lhs: ByteCount, rhs: ByteCount) -> Bool { lhs.bytes < rhs.bytes }

    /// The sum.
    public static func + (lhs: ByteCount, rhs: ByteCount) -> ByteCount {
        ByteCount(lhs.bytes + rhs.bytes)
    }

    /// The difference.
    public static func - (lhs: ByteCount, rhs: ByteCount) -> ByteCount {
        ByteCount(lhs.bytes - rhs.bytes)
    }

    /// Encodes as a bare number of bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes)
    }

    /// Decodes a bare number of bytes.
    public init(from decoder: any Decoder) throws {
        bytes = try decoder.singleValueContainer().decode(Int64.self)
    }
}

/// `value` with at most `digits` decimals and no trailing zeros: `1.5`, `512`, `0.25`.
func trimmedDecimal(_ value: Double, _ digits: Int) -> String {
    var scaled = (value * pow10(digits)).rounded() / pow10(digits)
    if scaled == -0 { scaled = 0 }
    var text = String(scaled)
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

private func pow10(_ digits: Int) -> Double {
    (0..<digits).reduce(1) { value, _ in value * 10 }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
