/// Headroom's one number formatter, for every table, message and report: a number with a fixed
/// count of decimals (``Swift/Double/fixed(_:)``), or with no more than it needs
/// (``Swift/Double/trimmed(_:)``). Machine formats (JSON, CSV, MOT files) have their own exact
/// writers; these are for people.
extension Double {
    /// The value with exactly `decimals` decimals: `1.60` for two, `25` for none.
    ///
    /// Never traps: NaN prints `n/a`, infinities `inf`/`-inf`, and magnitudes of 10^15 and
    /// more (which no fixed-point column can show usefully) print in exponent notation,
    /// `1.2e+19`. A zero that rounds from a small negative prints `0.00`, not `-0.00`.
    public func fixed(_ decimals: Int) -> String {
        if isNaN { return "n/a" }
        if isInfinite { return self < 0 ? "-inf" : "inf" }
        if abs(self) >= 1e15 { return String(printf: "%.2g", self) }
        let text = String(printf: "%.\(max(0, decimals))f", self)
        return text.hasPrefix("-") && text.allSatisfy({ $0 == "-" || $0 == "0" || $0 == "." })
            ? String(text.dropFirst()) : text
    }

    /// The value without needless digits: at most `decimals` decimals with trailing zeros
    /// dropped (`12.5`, `3`, `0.25` for two), or, without `decimals`, the shortest text that
    /// reads back as the same value (`30`, `0.1`). Non-finite and huge values as in
    /// ``fixed(_:)``.
    public func trimmed(_ decimals: Int? = nil) -> String {
        guard isFinite, abs(self) < 1e15 else { return fixed(0) }
        guard let decimals else {
            return self == rounded() ? String(Int(self)) : String(self)
        }
        var text = fixed(decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
