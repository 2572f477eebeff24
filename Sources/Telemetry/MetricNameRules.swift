/// The Prometheus data model's rules for metric and label names.
enum MetricNameRules {
    static let metricPattern = "[a-zA-Z_:][a-zA-Z0-9_:]*"
    static let labelPattern = "[a-zA-Z_][a-zA-Z0-9_]*, not starting with __"

    static func validate(metric name: String, labels: [String]) throws(MetricError) {
        guard isValid(name, allowColon: true) else {
            throw .invalidName(name, expected: metricPattern)
        }
        var seen = Set<String>()
        for label in labels {
            guard isValid(label, allowColon: false), !label.hasPrefix("__") else {
                throw .invalidLabelName(metric: name, label: label, expected: labelPattern)
            }
            guard seen.insert(label).inserted else {
                throw .invalidLabelName(metric: name, label: label, expected: "each label once")
            }
        }
    }

    private static func isValid(_ name: String, allowColon: Bool) -> Bool {
        guard let first = name.utf8.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
                || (allowColon && byte == 0x3A)
        }
        guard isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
