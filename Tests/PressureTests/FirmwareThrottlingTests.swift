import Pressure
import Testing

/// The Raspberry Pi's firmware throttling word as sysfs holds it.
struct FirmwareThrottlingTests {
    @Test(
        "the word parses with or without 0x, white space and a newline",
        arguments: [
            ("0x0\n", 0), ("50005", 0x50005), ("0X50005\n", 0x50005), ("  0xe0000 \n", 0xE0000),
            ("ffffffff", 0xFFFF_FFFF), ("0x1F\u{0}", 0x1F),
        ] as [(String, UInt32)])
    func parses(text: String, word: UInt32) throws {
        #expect(try FirmwareThrottling(parsing: text).word == word)
    }

    @Test(
        "anything else is garbage, named with its text",
        arguments: ["", "\n", "0x", "not hex", "0x123456789", "0x 5", "-5", "+5", "5 5", "0x0x5"])
    func refuses(text: String) {
        #expect(throws: SensorFault.garbage(text)) { try FirmwareThrottling(parsing: text) }
    }
}
