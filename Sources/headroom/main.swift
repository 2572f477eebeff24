import CLI
import Daemon
import Files

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom <command> [options]`: dispatches to a command and maps failures to exit codes:
/// 0 success, 1 a check failed, 2 bad usage or bad input (message on stderr, nothing on stdout).
func headroomMain(_ words: [String]) async -> Int32 {
    guard let name = words.first, !["--help", "-h", "help"].contains(name) else {
        Console.out(overview)
        return words.isEmpty ? 2 : 0
    }
    if name == "--version" {
        Console.out("headroom \(headroomVersion)")
        return 0
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        Console.error(
            "headroom: unknown command \"\(name)\""
                + Suggestion.hint(for: name, among: commands.map(\.name))
                + "; see `headroom --help`")
        return 2
    }
    let rest = Array(words.dropFirst())
    if command.name == ServeCommand.command.name, !rest.contains("--help"), !rest.contains("-h") {
        // The resident daemon runs as `headroomd`, which links none of the pipeline (OpenCV):
        // this process becomes it where it is installed beside this one.
        DaemonExecutable.replaceProcess(arguments: rest)
    }
    return await command.main(rest)
}

/// The command list shown by `headroom --help`.
let overview: String = {
    let width = commands.map(\.name.count).max() ?? 0
    let lines = commands.map {
        "  \($0.name)\(String(repeating: " ", count: width - $0.name.count))  \($0.summary)"
    }
    return """
        usage: headroom <command> [options]

        Headroom prices camera sessions, watches thermal pressure and times launches.

        commands:
        \(lines.joined(separator: "\n"))

        `headroom <command> --help` describes a command; `headroom --version` says which
        release this is. Exit codes: 0 success, 1 a check failed, 2 bad usage or bad input.
        Colour only on a terminal, never with NO_COLOR set.

        """
}()

exit(await headroomMain(Array(CommandLine.arguments.dropFirst())))
