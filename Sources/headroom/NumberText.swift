import Foundation

extension Double {
    /// The value with `decimals` decimals (`1.66` for two), for tables and messages.
    ///
    /// Never traps: NaN prints `n/a`, infinities `inf`/`-inf`, and magnitudes of 10^15 and
    /// more (which no fixed-point column can show usefully) print in exponent notation,
    /// `1.2e+19`.
    func fixed(_ decimals: Int) -> String {
        if isNaN { return "n/a" }
        if isInfinite { return self < 0 ? "-inf" : "inf" }
        if abs(self) >= 1e15 { return String(format: "%.2g", self) }
        let text = String(format: "%.\(decimals)f", self)
        // "-0.00" reads as a negative zero to a user; it is zero.
        return text.hasPrefix("-") && text.allSatisfy({ "-0.".contains($0) })
            ? String(text.dropFirst()) : text
    }

    /// Two decimals: `1.66`.
    var shortDecimal: String { fixed(2) }
}
