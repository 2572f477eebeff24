import Files

#if canImport(Glibc)
    import Glibc
#endif

/// Where the command line writes: results to stdout, diagnostics to stderr.
public enum Console {
    /// Writes `text` to stdout, adding a newline unless it ends with one.
    public static func out(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` to stderr, adding a newline unless it ends with one. Diagnostics echo
    /// what users gave (ids, paths, values), so they are made ``printable(_:)`` first.
    public static func error(_ text: String) {
        let text = printable(text)
        write(text.hasSuffix("\n") ? text : text + "\n", to: STDERR_FILENO)
    }

    /// The longest line a diagnostic shows; the rest is counted, not printed.
    public static let diagnosticLineLimit = 1_000

    /// `text` safe to show on a terminal: control characters other than newline and tab
    /// (a terminal escape in an id, a NUL in a file name) as `\u{1B}`, and each line cut
    /// at ``diagnosticLineLimit`` characters with the number left out (a 15 MB id).
    public static func printable(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            line -> String in
            var shown = ""
            var count = 0
            for scalar in line.unicodeScalars {
                count += 1
                guard count <= diagnosticLineLimit else { continue }
                let isControl =
                    scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value)
                if isControl {
                    shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
            return count > diagnosticLineLimit
                ? shown + "… (\(count - diagnosticLineLimit) more characters)" : shown
        }
        return lines.joined(separator: "\n")
    }

    /// Writes `text` to stdout as it is (live displays redraw a line with it).
    public static func write(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Redraws the live line on stdout with `line`, cut to the terminal's width: a line that
    /// wrapped would leave its first row behind on every redraw, filling the screen with copies.
    public static func redraw(_ line: String) {
        redraw(line, on: STDOUT_FILENO)
    }

    /// Redraws the live line on stderr with `line`, cut to the terminal's width (progress bars).
    public static func errorRedraw(_ line: String) {
        redraw(line, on: STDERR_FILENO)
    }

    private static func redraw(_ line: String, on descriptor: Int32) {
        write("\r\u{1B}[K" + fitted(line, columns: columns(of: descriptor)), to: descriptor)
    }

    /// The width of the terminal on `descriptor`, in columns; nil when it is not a terminal
    /// or does not say.
    public static func columns(of descriptor: Int32) -> Int? {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) {
            ioctl(descriptor, UInt(TIOCGWINSZ), $0)
        }
        return result == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    /// `line` cut to fit a terminal `columns` wide, one column spare (writing the last column
    /// makes some terminals wrap); escape sequences (colours) pass whole and take no column,
    /// and a cut line ends with a colour reset. Unchanged when the width is unknown.
    public static func fitted(_ line: String, columns: Int?) -> String {
        guard let columns else { return line }
        enum Escape { case none, started, controlSequence }
        var escape = Escape.none
        var isPainted = false
        var shown = ""
        var visible = 0
        for scalar in line.unicodeScalars {
            switch escape {
            case .started:
                escape = scalar == "[" ? .controlSequence : .none
            case .controlSequence:
                // Parameters and intermediates, up to the final byte.
                if (0x40...0x7E).contains(scalar.value) { escape = .none }
            case .none where scalar == "\u{1B}":
                escape = .started
                isPainted = true
            case .none:
                guard visible < columns - 1 else { return isPainted ? shown + "\u{1B}[0m" : shown }
                visible += 1
            }
            shown.unicodeScalars.append(scalar)
        }
        return shown
    }

    /// Writes `text` to stderr as it is (progress bars redraw a line with it).
    public static func errorWrite(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Writes `value` as pretty, key-sorted JSON to stdout: the stable machine-readable form.
    public static func json(_ value: some Encodable) {
        out(String(decoding: jsonData(value), as: UTF8.self))
    }

    /// `value` as pretty, key-sorted JSON.
    public static func jsonData(_ value: some Encodable) -> [UInt8] {
        JSONStyle.document.encodeExplainingFailure(value)
    }

    /// Whether stdout's reader has gone away (a pipe whose reading end is closed), so a
    /// command that only writes now and then can stop without waiting to write.
    public static var isOutputClosed: Bool {
        var descriptor = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLERR) != 0
    }

    /// Whether stdout is a terminal (live displays) rather than a pipe or file (plain lines).
    public static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether stdout may carry colour: it is a terminal, `NO_COLOR` is unset or empty
    /// (no-color.org), and `TERM` is not `dumb`.
    public static let usesColor: Bool = {
        let environment = ProcessFacts.environment
        return isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
            && environment["TERM"] != "dumb"
    }()

    /// `text` in `color` where colour is allowed (``usesColor``), else as it is.
    public static func paint(_ text: String, _ color: TextColor) -> String {
        usesColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Whether standard error is a terminal (progress notes go there, never into a pipe).
    public static var isErrorTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes all of `text` to `descriptor` unbuffered, so stdout and stderr interleave in order.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress, $0.count)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// The few colours the console uses (SGR codes).
public enum TextColor: String {
    case green = "32"
    case yellow = "33"
    case red = "31"
    case boldRed = "1;31"
}

/// A plain-text table with aligned columns: numbers right-aligned, text left-aligned.
public struct TextTable {
    /// Column headings.
    public var headings: [String]
    /// Rows of cells, as many as headings.
    public var rows: [[String]] = []
    /// Indexes of right-aligned (numeric) columns.
    public var numericColumns: Set<Int> = []
    /// When set, a right-aligned last column is made no wider than lets a line fit in this
    /// many columns: a cell too long for that starts where the column starts and runs on, so
    /// that one long path does not push every number off an 80-column terminal.
    public var lineWidth: Int?

    /// A table under `headings` with `rows`, the `numericColumns` right-aligned, fitting
    /// `lineWidth` columns when given.
    public init(
        headings: [String], rows: [[String]] = [], numericColumns: Set<Int> = [],
        lineWidth: Int? = nil
    ) {
        self.headings = headings
        self.rows = rows
        self.numericColumns = numericColumns
        self.lineWidth = lineWidth
    }

    /// The table as text, one line per row, two spaces between columns.
    public var text: String {
        let all = [headings] + rows
        var widths = headings.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        if let lineWidth, let last = headings.indices.last, numericColumns.contains(last) {
            let room = lineWidth - widths.dropLast().reduce(0) { $0 + $1 + 2 }
            widths[last] = all.map { $0[last].count }.filter { $0 <= room }.max() ?? 0
        }
        return all.map { row in
            row.indices.map { column in
                let padding = String(
                    repeating: " ", count: max(0, widths[column] - row[column].count))
                return numericColumns.contains(column)
                    ? padding + row[column] : row[column] + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
