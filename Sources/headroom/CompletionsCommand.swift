import CLI

/// `headroom completions bash|zsh|fish`: shell completions, generated from the commands'
/// option declarations (so they never fall behind the parser).
enum CompletionsCommand {
    static let command = Command(
        name: "completions",
        forms: [UsageForm("bash|zsh|fish")],
        summary: "Print shell completions for bash, zsh or fish.",
        details: """
            bash: `source <(headroom completions bash)` (or save it in
            /etc/bash_completion.d/headroom). zsh: `source <(headroom completions zsh)`. fish:
            `headroom completions fish > ~/.config/fish/completions/headroom.fish`. Commands,
            their options, the words a choice accepts and file names complete.
            """,
        options: Options.self,
        run: { arguments in
            let shell = try arguments.single("SHELL")
            guard let script = Completions(commands: commands).script(for: shell) else {
                throw UsageError(description: "SHELL: expected bash, zsh or fish, got \"\(shell)\"")
            }
            Console.write(script)
            return 0
        })

    /// `headroom completions`'s options: none besides `--help`.
    struct Options: CommandOptions {}
}

/// The completion scripts for a list of commands.
struct Completions {
    var commands: [Command]

    /// The script for `shell`, or `nil` for a shell it does not know.
    func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": "autoload -U +X bashcompinit && bashcompinit\n" + bash
        case "fish": fish
        default: nil
        }
    }

    /// Every option a command accepts, `--help` included.
    private func options(of command: Command) -> [OptionSpec] {
        command.options + [.flag("--help", "show this help")]
    }

    /// A bash function: the command word, then per command its options, and after an option
    /// with a value the words it accepts (choices) or file names.
    var bash: String {
        var cases = ""
        for command in commands {
            var values = ""
            for option in options(of: command) {
                switch option.kind {
                case .choice(let words):
                    values +=
                        "        \(option.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                case .path:
                    values +=
                        "        \(option.name)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                case .text, .number, .integer:
                    values += "        \(option.name)) return ;;\n"
                case .flag:
                    break
                }
            }
            let names = options(of: command).map(\.name).joined(separator: " ")
            cases += """
                  \(command.name))
                    case "$prev" in
                \(values)    esac
                    COMPREPLY=($(compgen -W "\(names)" -- "$cur"))
                    [[ $cur == -* ]] || COMPREPLY+=($(compgen -f -- "$cur"))
                    ;;

                """
        }
        return """
            # headroom \(headroomVersion) completions for bash: source <(headroom completions bash)
            _headroom() {
              local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
              if ((COMP_CWORD == 1)); then
                COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) --help --version" -- "$cur"))
                return
              fi
              case ${COMP_WORDS[1]} in
            \(cases)  esac
            }
            complete -F _headroom headroom

            """
    }

    /// fish `complete` lines: commands with their summaries, options with their help.
    var fish: String {
        var lines = [
            "# headroom \(headroomVersion) completions for fish",
            "complete -c headroom -f",
            "complete -c headroom -n __fish_use_subcommand -l version -d 'print the release'",
        ]
        for command in commands {
            lines.append(
                "complete -c headroom -n __fish_use_subcommand -a \(command.name) -d \(quoted(command.summary))"
            )
            for option in options(of: command) {
                var line =
                    "complete -c headroom -n '__fish_seen_subcommand_from \(command.name)'"
                    + " -l \(option.name.dropFirst(2)) -d \(quoted(option.help))"
                switch option.kind {
                case .choice(let words): line += " -x -a \(quoted(words.joined(separator: " ")))"
                case .path: line += " -r -F"
                case .text, .number, .integer: line += " -x"
                case .flag: break
                }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in single quotes for fish.
    private func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
