import Files
import Testing

@testable import CLI
@testable import Daemon
@testable import headroom

/// The declarative option layer: what `headroom` accepts and refuses, and that help and
/// completions come from the same declarations.
struct ArgumentsTests {
    enum Switch: String, CaseIterable, Sendable {
        case on, off
    }

    struct TestOptions: CommandOptions {
        let seconds = Option<Duration>.seconds(
            "--seconds", "S", "how long", in: 1...600, default: 20)
        let seed = Option<Int?>.integer("--seed", "N", "the seed", in: 0...100)
        let governor = Option<Switch>.choice("--governor", "the governor", default: .on)
        let out = Option<String?>.path("--out", "DIR", "where")
        let json = Option<Bool>.flag("--json", "JSON")
    }

    func parse(_ words: [String]) throws(UsageError) -> Parsed<TestOptions> {
        Parsed(
            arguments: try Arguments(
                command: "test", words: words, options: TestOptions.declarations))
    }

    func refusal(_ words: [String]) -> String? {
        do {
            _ = try parse(words)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("values, defaults, flags, `=` and positionals")
    func parses() throws {
        let arguments = try parse(["a", "--seconds", "30", "--seed=7", "--json", "b"])
        #expect(arguments[\.seconds] == .seconds(30))
        #expect(arguments[\.seed] == 7)
        #expect(arguments[\.governor] == .on)
        #expect(arguments.isGiven(\.seconds) && !arguments.isGiven(\.governor))
        #expect(arguments[\.json] && arguments[\.out] == nil)
        #expect(arguments.positionals == ["a", "b"])
        let defaults = try parse([])
        #expect(defaults[\.seconds] == .seconds(20))
        #expect(defaults[\.seed] == nil)
        #expect(defaults[\.out] == nil && !defaults[\.json])
        #expect(try parse(["--governor", "off"])[\.governor] == .off)
    }

    @Test("after `--` everything is positional, options and `-` included")
    func separator() throws {
        let arguments = try parse(["--json", "--", "--seconds", "-", "-x"])
        #expect(arguments.positionals == ["--seconds", "-", "-x"])
        #expect(arguments[\.seconds] == .seconds(20))
        #expect(try parse(["-"]).positionals == ["-"])
    }

    @Test(
        "every mistake names the option and what was expected",
        arguments: [
            (["--bogus"], "unknown option --bogus; see `headroom test --help`"),
            (["-x"], "unknown option -x; see `headroom test --help`"),
            (
                ["--secnods", "5"],
                "unknown option --secnods (did you mean --seconds?); see `headroom test --help`"
            ),
            (["--seconds", "5", "--seconds", "6"], "--seconds: given twice; expected it once"),
            (["--json", "--json"], "--json: given twice; expected it once"),
            (["--seconds"], "--seconds: expected a value (S)"),
            (["--out", "--json"], "--out: expected a value (DIR)"),
            (["--seconds", "0"], "--seconds: expected a number from 1 to 600, got \"0\""),
            (["--seconds", "nan"], "--seconds: expected a number from 1 to 600, got \"nan\""),
            (["--seconds=ten"], "--seconds: expected a number from 1 to 600, got \"ten\""),
            (["--seed", "1.5"], "--seed: expected an integer from 0 to 100, got \"1.5\""),
            (["--governor", "maybe"], "--governor: expected on or off, got \"maybe\""),
            (["--json=yes"], "--json: is a flag and takes no value"),
            (["--out", ""], "--out: expected a path, got an empty one"),
        ] as [([String], String)])
    func refuses(words: [String], message: String) {
        #expect(refusal(words) == message)
    }

    @Test("a negative number is a value, checked against the range")
    func negativeValue() {
        #expect(
            refusal(["--seconds", "-3"]) == "--seconds: expected a number from 1 to 600, got \"-3\""
        )
    }

    @Test("help shows each option's range and default from its declaration")
    func help() {
        let command = Command(
            name: "test", summary: "A test.", options: TestOptions.self, run: { _ in 0 })
        #expect(command.help.contains("--seconds S        how long (1 to 600, default 20)"))
        #expect(command.help.contains("--governor on|off  the governor (default on)"))
        #expect(command.help.contains("--seed N           the seed (0 to 100)"))
    }

    @Test("every real command parses its own defaults, and completions list its options")
    func realCommands() throws {
        let bash = try #require(Completions(commands: commands).script(for: "bash"))
        let fish = try #require(Completions(commands: commands).script(for: "fish"))
        for command in commands {
            _ = try Arguments(command: command.name, words: [], options: command.declarations)
            let names = command.options.map(\.name)
            #expect(
                Set(names).count == names.count, "headroom \(command.name) declares a name twice")
            #expect(bash.contains("  \(command.name))"))
            #expect(fish.contains("-a \(command.name) "))
            for option in command.options {
                #expect(bash.contains(option.name))
                #expect(fish.contains("-l \(option.name.dropFirst(2)) "))
                if let value = option.defaultValue { try option.check(value) }
            }
        }
        #expect(bash.contains("--governor) COMPREPLY=($(compgen -W \"on off pressure-only\""))
        #expect(Completions(commands: commands).script(for: "tcsh") == nil)
    }

    @Test("usage is written from the declarations: every option in it, none it does not take")
    func usageListsEveryOption() {
        for command in commands {
            let words = Set(
                command.usage.split(whereSeparator: { " []|\n".contains($0) }).map(String.init))
            for option in command.options where !words.contains(option.name) {
                Issue.record("headroom \(command.name): usage lacks \(option.name)")
            }
            let declared = Set(command.options.map(\.name))
            for form in command.forms {
                for name in form.names(options: command.options) where !declared.contains(name) {
                    Issue.record("headroom \(command.name): a usage form names \(name)")
                }
            }
            for option in command.options {
                if let parent = option.parent, !declared.contains(parent) {
                    Issue.record("headroom \(command.name): \(option.name) refines \(parent)")
                }
            }
        }
    }

    @Test("a usage form nests refinements, leaves required options bare and wraps at 100 columns")
    func usageForm() {
        struct DemoOptions: CommandOptions {
            let a = Option<Bool>.flag("--a", "a")
            let b = Option<String?>.text("--b", "B", "b")
            let source = Option<String?>.path("--source", "FILE", "source").required()
            let pace = Option<String?>.text("--pace", "MODE", "pace").within("--source")
            let long = Option<String?>.text("--long", String(repeating: "X", count: 60), "long")
        }
        let command = Command(
            name: "demo",
            forms: [
                UsageForm("FILE"), UsageForm("other", [.oneOf(["--a", "--b"])], then: "-- CMD"),
            ],
            summary: "", options: DemoOptions.self, run: { _ in 0 })
        #expect(
            command.usage == """
                usage: headroom demo FILE --source FILE [--pace MODE] [--a] [--b B]
                                     [--long \(String(repeating: "X", count: 60))]
                       headroom demo other [--a | --b B] -- CMD
                """)
    }

    @Test("every option a command writes to is declared as a destination, checked before work")
    func destinationsAreDeclared() {
        // Option names that mean "write a file here", in any command. (`launch measure
        // --output` is a stream the program writes into, so /dev/null is a fine one.)
        let written: Set<String> = [
            "--out", "--out-dir", "--record", "--record-pressure", "--annotate", "--video",
            "--textfile",
        ]
        for command in commands {
            for option in command.options where written.contains(option.name) {
                guard case .path(.output) = option.kind else {
                    Issue.record("headroom \(command.name) \(option.name) is not a destination")
                    continue
                }
            }
        }
    }

    @Test("a destination option checks its path: a FIFO, /proc and an empty path are refused")
    func destinationOption() throws {
        struct WriterOptions: CommandOptions {
            let out = Option<Destination?>.output("--out", "FILE", "where")
            let dir = Option<Destination?>.output("--dir", "DIR", "where", .directory)
        }
        func parse(_ words: [String]) throws(UsageError) -> Parsed<WriterOptions> {
            Parsed(
                arguments: try Arguments(
                    command: "test", words: words, options: WriterOptions.declarations))
        }
        #expect(try parse([])[\.out] == nil)
        #expect(try parse(["--out", "/tmp/x.json"])[\.out]?.path == "/tmp/x.json")
        #expect(throws: UsageError.self) { try parse(["--out", "/dev/null"]) }
        #expect(throws: UsageError.self) { try parse(["--dir", "/proc/x"]) }
        let error = try #require(throws: UsageError.self) { try parse(["--out", "/dev/null"]) }
        #expect(error.description.hasPrefix("--out: /dev/null: is a character device"))
    }

    @Test("a live line is cut to the terminal's width; colours take no column and are reset")
    func liveLinesFitTheTerminal() {
        #expect(Console.fitted("0123456789", columns: 8) == "0123456")
        #expect(Console.fitted("0123456789", columns: nil) == "0123456789")
        #expect(Console.fitted("0123", columns: 80) == "0123")
        let painted = "ab\u{1B}[1;31mcritical\u{1B}[0m tail"
        #expect(Console.fitted(painted, columns: 80) == painted)
        #expect(Console.fitted(painted, columns: 6) == "ab\u{1B}[1;31mcri\u{1B}[0m")
        #expect(Console.fitted("°C and more", columns: 3) == "°C")
    }

    @Test("a table with a line width: a cell too long for it runs on, the numbers stay aligned")
    func tablesKeepTheirNumbersAlignedPastALongCell() {
        let rows = [["frames", "50"], ["source", "/a/long/path/to/a/video.avi"], ["calls", "7"]]
        #expect(
            TextTable(headings: ["", ""], rows: rows, numericColumns: [1], lineWidth: 12).text
                == "\nframes  50\nsource  /a/long/path/to/a/video.avi\ncalls    7")
        #expect(
            TextTable(headings: ["", ""], rows: rows, numericColumns: [1]).text.contains(
                "frames                           50"))
    }

    @Test("diagnostics show control characters as escapes and cut very long lines")
    func printableDiagnostics() {
        #expect(Console.printable("id \u{1B}[31mred\u{07}") == "id \\u{1B}[31mred\\u{7}")
        #expect(Console.printable("tab\tand\nline") == "tab\tand\nline")
        let long = Console.printable(String(repeating: "x", count: 15_000_000))
        #expect(long.count < 1_100 && long.hasSuffix("(14999000 more characters)"))
    }
}
