import Files
import Units

/// The command line's grammar: each command declares its options once — name, value type,
/// default, help (``Option``, in the command's ``CommandOptions``) — and from that one
/// declaration come the parser (`Arguments`, which parses each value once), the help text
/// (`Command.help`) and the shell completions (`Completions`). `--name value`, `--name=value`,
/// boolean `--flag`s and positionals (everything after `--` is positional); every mistake is a
/// `UsageError` naming the option and what was expected: an unknown option, a missing value, a
/// value of the wrong type or out of range, a single option given twice.

/// One option a command accepts.
public struct OptionSpec: Sendable {
    /// What an option's value is, so it is checked when parsed and completed in a shell.
    public enum Kind: Sendable {
        /// A boolean flag, without a value.
        case flag
        /// Any text.
        case text
        /// A file or directory read or written (shells complete file names).
        case path(PathUse)
        /// One of these words.
        case choice([String])
        /// A finite number within the range.
        case number(ClosedRange<Double>)
        /// An integer within the range.
        case integer(ClosedRange<Int>)
    }

    /// Whether a path option names something read or a place written.
    public enum PathUse: Sendable, Equatable {
        /// A file or directory read (or a socket, or `-` for standard input).
        case input
        /// A destination written, checked before the work (``Arguments/destination(_:)``).
        case output(Destination.Kind)
    }

    /// The option with its dashes, `--profile`.
    public var name: String
    /// The placeholder for its value (`NAME|FILE`); `nil` for a boolean flag.
    public var value: String?
    /// One line of help.
    public var help: String
    /// What its value is.
    public var kind: Kind
    /// The value when the option is not given, as typed on the command line; shown in the help.
    public var defaultValue: String?
    /// The option this one refines, inside whose brackets the usage shows it (`--pace` within
    /// `--source`); `nil` for one that stands alone.
    public var parent: String? = nil
    /// Whether the command needs it: the usage shows it without brackets.
    public var isRequired = false

    /// This option, shown inside `parent`'s brackets in the usage.
    public func within(_ parent: String) -> OptionSpec {
        var refined = self
        refined.parent = parent
        return refined
    }

    /// This option, shown as one the command needs.
    public func required() -> OptionSpec {
        var required = self
        required.isRequired = true
        return required
    }

    /// A boolean flag.
    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help, kind: .flag)
    }

    /// An option taking any text.
    public static func option(_ name: String, _ value: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, kind: .text)
    }

    /// An option naming a file or directory.
    public static func path(_ name: String, _ value: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, kind: .path(.input))
    }

    /// An option naming a file written (`.file`) or a directory written into (`.directory`).
    public static func output(
        _ name: String, _ value: String, _ help: String, _ kind: Destination.Kind = .file
    ) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, kind: .path(.output(kind)))
    }

    /// An option taking one of `choices`.
    public static func choice(
        _ name: String, _ choices: [String], _ help: String, default defaultValue: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, value: choices.joined(separator: "|"), help: help,
            kind: .choice(choices), defaultValue: defaultValue)
    }

    /// An option taking a number within `range`.
    public static func number(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Double>,
        default defaultValue: Double? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, value: value, help: help, kind: .number(range),
            defaultValue: defaultValue?.trimmed())
    }

    /// An option taking an integer within `range`.
    public static func integer(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Int>,
        default defaultValue: Int? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, value: value, help: help, kind: .integer(range),
            defaultValue: defaultValue.map(String.init))
    }

    /// What the help adds after the option's own line: its range and default.
    public var helpSuffix: String {
        var parts: [String] = []
        switch kind {
        case .number(let range):
            parts.append("\(range.lowerBound.trimmed()) to \(range.upperBound.trimmed())")
        case .integer(let range) where range.upperBound < Int(Int32.max):
            parts.append("\(range.lowerBound) to \(range.upperBound)")
        default: break
        }
        if let defaultValue { parts.append("default \(defaultValue)") }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
    }

    /// Checks `text` as a value of this option.
    public func check(_ text: String) throws(UsageError) {
        switch kind {
        case .flag, .text:
            return
        case .path:
            // An empty path would mean the current directory, or `/` once a name is added.
            guard !text.isEmpty else {
                throw UsageError(description: "\(name): expected a path, got an empty one")
            }
        case .choice(let choices):
            guard choices.contains(text) else {
                let listed =
                    choices.count > 1
                    ? choices.dropLast().joined(separator: ", ") + " or " + choices.last!
                    : choices.joined()
                throw UsageError(description: "\(name): expected \(listed), got \"\(text)\"")
            }
        case .number(let range):
            guard let number = Double(text), number.isFinite, range.contains(number) else {
                throw UsageError(
                    description:
                        "\(name): expected a number from \(range.lowerBound.trimmed()) to \(range.upperBound.trimmed()), got \"\(text)\""
                )
            }
        case .integer(let range):
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(
                    description:
                        "\(name): expected an integer from \(range.lowerBound) to \(range.upperBound), got \"\(text)\""
                )
            }
        }
    }
}

/// A mistake on the command line; exit code 2.
public struct UsageError: Error, CustomStringConvertible {
    /// What was wrong and what was expected.
    public var description: String

    /// A mistake described by `description`.
    public init(description: String) {
        self.description = description
    }
}

/// A command's parsed arguments.
public struct Arguments: Sendable {
    /// The command's name, for messages.
    public let command: String
    /// Positional arguments in order (those after `--` included).
    public let positionals: [String]
    /// The words after `--`, when it was given (a command to run, for `launch measure`).
    public let afterSeparator: [String]?
    private let specs: [String: OptionSpec]
    /// Each given option's value, parsed by its declaration.
    private let parsed: [String: any Sendable]

    /// Parses `words` (the arguments after the command name) against `options`, checking
    /// every value against its declaration and parsing it once.
    public init(command: String, words: [String], options: [any OptionDeclaration])
        throws(UsageError)
    {
        self.command = command
        var specs: [String: OptionSpec] = [:]
        var declarations: [String: any OptionDeclaration] = [:]
        for option in options {
            specs[option.spec.name] = option.spec
            declarations[option.spec.name] = option
        }
        self.specs = specs
        var parsed: [String: any Sendable] = [:]
        var positionals: [String] = []
        var index = 0
        var onlyPositionals = false
        var separator: Int?
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                separator = positionals.count
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            guard let spec = specs[name], let declaration = declarations[name] else {
                throw UsageError(
                    description: "unknown option \(name)"
                        + Suggestion.hint(for: name, among: Array(specs.keys))
                        + "; see `headroom \(command) --help`")
            }
            guard parsed[name] == nil else {
                throw UsageError(description: "\(name): given twice; expected it once")
            }
            if let placeholder = spec.value {
                let value: String
                if parts.count == 2 {
                    value = parts[1]
                } else if index < words.count, !words[index].hasPrefix("--") {
                    value = words[index]
                    index += 1
                } else {
                    throw UsageError(description: "\(name): expected a value (\(placeholder))")
                }
                try spec.check(value)
                parsed[name] = try declaration.parse(value)
            } else {
                guard parts.count == 1 else {
                    throw UsageError(description: "\(name): is a flag and takes no value")
                }
                parsed[name] = try declaration.parse("")
            }
        }
        self.positionals = positionals
        self.afterSeparator = separator.map { Array(positionals[$0...]) }
        self.parsed = parsed
    }

    /// The value of `option`: as given, else its value when absent.
    public subscript<Value>(option: Option<Value>) -> Value {
        let name = option.spec.name
        precondition(specs[name] != nil, "\(name) is read by `\(command)` but not declared by it")
        guard let given = parsed[name] else { return option.absent }
        guard let value = given as? Value else {
            preconditionFailure("\(name) is read as \(Value.self) but parsed as \(type(of: given))")
        }
        return value
    }

    /// `path` checked as a destination of `kind`; errors name `option` (or the positional's
    /// placeholder).
    public static func destination(_ path: String, as kind: Destination.Kind, for option: String)
        throws(UsageError) -> Destination
    {
        do {
            return try Destination(checking: path, as: kind)
        } catch {
            throw UsageError(description: "\(option): \(error)")
        }
    }

    /// Whether `option` (its name) was given on the command line.
    public func isGiven(_ option: String) -> Bool { parsed[option] != nil }

    /// The one positional argument named `name` in messages (`FILE`); exactly one is expected.
    public func single(_ name: String) throws(UsageError) -> String {
        guard positionals.count == 1 else {
            throw UsageError(
                description: positionals.isEmpty
                    ? "expected \(name); see `headroom \(command) --help`"
                    : "expected one \(name), got \(positionals.count) arguments")
        }
        return positionals[0]
    }

    /// Throws unless there are no positional arguments.
    public func expectNoPositionals() throws(UsageError) {
        if let first = positionals.first {
            throw UsageError(
                description: "unexpected argument \"\(first)\"; see `headroom \(command) --help`")
        }
    }
}
