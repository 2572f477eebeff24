/// Renders metric families as Prometheus text 0.0.4 or OpenMetrics 1.0.
struct ExpositionWriter {
    let format: ExpositionFormat
    private var output = ""

    init(format: ExpositionFormat) {
        self.format = format
        output.reserveCapacity(4096)
    }

    mutating func append(_ family: MetricFamily) {
        // OpenMetrics names a counter family without its `_total` sample suffix.
        let familyName =
            format == .openMetrics && family.kind == .counter
            ? String(family.name.dropLast("_total".count)) : family.name
        output += "# HELP \(familyName) \(escapeHelp(family.help))\n"
        output += "# TYPE \(familyName) \(family.kind.rawValue)\n"
        for (labelValues, value) in family.snapshot() {
            let labels = zip(family.labelNames, labelValues).map { ($0, $1) }
            switch value {
            case .scalar(let number):
                sample(family.name, labels, formatted(number))
            case .histogram(let state):
                var cumulative: UInt64 = 0
                for (index, count) in state.bucketCounts.enumerated() {
                    cumulative += count
                    let bound =
                        index < family.buckets.count ? formatted(family.buckets[index]) : "+Inf"
                    sample(family.name + "_bucket", labels + [("le", bound)], String(cumulative))
                }
                sample(family.name + "_sum", labels, formatted(state.sum))
                sample(family.name + "_count", labels, String(state.count))
            }
        }
    }

    mutating func finish() -> String {
        if format == .openMetrics { output += "# EOF\n" }
        return output
    }

    private mutating func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
        output += name
        if !labels.isEmpty {
            output += "{"
            for (index, (label, labelValue)) in labels.enumerated() {
                if index > 0 { output += "," }
                output += label
                output += "=\""
                output += escapeLabelValue(labelValue)
                output += "\""
            }
            output += "}"
        }
        output += " "
        output += value
        output += "\n"
    }

    /// Go's ParseFloat reads Swift's shortest round-trip form; only the specials differ.
    private func formatted(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        return value.description
    }

    /// 0.0.4 escapes `\` and newline in help text; OpenMetrics also escapes `"`.
    private func escapeHelp(_ text: String) -> String {
        escape(text, quotes: format == .openMetrics)
    }

    private func escapeLabelValue(_ text: String) -> String {
        escape(text, quotes: true)
    }

    private func escape(_ text: String, quotes: Bool) -> String {
        let needsEscaping = text.utf8.contains {
            $0 == 0x5C || $0 == 0x0A || (quotes && $0 == 0x22)
        }
        guard needsEscaping else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\"" where quotes: escaped.append(contentsOf: "\\\"".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
