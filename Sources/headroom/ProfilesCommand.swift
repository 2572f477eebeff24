import Capture

/// `headroom profiles`: the built-in and calibrated device profiles, their budgets and sensors.
enum ProfilesCommand {
    static let command = Command(
        name: "profiles",
        usage: "[--json]",
        summary: "List the device profiles: budgets, camera ports, sensors and their formats.",
        details: "Lists the built-in profiles, then the calibrated ones (NAME.json files in"
            + " $XDG_CONFIG_HOME/headroom/profiles; `headroom calibrate` writes \"host\")."
            + " Custom profiles are JSON files in the same schema (`--json` shows it); pass one"
            + " with --profile FILE or as a session's \"profile\".",
        options: [.flag("--json", "print the profiles as JSON, with every number's source")],
        run: { arguments in
            try arguments.expectNoPositionals()
            let profiles = try ProfileCatalog().allProfiles()
            if arguments.has("--json") {
                Console.json(profiles)
                return 0
            }
            var table = TextTable(
                headings: ["profile", "pixel rate", "memory", "ports", "sensors", "summary"],
                numericColumns: [1, 2, 3])
            for profile in profiles {
                table.rows.append([
                    profile.name, "\((profile.pixelRate / 1e6).shortDecimal) Mpx/s",
                    "\((profile.memoryBandwidth / 1e9).shortDecimal) GB/s",
                    String(profile.cameraPorts),
                    profile.sensors.map(\.name).joined(separator: ","), profile.summary,
                ])
            }
            Console.out(table.text)
            return 0
        })
}
