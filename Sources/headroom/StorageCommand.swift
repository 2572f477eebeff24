import CLI
import Capture
import Daemon
import Files
import Storage
import Units

/// `headroom storage status|allocate|release|replenish|measure`: the pro video storage reserve.
enum StorageCommand {
    /// The subcommands; every one takes `--storage` and `--json`, `status` `--destination` too.
    enum Subcommand: String, CaseIterable {
        case status, allocate, release, replenish, measure

        /// What the progress line says it is doing (only allocating and replenishing show
        /// one).
        var progressVerb: String {
            switch self {
            case .allocate: "allocating"
            case .replenish: "replenishing"
            case .status, .release, .measure: rawValue
            }
        }
    }

    /// An option naming the rate of another writer set beside the write-rate measurement
    /// (`50M`: 50 MiB a second), as a recorder's neighbour on the same disk writes; `nil` when
    /// not given.
    static func competitorOption(_ name: String, _ help: String) -> Option<DataRate?> {
        Option(.option(name, "RATE", help + ", RATE a second (50M), fsyncing"), absent: nil) {
            text throws(UsageError) in
            guard let bytes = ByteCount(parsing: text), bytes > .zero else {
                throw UsageError(
                    description:
                        "\(name): expected a rate a second such as 50M or 1.5G, got \"\(text)\"")
            }
            return DataRate(bytes, per: 1)
        }
    }

    /// The option every command that records takes.
    static let storageOption = Option<String?>.path(
        "--storage", "DIR",
        "the pro video storage reserve (default $XDG_DATA_HOME/headroom/storage)")

    static let command = Command(
        name: "storage",
        forms: [
            UsageForm("status", ["--destination", "--storage", "--json"]),
            UsageForm("allocate SIZE", ["--storage", "--json"]),
            UsageForm("release|replenish", ["--storage", "--json"]),
            UsageForm("measure", ["--seconds", "--competitor", "--storage", "--json"]),
        ],
        summary:
            "The pro video storage reserve: status, allocate SIZE, release, replenish, measure.",
        details: """
            The reserve is disk space set aside with fallocate before recording, so a movie
            output with "usesProVideoStorage": true never waits for the filesystem to find
            blocks. One reserve serves every Headroom process on the machine.
            status: supported (and why not), capacity, remaining, busy reasons (allocating,
            releasing, replenishing, recording), free space; --destination PATH also says
            whether a recording there is renamed into place or copied (another filesystem).
            allocate SIZE: keep SIZE reserved (512M, 4G, 1.5GiB; K/M/G/T and KiB... are powers
            of 1024, KB/MB/GB/TB of 1000), growing or shrinking the reserve; progress on a
            terminal. release: give it all back. replenish: recreate what recordings used.
            measure: the sustained rate at which the reserve takes a recording's writes (past
            the page cache, for --seconds, the slowest second of the second half), with
            another writer beside it at --competitor RATE a second when given (an fsync every
            32 MiB, as a recorder's neighbours on the disk write), stored in the host profile
            when `headroom calibrate` has made one (the estimator prices movie outputs against
            80 % of it); --json prints the measurement.
            Exit 1 when the reserve is busy or unsupported; 2 for a size that is zero, unreadable
            or over the filesystem's free space. Opening the reserve first recovers recordings
            of killed processes: cut to their last whole frame, kept as NAME.recovered.EXT.
            """,
        options: Options.self,
        run: { arguments in
            guard let name = arguments.positionals.first,
                let subcommand = Subcommand(rawValue: name)
            else {
                throw UsageError(
                    description:
                        "expected a subcommand: status, allocate, release, replenish or measure"
                        + (arguments.positionals.first.map { ", got \"\($0)\"" } ?? ""))
            }
            if arguments.isGiven(\.destination), subcommand != .status {
                throw UsageError(
                    description:
                        "\(arguments.name(\.destination)) does not apply to `storage \(name)`")
            }
            let measuring = [
                arguments.isGiven(\.seconds) ? arguments.name(\.seconds) : nil,
                arguments.isGiven(\.competitor) ? arguments.name(\.competitor) : nil,
            ]
            if subcommand != .measure, let option = measuring.compactMap({ $0 }).first {
                throw UsageError(description: "\(option) does not apply to `storage \(name)`")
            }
            let operands = Array(arguments.positionals.dropFirst())
            let size = try subcommand == .allocate ? parseSize(operands) : nil
            if subcommand != .allocate, let extra = operands.first {
                throw UsageError(description: "unexpected argument \"\(extra)\" after \(name)")
            }
            let directory = arguments[\.storage] ?? defaultDirectory
            do {
                let reserve = try open(directory)
                if subcommand == .measure {
                    return try measure(
                        reserve, seconds: arguments[\.seconds],
                        competitor: arguments[\.competitor], json: arguments[\.json])
                }
                let progress = Progress(verb: subcommand.progressVerb)
                switch subcommand {
                case .allocate: try reserve.allocate(size!, progress: progress.show)
                case .release: try reserve.release()
                case .replenish: try reserve.replenish(progress: progress.show)
                case .status, .measure: break
                }
                progress.finish()
                var status = try reserve.status(destination: arguments[\.destination])
                status.sustainedWriteRate = measuredWriteRate
                if arguments[\.json] {
                    Console.json(status)
                } else {
                    Console.out(text(status))
                }
                return 0
            } catch let error as StorageError {
                if error.isUsageError { throw UsageError(description: error.description) }
                if case .notSupported = error, subcommand == .status, !arguments[\.json] {
                    Console.out("reserve      \(directory)\nsupported    no: \(error)")
                    return 1
                }
                Console.error("headroom storage \(name): \(error)")
                return 1
            }
        })

    /// `headroom storage`'s options.
    struct Options: CommandOptions {
        let storage = StorageCommand.storageOption
        let destination = Option<String?>.path(
            "--destination", "PATH", "status: where a recording would go")
        let seconds = Option<Double>.number(
            "--seconds", "S", "measure: how long the write rate is measured", in: 0.5...600,
            default: 10)
        let competitor = StorageCommand.competitorOption(
            "--competitor", "measure: with another writer beside it")
        let json = Option<Bool>.flag("--json", "print the reserve's status as JSON")
    }

    /// `storage measure`: the reserve's sustained write rate, printed and stored in the host
    /// profile when there is one.
    private static func measure(
        _ reserve: StorageReserve, seconds: Double, competitor: DataRate?, json: Bool
    ) throws(StorageError) -> Int32 {
        let measurement = try WriteRateProbe.measure(
            in: reserve, seconds: seconds, competitor: competitor, clock: ContinuousRunClock())
        let catalog = ProfileCatalog.forThisUser
        var stored: String?
        if let path = catalog.calibratedPath(for: ProfileCatalog.hostProfileName),
            var profile = try? catalog.profile(ProfileCatalog.hostProfileName),
            profile.name == ProfileCatalog.hostProfileName
        {
            profile.storageWriteRate = measurement.rate
            profile.sources["storageWriteRate"] =
                "measured by headroom storage measure: "
                + measurement.summary(reserve: reserve.directory)
            do {
                try AtomicFile.write(Console.jsonData(profile), to: path)
                stored = path
            } catch {
                Console.error("headroom storage measure: \(path) was not written: \(error)")
            }
        }
        if json {
            Console.json(measurement)
            return 0
        }
        let profileLine =
            stored.map { "\($0): storageWriteRate updated" }
            ?? "none: not stored (`headroom calibrate` makes it)"
        let summary = measurement.summary(reserve: reserve.directory)
        Console.out(
            "write rate   \(measurement.rate) sustained: \(summary);"
                + " \(measurement.averageRate) over all of it\nhost profile \(profileLine)")
        return 0
    }

    /// The reserve directory unless `--storage` names one.
    static var defaultDirectory: String {
        StorageReserve.defaultDirectory(environment: ProcessFacts.environment)
    }

    /// The write rate `calibrate` stored in the host profile, if it did.
    private static var measuredWriteRate: DataRate? {
        (try? ProfileCatalog.forThisUser.profile(ProfileCatalog.hostProfileName))?.storageWriteRate
    }

    /// Opens the reserve at `directory`, telling stderr what it recovered.
    static func open(_ directory: String) throws(StorageError) -> StorageReserve {
        let reserve = try StorageReserve(directory: directory)
        for recovery in reserve.recovered { Console.error("headroom: \(recovery)") }
        return reserve
    }

    /// The one SIZE operand of `allocate`.
    private static func parseSize(_ operands: [String]) throws(UsageError) -> ByteCount {
        guard operands.count == 1 else {
            throw UsageError(
                description: operands.isEmpty
                    ? "allocate: expected SIZE, such as 512M, 4G or 1.5GiB"
                    : "allocate: expected one SIZE, got \(operands.count) arguments")
        }
        guard let size = ByteCount(parsing: operands[0]) else {
            throw UsageError(
                description:
                    "SIZE: expected a size such as 512M, 4G or 1.5GiB, got \"\(operands[0])\"")
        }
        guard size > .zero else {
            throw UsageError(
                description: "SIZE: expected more than 0 bytes (`storage release` frees it all)")
        }
        return size
    }

    /// The status for people.
    static func text(_ status: StorageStatus) -> String {
        var rows: [(String, String)] = [("reserve", "\(status.path) (\(status.filesystem))")]
        rows.append(
            ("supported", status.isSupported ? "yes" : "no: \(status.unsupportedReason ?? "")"))
        rows.append(
            (
                "capacity",
                status.capacityBytes > .zero
                    ? "\(status.capacityBytes) in segments of \(status.segmentBytes)"
                    : "none (`headroom storage allocate SIZE` sets one aside)"
            ))
        rows.append(
            (
                "remaining",
                "\(status.remainingBytes)"
                    + (status.needsReplenishing
                        ? " (`headroom storage replenish` restores it)" : "")
            ))
        let busy = status.busyReasons.map(\.rawValue).joined(separator: ", ")
        rows.append(
            (
                "busy",
                busy.isEmpty
                    ? "no"
                    : busy + (status.recordings > 0 ? " (\(status.recordings) recording(s))" : "")
            ))
        rows.append(("free space", "\(status.freeBytes) outside the reserve"))
        rows.append(
            (
                "write rate",
                status.sustainedWriteRate.map {
                    "\($0) sustained (the host profile's: recordings are priced against 80 %)"
                }
                    ?? "not measured (`headroom calibrate` measures it)"
            ))
        if let destination = status.destination, let same = status.destinationIsSameFilesystem {
            rows.append(
                (
                    "destination",
                    "\(destination): "
                        + (same
                            ? "same filesystem, a finished recording is renamed into place"
                            : "another filesystem, a finished recording is copied (slower, needs the space twice)")
                ))
        }
        return rows.map {
            "\($0.0 + String(repeating: " ", count: max(0, 12 - $0.0.count))) \($0.1)"
        }
        .joined(separator: "\n")
    }
}

/// A progress line on a terminal's stderr for long reserve work; silent in a pipe.
private final class Progress: Sendable {
    let verb: String
    let isShown = Console.isErrorTerminal

    init(verb: String) { self.verb = verb }

    /// Redraws the line with `held` of `target`.
    func show(_ held: ByteCount, _ target: ByteCount) {
        guard isShown, target > .zero else { return }
        let percent = Int(Double(held.bytes) / Double(target.bytes) * 100)
        Console.errorRedraw("\(verb) \(held) of \(target) (\(percent) %)")
    }

    /// Ends the line.
    func finish() {
        if isShown { Console.errorWrite("\r\u{1B}[K") }
    }
}
