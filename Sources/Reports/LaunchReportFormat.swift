import Files
import FoundationEssentials
import LaunchTiming

/// The file formats a ``LaunchReport`` exports to.
public enum LaunchReportFormat: String, CaseIterable, Sendable {
    /// The report itself as JSON; reads back with ``LaunchReport/decode(_:file:)``.
    case json
    /// One row per phase and per mark, for spreadsheets.
    case csv
    /// Chrome trace-event JSON, which opens in the Perfetto UI and `chrome://tracing`.
    case trace
    /// A Markdown table, for pull requests and notes.
    case markdown = "md"
    /// A self-contained HTML page with a waterfall of the phases.
    case html

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .csv: "csv"
        case .trace: "trace.json"
        case .markdown: "md"
        case .html: "html"
        }
    }

    /// The report in this format, as UTF-8 bytes.
    public func render(_ report: LaunchReport) -> [UInt8] {
        switch self {
        case .json:
            // Plain value types always encode; should one not, the reader sees why, not an
            // empty file.
            return JSONStyle.document.encodeExplainingFailure(report)
        case .csv:
            return Array(CSVReportExporter.render(report).utf8)
        case .trace:
            return TraceEventExporter.render(report)
        case .markdown:
            return Array(MarkdownReportExporter.render(report).utf8)
        case .html:
            return Array(HTMLReportExporter.render(report).utf8)
        }
    }

    /// Writes the report in this format to `path` atomically: a reader (or a crash) sees the
    /// previous file or the complete new one, never a part.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` when it cannot be written.
    public func write(_ report: LaunchReport, to path: String) throws(ConfigurationError) {
        try AtomicFile.write(render(report), to: path)
    }
}
