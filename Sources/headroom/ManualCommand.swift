import CLI

/// `headroom manual`: the manual page headroom(1), in roff, written from the same declarations
/// as `--help` and the completions — every command's usage, summary, details and options — so
/// it never falls behind them. `headroom manual | man -l -` shows it; the package installs it.
enum ManualCommand {
    static let command = Command(
        name: "manual",
        forms: [UsageForm()],
        summary: "Print the manual page headroom(1) in roff (`headroom manual | man -l -`).",
        details: """
            Written from the commands' own declarations, as --help and the completions are: one
            section per command with its usage, what it does and its options.
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            Console.write(ManualPage(commands: commands).roff)
            return 0
        })

    /// `headroom manual`'s options: none besides `--help`.
    struct Options: CommandOptions {}
}

/// headroom(1) for a list of commands, in the `man` macros.
struct ManualPage {
    var commands: [Command]

    /// The page.
    var roff: String {
        var lines = [
            #".TH HEADROOM 1 "" "headroom \#(headroomVersion)" "Headroom""#,
            ".SH NAME",
            #"headroom \- price camera sessions, watch thermal pressure, govern pipelines and time launches"#,
            ".SH SYNOPSIS",
            #".B headroom"#,
            #".I command"#,
            "[\\fIoptions\\fR]",
            ".br",
            ".B headroom",
            "\\fIcommand\\fR \\fB\\-\\-help\\fR",
            ".SH DESCRIPTION",
            Self.text(
                "Headroom prices a capture session before it is committed, reads thermal and"
                    + " power pressure with an Android-compatible headroom forecast, governs"
                    + " camera pipelines (its own and others') with hysteresis, times launches"
                    + " and records video through a preallocated reserve. Each command below"
                    + " is also described by `headroom COMMAND --help`."),
            ".SH COMMANDS",
        ]
        for command in commands {
            lines += section(command)
        }
        lines += [
            ".SH EXIT STATUS",
            Self.text(
                "0 success, 1 a check failed (a session over budget, a failed run, a launch"
                    + " regression), 2 bad usage or bad input (a message on standard error names"
                    + " the option or the field and what was expected), 128 + N when stopped by"
                    + " signal N (a run's report is still written)."),
            ".SH ENVIRONMENT",
            ".TP",
            ".B HEADROOM_SYSFS_ROOT\\fR, \\fBHEADROOM_PROCFS_ROOT",
            Self.text("Read sensors and PSI from these trees instead of /sys and /proc."),
            ".TP",
            ".B NO_COLOR",
            Self.text("No colour, even on a terminal."),
            ".SH SEE ALSO",
            ".BR headroom.service (8),",
            ".BR systemd.service (5),",
            ".BR sensors (1)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command's section: its usage, summary, details and options.
    private func section(_ command: Command) -> [String] {
        var lines = [".SS \(Self.escaped(command.name))", ".nf"]
        // The usage lines without their "usage: " lead (continuations keep their indent).
        lines += command.usage.split(separator: "\n").map { line in
            Self.escaped(String(line.dropFirst("usage: ".count)))
        }
        lines += [".fi", Self.text(command.summary)]
        if !command.details.isEmpty {
            lines += [
                ".PP", Self.text(command.details.split(separator: "\n").joined(separator: " ")),
            ]
        }
        for option in command.options {
            lines.append(".TP")
            let value = option.value.map { " \\fI\(Self.escaped($0))\\fR" } ?? ""
            lines.append("\\fB\(Self.escaped(option.name))\\fR\(value)")
            lines.append(Self.text(option.help + option.helpSuffix))
        }
        return lines
    }

    /// `text` as a roff text line: backslashes and hyphens escaped, never starting a request.
    static func text(_ text: String) -> String {
        let escaped = escaped(text)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// `text` with roff's special characters escaped.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
