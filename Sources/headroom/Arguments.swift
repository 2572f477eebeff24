/// The command line's grammar: each command declares its options, and `Arguments` parses
/// `--name value`, `--name=value`, boolean `--flag`s and positionals against that declaration.
/// Every mistake is a `UsageError` naming the option and what was expected.

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// The option with its dashes, `--profile`.
    var name: String
    /// The placeholder for its value (`NAME|FILE`); `nil` for a boolean flag.
    var value: String?
    /// One line of help.
    var help: String

    /// A boolean flag.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }

    /// An option taking a value.
    static func option(_ name: String, _ value: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help)
    }
}

/// A mistake on the command line; exit code 2.
struct UsageError: Error, CustomStringConvertible {
    /// What was wrong and what was expected.
    var description: String
}

/// A command's parsed arguments.
struct Arguments: Sendable {
    /// The command's name, for messages.
    let command: String
    /// Positional arguments in order.
    let positionals: [String]
    private let values: [String: String]
    private let flags: Set<String>

    /// Parses `words` (the arguments after the command name) against `options`.
    init(command: String, words: [String], options: [OptionSpec]) throws(UsageError) {
        self.command = command
        var positionals: [String] = []
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") || word == "-" {
                if word.hasPrefix("-"), word != "-", !onlyPositionals {
                    throw UsageError(
                        description: "unknown option \(word); see `headroom \(command) --help`")
                }
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError(
                    description: "unknown option \(name); see `headroom \(command) --help`")
            }
            if let placeholder = spec.value {
                if parts.count == 2 {
                    values[name] = parts[1]
                } else if index < words.count {
                    values[name] = words[index]
                    index += 1
                } else {
                    throw UsageError(description: "\(name): expected a value (\(placeholder))")
                }
            } else {
                guard parts.count == 1 else {
                    throw UsageError(description: "\(name): is a flag and takes no value")
                }
                flags.insert(name)
            }
        }
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }

    /// Whether the boolean `flag` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value given for `option`, if any.
    func value(_ option: String) -> String? { values[option] }

    /// The value of `option` as a number within `range`, or `defaultValue` when absent.
    func number(
        _ option: String, in range: ClosedRange<Double>, default defaultValue: Double
    ) throws(UsageError) -> Double {
        guard let text = values[option] else { return defaultValue }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                description:
                    "\(option): expected a number from \(range.lowerBound.shortText) to \(range.upperBound.shortText), got \"\(text)\""
            )
        }
        return number
    }

    /// The value of `option` as an integer within `range`, or `defaultValue` when absent.
    func integer(_ option: String, in range: ClosedRange<Int>, default defaultValue: Int)
        throws(UsageError) -> Int
    {
        guard let text = values[option] else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                description:
                    "\(option): expected an integer from \(range.lowerBound) to \(range.upperBound), got \"\(text)\""
            )
        }
        return number
    }

    /// The one positional argument named `name` in messages (`FILE`); exactly one is expected.
    func single(_ name: String) throws(UsageError) -> String {
        guard positionals.count == 1 else {
            throw UsageError(
                description: positionals.isEmpty
                    ? "expected \(name); see `headroom \(command) --help`"
                    : "expected one \(name), got \(positionals.count) arguments")
        }
        return positionals[0]
    }

    /// Throws unless there are no positional arguments.
    func expectNoPositionals() throws(UsageError) {
        if let first = positionals.first {
            throw UsageError(
                description: "unexpected argument \"\(first)\"; see `headroom \(command) --help`")
        }
    }
}

extension Double {
    /// The number without a needless `.0`.
    var shortText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
