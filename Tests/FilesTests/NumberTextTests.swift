import Files
import Testing

/// The one number formatter: fixed decimals, or no more than needed.
@Suite struct NumberTextTests {
    @Test func fixedDecimals() {
        #expect(1.6.fixed(2) == "1.60")
        #expect(24.6.fixed(0) == "25")
        #expect((-0.001).fixed(2) == "0.00")
        #expect(Double.nan.fixed(1) == "n/a")
        #expect((-Double.infinity).fixed(1) == "-inf")
        #expect(1.2e19.fixed(1) == "1.2e+19")
    }

    @Test func trimmedDropsWhatIsNotNeeded() {
        #expect(30.0.trimmed() == "30")
        #expect(12.5.trimmed() == "12.5")
        #expect(0.1.trimmed() == "0.1")
        #expect(0.25.trimmed(2) == "0.25")
        #expect(3.0.trimmed(2) == "3")
        #expect(1.666.trimmed(2) == "1.67")
        #expect((-0.001).trimmed(2) == "0")
        #expect(Double.infinity.trimmed() == "inf")
    }
}
