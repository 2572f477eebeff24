import Files

/// Renders a launch report as CSV (RFC 4180): a header, then one row per phase, then one per
/// mark; times in seconds since the report's origin.
public enum CSVReportExporter {
    /// The columns, in order.
    public static let header = "kind,name,start_seconds,duration_seconds,depth,parent,complete"

    /// The report as CSV text, lines ending in CRLF as RFC 4180 asks.
    public static func render(_ report: LaunchReport) -> String {
        var lines = [header]
        for phase in report.phases {
            lines.append(
                [
                    "phase", field(phase.name), number(phase.start.seconds),
                    number(phase.duration.seconds),
                    String(phase.depth), field(phase.parent ?? ""), String(phase.isComplete),
                ].joined(separator: ","))
        }
        for mark in report.marks {
            lines.append(
                ["mark", field(mark.name), number(mark.time.seconds), "", "", "", ""].joined(
                    separator: ",")
            )
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A value quoted when it holds a comma, a quote or a line break, quotes doubled. A value a
    /// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
    /// carriage return, OWASP's list) gets a leading `'`, so a phase named `=cmd|…` is text.
    static func field(_ value: String) -> String {
        var value = value
        if let first = value.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            value = "'" + value
        }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return value
        }
        return "\"" + value.replacingEvery("\"", with: "\"\"") + "\""
    }

    private static func number(_ seconds: Double) -> String {
        String(printf: "%.9f", seconds)
    }
}
