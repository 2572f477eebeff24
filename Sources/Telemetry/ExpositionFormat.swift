/// The text formats a scraper can ask for.
public enum ExpositionFormat: Sendable, Hashable, CaseIterable {
    /// Prometheus text format 0.0.4, what node_exporter's textfile collector reads.
    case prometheusText
    /// OpenMetrics 1.0 text: counters' family names drop `_total`, and the body ends in `# EOF`.
    case openMetrics

    /// The `Content-Type` header value for a body in this format.
    public var contentType: String {
        switch self {
        case .prometheusText: return "text/plain; version=0.0.4; charset=utf-8"
        case .openMetrics: return "application/openmetrics-text; version=1.0.0; charset=utf-8"
        }
    }

    /// The format an HTTP client asked for in its `Accept` header.
    ///
    /// Media ranges are weighed by their `q` parameter; among equal weights the one listed first
    /// wins. OpenMetrics is served only when asked for without a version or with `1.0.0`;
    /// everything else, including no header at all, gets Prometheus text 0.0.4.
    public static func negotiated(accept: String?) -> ExpositionFormat {
        guard let accept else { return .prometheusText }
        var best: (format: ExpositionFormat, quality: Double)?
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard let mediaType = parts.first else { continue }
            var quality = 1.0
            var version: String?
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    String($0.trimmingWhitespace())
                }
                guard pair.count == 2 else { continue }
                if pair[0] == "q" { quality = Double(pair[1]) ?? 0 }
                if pair[0] == "version" { version = pair[1] }
            }
            let format: ExpositionFormat
            switch mediaType {
            case "application/openmetrics-text" where version == nil || version == "1.0.0":
                format = .openMetrics
            case "text/plain", "text/*", "*/*":
                format = .prometheusText
            default:
                continue
            }
            guard quality > 0 else { continue }
            if quality > (best?.quality ?? 0) { best = (format, quality) }
        }
        return best?.format ?? .prometheusText
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let head = drop(while: isBlank)
        var end = head.endIndex
        while end > head.startIndex, isBlank(head[head.index(before: end)]) {
            end = head.index(before: end)
        }
        return head[..<end]
    }
}
