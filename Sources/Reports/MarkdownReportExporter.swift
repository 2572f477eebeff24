import FoundationEssentials
import LaunchTiming
import Units

/// Renders a launch report as Markdown: a summary line, the phases indented by nesting, then
/// the marks; times in milliseconds.
public enum MarkdownReportExporter {
    /// The report as Markdown text.
    public static func render(_ report: LaunchReport) -> String {
        var lines = [
            "# Launch report\(report.label.isEmpty ? "" : ": \(escaped(report.label))")", "",
        ]
        let origin = report.origin == .processStart ? "process start" : "timeline start"
        var summary = "Times in milliseconds since the \(origin)."
        if let first = report.timeToFirstPreviewFrame {
            summary += " First preview frame at **\(milliseconds(first.seconds)) ms**."
        }
        if report.droppedEvents > 0 {
            summary += " \(report.droppedEvents) events were dropped (timeline full)."
        }
        if let failure = report.failure {
            summary += " **Failed: \(escaped(failure.description)).**"
        }
        lines += [summary, "", "| phase | start | duration |", "|---|---:|---:|"]
        for phase in report.phases {
            // Nesting as plain text (no HTML entities: the file reads the same in a terminal).
            let indent =
                phase.depth == 0 ? "" : String(repeating: "· ", count: phase.depth - 1) + "↳ "
            let unfinished = phase.isComplete ? "" : " (unfinished)"
            lines.append(
                "| \(indent)\(escaped(phase.name))\(unfinished) | \(milliseconds(phase.start.seconds)) |"
                    + " \(milliseconds(phase.duration.seconds)) |")
        }
        if !report.marks.isEmpty {
            lines += ["", "| mark | time |", "|---|---:|"]
            for mark in report.marks {
                lines.append("| \(escaped(mark.name)) | \(milliseconds(mark.time.seconds)) |")
            }
        }
        if !report.notes.isEmpty {
            lines += ["", "Notes:", ""] + report.notes.map { "- \(escaped($0))" }
        }
        if !report.metadata.isEmpty {
            lines += [""]
            for (key, value) in report.metadata.sorted(by: { $0.key < $1.key }) {
                lines.append("- \(escaped(key)): \(escaped(value))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func milliseconds(_ seconds: Double) -> String {
        (seconds * 1000).fixed(3)
    }

    /// `text` as Markdown shows it and nothing more: a `|` would end a table cell, and `<`,
    /// `>` and `&` would pass HTML (a phase named `<script>…`) to any renderer that allows it.
    /// Line breaks become spaces, so one name stays one row; any other character that hides
    /// text (an escape, a bell, a bidi override: ``Units/Unicode/Scalar/hidesText``) is shown
    /// as its code, `\u{1B}`, so a report read in a terminal cannot clear or rewrite it.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": escaped += "\\|"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\n", "\r": escaped += " "
            case _ where scalar.hidesText:
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
