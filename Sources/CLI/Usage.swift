/// One way to call a command, from which its usage line is written: the words before the
/// options (a subcommand, operands), the options in the order shown, and what follows them.
/// The options are the command's own declarations, so the usage cannot name an option the
/// command does not take or leave out one it does (a test walks every command).
public struct UsageForm: Sendable {
    /// One place in the line: an option, or options of which one may be given.
    public enum Item: Sendable, ExpressibleByStringLiteral {
        /// The option of this name.
        case option(String)
        /// At most one of these options: `[--out PATH | --out-dir DIR]`.
        case oneOf([String])

        /// The option named `value`.
        public init(stringLiteral value: String) {
            self = .option(value)
        }

        /// The option names this item shows.
        public var names: [String] {
            switch self {
            case .option(let name): [name]
            case .oneOf(let names): names
            }
        }
    }

    /// Words before the options: `report [RUN]`, `FILE`, `DIR`; empty for none.
    public var words: String
    /// The options shown, in order; `nil` shows every option of the command in the order it
    /// declares them (an option declared ``OptionSpec/within(_:)`` another is shown inside it).
    public var items: [Item]?
    /// Words after the options: `-- CMD ARGS...`.
    public var trailing: String

    /// A form of `words`, then `items` (every option when `nil`), then `trailing`.
    public init(_ words: String = "", _ items: [Item]? = nil, then trailing: String = "") {
        self.words = words
        self.items = items
        self.trailing = trailing
    }

    /// The form's parts after `headroom NAME`, each option with its value and its refinements
    /// in brackets unless it is required: `FILE`, `[--profile NAME|FILE]`,
    /// `[--duration SECONDS [--storage DIR]]`.
    public func parts(options: [OptionSpec]) -> [String] {
        let byName = Dictionary(
            options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let standalone = options.filter { $0.parent == nil }
        let shown =
            items
            ?? (standalone.filter(\.isRequired) + standalone.filter { !$0.isRequired })
            .map { .option($0.name) }
        // An option with its value and its refinements, and the same in brackets unless the
        // command needs it.
        func label(_ option: OptionSpec) -> String {
            ([option.value.map { "\(option.name) \($0)" } ?? option.name]
                + options.filter { $0.parent == option.name }.map(text))
                .joined(separator: " ")
        }
        func text(_ option: OptionSpec) -> String {
            option.isRequired ? label(option) : "[\(label(option))]"
        }
        var parts = words.isEmpty ? [] : [words]
        for item in shown {
            let found = item.names.compactMap { byName[$0] }
            switch item {
            case .option: parts += found.map(text)
            case .oneOf:
                parts.append("[" + found.map(label).joined(separator: " | ") + "]")
            }
        }
        if !trailing.isEmpty { parts.append(trailing) }
        return parts
    }

    /// The option names the form shows, refinements included.
    public func names(options: [OptionSpec]) -> [String] {
        guard let items else { return options.map(\.name) }
        let shown = items.flatMap(\.names)
        return shown + options.filter { $0.parent.map(shown.contains) ?? false }.map(\.name)
    }
}

extension Command {
    /// The usage lines, one per form, wrapped at 100 columns with the continuation under the
    /// first word after the command's name: `usage: headroom estimate FILE [--profile NAME|FILE] …`.
    public var usage: String {
        var lines: [String] = []
        for (index, form) in forms.enumerated() {
            let lead = (index == 0 ? "usage: " : "       ") + "headroom \(name)"
            var line = lead
            let indent = String(repeating: " ", count: lead.count + 1)
            // A part too long for a line of its own (an option with many refinements) breaks
            // before its inner brackets.
            let pieces = form.parts(options: options).flatMap { part in
                indent.count + part.count <= 100 ? [part] : Self.bracketPieces(of: part)
            }
            for part in pieces {
                if line.count + 1 + part.count > 100 && line != lead && line != indent {
                    lines.append(line)
                    line = indent + part
                } else {
                    line += (line == indent ? "" : " ") + part
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// `part` split before each inner `[`: `[--mqtt URL`, `[--mqtt-node ID]`, ….
    private static func bracketPieces(of part: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        for word in part.split(separator: " ") {
            if word.hasPrefix("["), !current.isEmpty {
                pieces.append(current)
                current = String(word)
            } else {
                current += current.isEmpty ? String(word) : " " + word
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}
