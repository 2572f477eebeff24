/// Renders metric families as Prometheus text 0.0.4 or OpenMetrics 1.0, into UTF-8 bytes
/// (appending bytes is several times cheaper than growing a `String`, and HTTP wants bytes).
struct ExpositionWriter {
    let format: ExpositionFormat
    private var output: [UInt8] = []

    init(format: ExpositionFormat) {
        self.format = format
        output.reserveCapacity(16 * 1024)
    }

    mutating func append(_ family: MetricFamily) {
        // OpenMetrics names a counter family without its `_total` sample suffix.
        let familyName =
            format == .openMetrics && family.kind == .counter
            ? String(family.name.dropLast("_total".count)) : family.name
        write("# HELP ")
        write(familyName)
        write(" ")
        writeEscaped(family.help, quotes: format == .openMetrics)
        write("\n# TYPE ")
        write(familyName)
        write(" ")
        write(family.kind.rawValue)
        write("\n")
        for (labelValues, value) in family.snapshot() {
            switch value {
            case .scalar(let number):
                sample(family.name, "", family.labelNames, labelValues, nil, formatted(number))
            case .histogram(let state):
                var cumulative: UInt64 = 0
                for (index, count) in state.bucketCounts.enumerated() {
                    cumulative += count
                    let bound =
                        index < family.buckets.count ? formatted(family.buckets[index]) : "+Inf"
                    sample(
                        family.name, "_bucket", family.labelNames, labelValues, bound,
                        String(cumulative))
                }
                sample(
                    family.name, "_sum", family.labelNames, labelValues, nil,
                    formatted(state.sum))
                sample(
                    family.name, "_count", family.labelNames, labelValues, nil,
                    String(state.count))
            }
        }
    }

    mutating func finish() -> [UInt8] {
        if format == .openMetrics { write("# EOF\n") }
        return output
    }

    /// One sample line: `name{labels,le="bound"} value`.
    private mutating func sample(
        _ name: String, _ suffix: String, _ labelNames: [String], _ labelValues: [String],
        _ bucketBound: String?, _ value: String
    ) {
        write(name)
        write(suffix)
        if !labelNames.isEmpty || bucketBound != nil {
            output.append(UInt8(ascii: "{"))
            for index in labelNames.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(labelNames[index])
                write("=\"")
                writeEscaped(labelValues[index], quotes: true)
                output.append(UInt8(ascii: "\""))
            }
            if let bucketBound {
                write(labelNames.isEmpty ? "le=\"" : ",le=\"")
                write(bucketBound)
                output.append(UInt8(ascii: "\""))
            }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: " "))
        write(value)
        output.append(UInt8(ascii: "\n"))
    }

    private mutating func write(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    /// Escapes `\` and newline, and `"` when `quotes` (label values; OpenMetrics help text too).
    private mutating func writeEscaped(_ text: String, quotes: Bool) {
        func needsEscaping(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\n")
                || (quotes && byte == UInt8(ascii: "\""))
        }
        // Most names and values need no escaping: copy them whole.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: needsEscaping) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): write("\\\\")
            case UInt8(ascii: "\n"): write("\\n")
            case UInt8(ascii: "\"") where quotes: write("\\\"")
            default: output.append(byte)
            }
        }
    }

    /// Go's ParseFloat reads Swift's shortest round-trip form; only the specials differ.
    private func formatted(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        return value.description
    }
}
