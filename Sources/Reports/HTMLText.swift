import Files
import FoundationEssentials

/// Text for HTML and SVG: escaping, and numbers in the short forms the report prints.
enum HTMLText {
    /// `text` with `& < > " '` escaped, safe inside elements and quoted attributes.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// `value` with at most `decimals` decimals and no trailing zeros (`12.5`, `3`, `0.25`).
    static func number(_ value: Double, decimals: Int = 2) -> String {
        guard value.isFinite else { return value.isNaN ? "–" : (value > 0 ? "∞" : "−∞") }
        return value.trimmed(decimals)
    }

    /// A coordinate for SVG: one decimal is below a pixel.
    static func coordinate(_ value: Double) -> String {
        String(printf: "%.1f", value)
    }

    /// A duration in seconds as `850 ms`, `1.25 s` or `3 min 20 s`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "—" }
        if seconds < 1 { return number(seconds * 1000, decimals: 1) + " ms" }
        if seconds < 120 { return number(seconds, decimals: 2) + " s" }
        let minutes = Int(seconds / 60)
        return "\(minutes) min \(Int(seconds) - minutes * 60) s"
    }
}
