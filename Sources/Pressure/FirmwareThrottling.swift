import Files

/// A Raspberry Pi's firmware throttling word, as `vcgencmd get_throttled` prints it and the
/// kernel exposes it in `devices/platform/soc/soc:firmware/get_throttled` (hex).
///
/// Bits 0–3 say what is happening now, bits 16–19 the same conditions "has occurred since
/// boot". Under-voltage now raises the `powerSupply` factor; "has occurred" is reported only.
public struct FirmwareThrottling: Hashable, Sendable {
    /// One condition the firmware reports.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// The supply voltage is below 4.63 V (bit 0 / 16).
        case underVoltage = "under_voltage"
        /// The firmware capped the ARM frequency (bit 1 / 17).
        case armFrequencyCapped = "arm_frequency_capped"
        /// The firmware throttled the ARM (bit 2 / 18).
        case throttled
        /// The soft temperature limit is active (bit 3 / 19).
        case softTemperatureLimit = "soft_temperature_limit"

        /// The bit for "now"; the "has occurred" bit is 16 higher.
        public var bit: Int {
            switch self {
            case .underVoltage: 0
            case .armFrequencyCapped: 1
            case .throttled: 2
            case .softTemperatureLimit: 3
            }
        }

        /// Words a person reads: `under-voltage`.
        public var phrase: String {
            switch self {
            case .underVoltage: "under-voltage"
            case .armFrequencyCapped: "ARM frequency capped"
            case .throttled: "throttled"
            case .softTemperatureLimit: "soft temperature limit"
            }
        }
    }

    /// The raw word.
    public var word: UInt32

    /// The state the word `word` describes.
    public init(word: UInt32) {
        self.word = word
    }

    /// Parses the sysfs text: hexadecimal digits with an optional `0x` and trailing newline.
    ///
    /// - Throws: ``SensorFault/garbage(_:)`` for anything else.
    public init(parsing text: String) throws(SensorFault) {
        var text = text
        let word = text.withUTF8 { Self.word(in: $0) }
        guard let word else { throw .garbage(text) }
        self.word = word
    }

    /// Parses the attribute's bytes as ``init(parsing:)`` parses its text, without building a
    /// `String` (the sampler reads the word on every sample).
    ///
    /// - Throws: ``SensorFault/garbage(_:)`` for anything else.
    init(bytes: UnsafeBufferPointer<UInt8>) throws(SensorFault) {
        guard let word = Self.word(in: bytes) else {
            throw .garbage(String(decoding: bytes, as: UTF8.self))
        }
        self.word = word
    }

    /// `[white space][0x]1–8 hex digits[white space]` as a word; `nil` for anything else.
    private static func word(in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        func isSpace(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x09...0x0D, 0x20, 0x00: true
            default: false
            }
        }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        if end - start >= 2, bytes[start] == UInt8(ascii: "0"),
            bytes[start + 1] | 0x20 == UInt8(ascii: "x")
        {
            start += 2
        }
        guard (1...8).contains(end - start) else { return nil }
        var word: UInt32 = 0
        for byte in bytes[start..<end] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            word = word << 4 | UInt32(digit)
        }
        return word
    }

    /// Whether `reason` is happening now.
    public func isActive(_ reason: Reason) -> Bool { word & (1 << reason.bit) != 0 }

    /// Whether `reason` has happened since boot (now or earlier).
    public func hasOccurred(_ reason: Reason) -> Bool {
        word & (1 << (reason.bit + 16)) != 0 || isActive(reason)
    }

    /// The conditions happening now, in bit order.
    public var active: [Reason] { Reason.allCases.filter(isActive) }

    /// The word as `vcgencmd` prints it: `0x50005`.
    public var hex: String { "0x" + String(word, radix: 16) }
}
