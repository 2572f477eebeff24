import Files

/// What `main` dispatches to: a command's name, its help, its options and its body.
public struct Command: Sendable {
    /// The word after `headroom`.
    public var name: String
    /// The ways to call it, from which ``usage`` is written (one form of every option by
    /// default).
    public var forms: [UsageForm] = [UsageForm()]
    /// One line for the command list.
    public var summary: String
    /// Paragraphs printed by `--help` after the usage.
    public var details: String = ""
    /// The options it accepts, besides `--help`, as declared: each parses its own value.
    public var declarations: [any OptionDeclaration]
    /// Runs the command; returns the exit code (0 success, 1 a check failed).
    /// Throws `UsageError` or `ConfigurationError` for bad input (exit 2).
    public var run: @Sendable (Arguments) async throws -> Int32

    /// A command whose options are `options`'s typed declarations, read by `run` through
    /// key paths into them (``Parsed``).
    public init<Options: CommandOptions>(
        name: String, forms: [UsageForm] = [UsageForm()], summary: String, details: String = "",
        options: Options.Type,
        run: @escaping @Sendable (Parsed<Options>) async throws -> Int32
    ) {
        self.name = name
        self.forms = forms
        self.summary = summary
        self.details = details
        declarations = Options.declarations
        self.run = { arguments in try await run(Parsed(arguments: arguments)) }
    }

    /// The options it accepts, besides `--help`.
    public var options: [OptionSpec] { declarations.map(\.spec) }

    /// The `--help` text.
    public var help: String {
        var text = "\(usage)\n\n\(summary)\n"
        if !details.isEmpty { text += "\n\(details)\n" }
        let all = options + [.flag("--help", "show this help")]
        let width = all.map { optionLabel($0).count }.max() ?? 0
        text += "\noptions:\n"
        for option in all {
            let label = optionLabel(option)
            text +=
                "  \(label)\(String(repeating: " ", count: width - label.count))  \(option.help)\(option.helpSuffix)\n"
        }
        return text
    }

    private func optionLabel(_ option: OptionSpec) -> String {
        option.value.map { "\(option.name) \($0)" } ?? option.name
    }
}

extension Command {
    /// Runs the command on `words` (what follows its name) and maps failures to exit codes:
    /// `--help` prints the help (0); bad usage or bad input is 2, with the message on stderr
    /// after `program` and the command's name; any other failure is 1.
    public func main(_ words: [String], program: String = "headroom") async -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            Console.out(help)
            return 0
        }
        do {
            let arguments = try Arguments(command: name, words: words, options: declarations)
            return try await run(arguments)
        } catch let error as UsageError {
            Console.error("\(program) \(name): \(error)")
            return 2
        } catch let error as ConfigurationError {
            Console.error("\(program) \(name): \(error)")
            return 2
        } catch {
            Console.error("\(program) \(name): \(error)")
            return 1
        }
    }
}
