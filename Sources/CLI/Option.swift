import Files
import Units

/// Typed options, read where they are used: a command declares its options as the stored
/// properties of an ``CommandOptions`` struct — `let seconds = Option<Duration?>.seconds(…)` —
/// and its body reads `arguments[\.seconds]`, a `Duration?`. An option the command does not
/// declare, or read as the wrong type, does not compile. Each value is parsed once, when the
/// command line is (a choice into its enum, a destination checked), and a bad one is a
/// `UsageError` naming the option; the help, the usage and the completions come from the same
/// declarations.

/// One option, as the parser and the help see it: its spec, and how its text becomes a value.
public protocol OptionDeclaration: Sendable {
    /// The option's name, value, help and kind.
    var spec: OptionSpec { get }

    /// The value of `text`, which has passed `spec.check`.
    ///
    /// - Throws: `UsageError` naming the option when the text is no such value.
    func parse(_ text: String) throws(UsageError) -> any Sendable
}

/// Options declared together and shared by several commands (the pressure inputs, say): a
/// command includes the group as one stored property of its options, read through a key path
/// into it (`arguments[\.pressure.config]`).
public protocol OptionGroup: Sendable {
    /// The declarations.
    init()
}

/// A command's options: its stored ``Option`` and ``OptionGroup`` properties, in the order the
/// help lists them.
public protocol CommandOptions: OptionGroup {}

extension OptionGroup {
    /// Every option declared, in declaration order, a group's where the group stands.
    public static var declarations: [any OptionDeclaration] { Self().declarations }

    /// The declarations of this value's stored properties.
    public var declarations: [any OptionDeclaration] {
        Mirror(reflecting: self).children.flatMap { child -> [any OptionDeclaration] in
            if let option = child.value as? any OptionDeclaration { return [option] }
            if let group = child.value as? any OptionGroup { return group.declarations }
            return []
        }
    }
}

/// An option whose value is a `Value`: `Bool` for a flag, an optional for an option without a
/// default (`nil` when not given), the plain type for one with a default.
public struct Option<Value: Sendable>: OptionDeclaration {
    /// The option's name, value, help and kind.
    public private(set) var spec: OptionSpec
    /// The value when the option is not given.
    public let absent: Value
    private let convert: @Sendable (String) throws(UsageError) -> Value

    /// An option declared by `spec`, whose text `convert` turns into a value, and whose value
    /// is `absent` when not given.
    public init(
        _ spec: OptionSpec, absent: Value,
        convert: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        self.spec = spec
        self.absent = absent
        self.convert = convert
    }

    /// The value of `text`.
    public func parse(_ text: String) throws(UsageError) -> any Sendable { try convert(text) }

    /// The same option with its value (given or absent) made a `Transformed`: seconds as a
    /// duration, say.
    public func map<Transformed: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Transformed
    ) -> Option<Transformed> {
        let convert = self.convert
        return Option<Transformed>(spec, absent: transform(absent)) { text throws(UsageError) in
            transform(try convert(text))
        }
    }

    /// The same option with `value` when it is not given, shown in the help as `shown`.
    public func defaulting<Wrapped: Sendable>(to value: Wrapped, shown: String) -> Option<Wrapped>
    where Value == Wrapped? {
        var defaulted = spec
        defaulted.defaultValue = shown
        let convert = self.convert
        let name = spec.name
        return Option<Wrapped>(defaulted, absent: value) { text throws(UsageError) in
            guard let parsed = try convert(text) else {
                throw UsageError(description: "\(name): expected a value, got \"\(text)\"")
            }
            return parsed
        }
    }

    /// This option, shown inside `parent`'s brackets in the usage.
    public func within(_ parent: String) -> Self {
        var refined = self
        refined.spec = spec.within(parent)
        return refined
    }

    /// This option, shown as one the command needs.
    public func required() -> Self {
        var required = self
        required.spec = spec.required()
        return required
    }
}

extension Option where Value == Bool {
    /// A boolean flag: true when given.
    public static func flag(_ name: String, _ help: String) -> Self {
        Self(.flag(name, help), absent: false) { _ in true }
    }
}

extension Option where Value == String? {
    /// An option taking any text; `nil` when not given.
    public static func text(_ name: String, _ value: String, _ help: String) -> Self {
        Self(.option(name, value, help), absent: nil) { $0 }
    }

    /// An option naming a file or directory read; `nil` when not given.
    public static func path(_ name: String, _ value: String, _ help: String) -> Self {
        Self(.path(name, value, help), absent: nil) { $0 }
    }
}

extension Option where Value == Destination? {
    /// An option naming a file written (`.file`) or a directory written into (`.directory`),
    /// checked when parsed, before any work (see ``Destination``); `nil` when not given.
    public static func output(
        _ name: String, _ value: String, _ help: String, _ kind: Destination.Kind = .file
    ) -> Self {
        Self(.output(name, value, help, kind), absent: nil) { path throws(UsageError) in
            try Arguments.destination(path, as: kind, for: name)
        }
    }
}

extension Option where Value == Double? {
    /// An option taking a number within `range`; `nil` when not given.
    public static func number(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Double>
    ) -> Self {
        Self(.number(name, value, help, in: range), absent: nil) { text throws(UsageError) in
            try parseValue(text, of: name, expected: "a number")
        }
    }
}

extension Option where Value == Double {
    /// An option taking a number within `range`, `defaultValue` when not given.
    public static func number(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Double>,
        default defaultValue: Double
    ) -> Self {
        Option<Double?>.number(name, value, help, in: range)
            .defaulting(to: defaultValue, shown: defaultValue.trimmed())
    }
}

extension Option where Value == Duration? {
    /// An option taking a number of seconds within `range`; `nil` when not given.
    public static func seconds(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Double>
    ) -> Self {
        Option<Double?>.number(name, value, help, in: range).map { $0.map { Duration.seconds($0) } }
    }
}

extension Option where Value == Duration {
    /// An option taking a number of seconds within `range`, `defaultValue` when not given.
    public static func seconds(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Double>,
        default defaultValue: Double
    ) -> Self {
        Option<Double>.number(name, value, help, in: range, default: defaultValue)
            .map { Duration.seconds($0) }
    }
}

extension Option where Value == FrameRate {
    /// An option taking frames per second within `range`, `defaultValue` when not given.
    public static func frameRate(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Double>,
        default defaultValue: Double
    ) -> Self {
        Option<Double>.number(name, value, help, in: range, default: defaultValue)
            .map(FrameRate.init(framesPerSecond:))
    }
}

extension Option where Value == Int? {
    /// An option taking an integer within `range`; `nil` when not given.
    public static func integer(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Int>
    ) -> Self {
        Self(.integer(name, value, help, in: range), absent: nil) { text throws(UsageError) in
            try parseValue(text, of: name, expected: "an integer")
        }
    }
}

extension Option where Value == Int {
    /// An option taking an integer within `range`, `defaultValue` when not given.
    public static func integer(
        _ name: String, _ value: String, _ help: String, in range: ClosedRange<Int>,
        default defaultValue: Int
    ) -> Self {
        Option<Int?>.integer(name, value, help, in: range)
            .defaulting(to: defaultValue, shown: String(defaultValue))
    }
}

extension Option {
    /// An option taking one of `Value`'s cases by raw value, `defaultValue` when not given.
    public static func choice(_ name: String, _ help: String, default defaultValue: Value) -> Self
    where Value: CaseIterable & RawRepresentable<String> {
        Self(
            .choice(
                name, Value.allCases.map(\.rawValue), help, default: defaultValue.rawValue),
            absent: defaultValue
        ) { text throws(UsageError) in try parseChoice(text, of: name) }
    }

    /// An option taking one of `Choice`'s cases by raw value; `nil` when not given.
    public static func choice<Choice>(_ name: String, _ help: String) -> Self
    where Value == Choice?, Choice: CaseIterable & RawRepresentable<String> & Sendable {
        Self(.choice(name, Choice.allCases.map(\.rawValue), help), absent: nil) {
            text throws(UsageError) in try parseChoice(text, of: name) as Choice
        }
    }

    /// An option taking one of the words `choices`, each made a value by `make`;
    /// `defaultValue`'s word when not given.
    public static func choice(
        _ name: String, _ choices: [String], _ help: String, default defaultValue: String,
        make: @escaping @Sendable (String) -> Value?
    ) -> Self {
        guard let absent = make(defaultValue) else {
            preconditionFailure("\(name): its default \(defaultValue) is not one of its choices")
        }
        return Self(.choice(name, choices, help, default: defaultValue), absent: absent) {
            text throws(UsageError) in
            guard let value = make(text) else {
                throw UsageError(description: "\(name): no such choice \"\(text)\"")
            }
            return value
        }
    }
}

/// `text` as a `Parsed` (already checked against the option's range); `expected` names the
/// kind in the message.
private func parseValue<Parsed: LosslessStringConvertible>(
    _ text: String, of name: String, expected: String
) throws(UsageError) -> Parsed {
    guard let value = Parsed(text) else {
        throw UsageError(description: "\(name): expected \(expected), got \"\(text)\"")
    }
    return value
}

/// `text` as a case of `Choice` (already checked against the option's words).
private func parseChoice<Choice: RawRepresentable<String>>(_ text: String, of name: String)
    throws(UsageError) -> Choice
{
    guard let choice = Choice(rawValue: text) else {
        throw UsageError(description: "\(name): no such choice \"\(text)\"")
    }
    return choice
}

/// A command's parsed arguments read through its typed options (see ``CommandOptions``).
public struct Parsed<Options: CommandOptions>: Sendable {
    /// The arguments, parsed.
    public let arguments: Arguments
    private let options = Options()

    /// The command's name, for messages.
    public var command: String { arguments.command }
    /// Positional arguments in order (those after `--` included).
    public var positionals: [String] { arguments.positionals }
    /// The words after `--`, when it was given.
    public var afterSeparator: [String]? { arguments.afterSeparator }

    /// The value of the option at `key`: given, or the option's value when absent.
    public subscript<Value>(_ key: KeyPath<Options, Option<Value>>) -> Value {
        arguments[options[keyPath: key]]
    }

    /// Whether the option at `key` was given on the command line.
    public func isGiven<Value>(_ key: KeyPath<Options, Option<Value>>) -> Bool {
        arguments.isGiven(options[keyPath: key].spec.name)
    }

    /// The names of the options given, in the order the command declares them (for rules
    /// written as tables of names).
    public var givenNames: [String] {
        Options.declarations.map(\.spec.name).filter(arguments.isGiven)
    }

    /// The option at `key`'s name, for messages.
    public func name<Value>(_ key: KeyPath<Options, Option<Value>>) -> String {
        options[keyPath: key].spec.name
    }

    /// The one positional argument named `name` in messages; exactly one is expected.
    public func single(_ name: String) throws(UsageError) -> String { try arguments.single(name) }

    /// Throws unless there are no positional arguments.
    public func expectNoPositionals() throws(UsageError) { try arguments.expectNoPositionals() }
}
