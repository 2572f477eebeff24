import Storage
import Testing

/// Sizes as `fallocate -l` reads them, and as the CLI prints them.
struct ByteCountTests {
    @Test(
        "sizes with binary and decimal units, fractions and spaces",
        arguments: [
            ("512M", 512 << 20), ("4G", 4 << 30), ("1.5GiB", 3 << 29), ("100MB", 100_000_000),
            ("4096", 4096), (" 2k ", 2048), ("2 KiB", 2048), ("1kb", 1000), ("0", 0),
            ("7b", 7), ("1T", 1 << 40),
        ] as [(String, Int64)])
    func parses(text: String, bytes: Int64) {
        #expect(ByteCount(parsing: text) == ByteCount(bytes))
    }

    @Test(
        "no number, a negative or non-finite one, an unknown unit or an overflow is refused",
        arguments: ["", "M", "-1M", "abc", "1.5XB", "inf", "nan", "1e3", "99999999T", "1.2.3G"])
    func refuses(text: String) {
        #expect(ByteCount(parsing: text) == nil)
    }

    @Test("printed in the largest binary unit, three figures at most")
    func prints() {
        #expect(ByteCount(0).description == "0 B")
        #expect(ByteCount(1023).description == "1023 B")
        #expect(ByteCount(3 << 29).description == "1.5 GiB")
        #expect(ByteCount.mebibytes(512).description == "512 MiB")
        #expect(ByteCount(1_000_000).description == "977 KiB")
        #expect(DataRate(.mebibytes(30), per: 2).description == "15 MiB/s")
        #expect(DataRate(bytesPerSecond: 1e6).seconds(toWrite: ByteCount(3_000_000)) == 3)
    }
}
