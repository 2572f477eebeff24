import CLI
import Capture
import Daemon
import Files

/// `headroom profiles`: the built-in and calibrated device profiles, their budgets and sensors.
enum ProfilesCommand {
    static let command = Command(
        name: "profiles",
        forms: [
            UsageForm("", ["--json"]), UsageForm("", ["--v4l2", "--name", "--profile"]),
        ],
        summary: "List the device profiles: budgets, camera ports, sensors and their formats.",
        details: "Lists the built-in profiles, then the calibrated ones (NAME.json files in"
            + " $XDG_CONFIG_HOME/headroom/profiles; `headroom calibrate` writes \"host\")."
            + " Custom profiles are JSON files in the same schema (`--json` shows it); pass one"
            + " with --profile FILE or as a session's \"profile\". --v4l2 FILE reads what"
            + " `v4l2-ctl --list-formats-ext` printed for a camera (- for standard input) and"
            + " prints a profile (JSON) with that camera's modes on this machine's budgets"
            + " (--profile, default the generic one); save it as NAME.json in the profiles"
            + " directory.",
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            if let listing = arguments[\.v4l2] {
                let text = String(decoding: try InputFile.read(listing), as: UTF8.self)
                let formats = try V4L2FormatList(parsing: text, file: listing)
                var profile =
                    try arguments[\.profile].map {
                        try SessionInput.profile($0, override: true, file: nil)
                    } ?? .genericDesktop
                profile = profile.withV4L2Camera(formats, sensor: "v4l2", from: listing)
                profile.name = arguments[\.name] ?? "v4l2-camera"
                for skipped in formats.skipped { Console.error("headroom profiles: \(skipped)") }
                Console.json(profile)
                return 0
            }
            let profiles = try ProfileCatalog.forThisUser.allProfiles()
            if arguments[\.json] {
                Console.json(profiles)
                return 0
            }
            var table = TextTable(
                headings: ["profile", "pixel rate", "memory", "ports", "sensors", "summary"],
                numericColumns: [1, 2, 3])
            for profile in profiles {
                table.rows.append([
                    profile.name, "\((profile.pixelRate / 1e6).fixed(2)) Mpx/s",
                    "\((profile.memoryBandwidth / 1e9).fixed(2)) GB/s",
                    String(profile.cameraPorts),
                    profile.sensors.map(\.name).joined(separator: ","), profile.summary,
                ])
            }
            Console.out(table.text)
            return 0
        })

    /// `headroom profiles`'s options.
    struct Options: CommandOptions {
        let json = Option<Bool>.flag(
            "--json", "print the profiles as JSON, with every number's source")
        let v4l2 = Option<String?>.path(
            "--v4l2", "FILE|-", "a camera's `v4l2-ctl --list-formats-ext` output"
        ).required()
        let name = Option<String?>.text(
            "--name", "NAME", "the new profile's name (default v4l2-camera)")
        /// The budgets the `--v4l2` profile starts from (default the generic one).
        let profile = SessionInput.profileOption
    }
}
