/// What `main` dispatches to: a command's name, its help, its options and its body.
struct Command: Sendable {
    /// The word after `headroom`.
    var name: String
    /// The ways to call it, from which ``usage`` is written (one form of every option by
    /// default).
    var forms: [UsageForm] = [UsageForm()]
    /// One line for the command list.
    var summary: String
    /// Paragraphs printed by `--help` after the usage.
    var details: String = ""
    /// The options it accepts, besides `--help`, as declared: each parses its own value.
    var declarations: [any OptionDeclaration]
    /// Runs the command; returns the exit code (0 success, 1 a check failed).
    /// Throws `UsageError` or `ConfigurationError` for bad input (exit 2).
    var run: @Sendable (Arguments) async throws -> Int32

    /// A command whose options are `options`'s typed declarations, read by `run` through
    /// key paths into them (``Parsed``).
    init<Options: CommandOptions>(
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
    var options: [OptionSpec] { declarations.map(\.spec) }

    /// The `--help` text.
    var help: String {
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
