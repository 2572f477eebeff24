import Files
import FoundationEssentials

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
        var digits = Substring(text.trimmingWhitespace())
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 8, let word = UInt32(digits, radix: 16) else {
            throw .garbage(text)
        }
        self.word = word
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
