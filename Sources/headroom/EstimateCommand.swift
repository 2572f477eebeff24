import CLI
import Capture
import FoundationEssentials
import Storage

/// `headroom estimate FILE`: the hardware cost of a session with its breakdown.
enum EstimateCommand {
    static let command = Command(
        name: "estimate",
        forms: [UsageForm("FILE")],
        summary: "Price a capture session: hardware cost with its breakdown (exit 1 when over 1).",
        details: """
            The cost is the share of the most used budget (pixel rate, memory bandwidth, camera
            ports); over 1 the session cannot run. --json prints {"hardwareCost", "fits",
            "limitingBudget", "profile", "budgets": [...], "cameras": [{"id", "cost",
            "pixelRateShare", "memoryBandwidthShare", "storageWriteShare", "factors"}]}.
            Movie outputs write Y4M; with a profile that has a storageWriteRate (`headroom
            calibrate` measures the reserve's), their data rate is a budget too.
            --duration SECONDS: whether the movie outputs fit that long in the pro video
            storage reserve's remaining capacity (or, for outputs not using it, the free space
            of the reserve's filesystem); over is exit 1, like any other budget. JSON adds
            "recording": {"dataRate", "remainingBytes", "fitsSeconds", "neededBytes", "fits"}.
            """,
        options: Options.self,
        run: { arguments in
            let duration = arguments[\.duration]
            if duration == nil, arguments[\.storage] != nil {
                throw UsageError(description: "--storage: only with --duration")
            }
            let input = try SessionInput(
                path: try arguments.single("FILE"), profileOverride: arguments[\.profile])
            let estimate = HardwareCostEstimator(profile: input.profile).cost(
                of: input.configuration)
            let recording = try duration.map {
                try recordingFit(input.configuration, duration: $0, storage: arguments[\.storage])
            }
            if arguments[\.json] {
                Console.json(EstimateOutput(estimate: estimate, recording: recording))
            } else {
                var text = EstimateText(estimate: estimate, configuration: input.configuration)
                    .text
                if let recording { text += "\n" + EstimateText.recordingText(recording) }
                Console.out(text)
            }
            return estimate.fits && recording?.fits != false ? 0 : 1
        })

    /// `headroom estimate`'s options.
    struct Options: CommandOptions {
        let profile = SessionInput.profileOption
        let duration = Option<Double?>.number(
            "--duration", "SECONDS", "check a recording this long fits the reserve",
            in: 0.001...31_536_000)
        let storage = StorageCommand.storageOption.within("--duration")
        let json = Option<Bool>.flag("--json", "print the estimate as JSON")
    }

    /// The fit of the session's recordings for `duration` seconds (`--duration`) in the
    /// reserve at `storage` (`--storage`, else the default one).
    private static func recordingFit(
        _ configuration: SessionConfiguration, duration: Double, storage: String?
    ) throws -> RecordingFit {
        let usesReserve = configuration.outputs.contains { $0.usesProVideoStorage }
        let status = try StorageCommand.open(storage ?? StorageCommand.defaultDirectory).status()
        guard
            let fit = RecordingFit(
                configuration: configuration, duration: duration,
                remaining: usesReserve ? status.remainingBytes : status.freeBytes,
                usesProVideoStorage: usesReserve)
        else {
            throw UsageError(description: "--duration: the session has no movie output")
        }
        return fit
    }
}

/// The estimate's JSON with the recording's fit beside its fields.
private struct EstimateOutput: Encodable {
    var estimate: HardwareCostEstimate
    var recording: RecordingFit?

    enum CodingKeys: String, CodingKey { case recording }

    func encode(to encoder: any Encoder) throws {
        try estimate.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(recording, forKey: .recording)
    }
}

/// The human form of an estimate: a table per camera, a table per budget, a verdict.
struct EstimateText {
    var estimate: HardwareCostEstimate
    var configuration: SessionConfiguration

    var text: String {
        var cameras = TextTable(
            headings: ["camera", "format", "fps", "readout", "outputs", "pixel", "memory", "cost"],
            numericColumns: [2, 3, 5, 6, 7])
        for (camera, cost) in zip(configuration.cameras, estimate.cameras) {
            cameras.rows.append([
                camera.id, camera.format.description,
                cost.factors.frameRate.framesPerSecond.trimmed(),
                cost.factors.readoutFactor.fixed(2),
                outputList(cost.factors.outputs),
                cost.pixelRateShare.fraction.fixed(2), cost.memoryBandwidthShare.fraction.fixed(2),
                cost.cost.fraction.fixed(2),
            ])
        }
        var budgets = TextTable(
            headings: ["budget", "demand", "capacity", "share", ""], numericColumns: [1, 2, 3])
        for use in estimate.budgets {
            budgets.rows.append([
                use.budget.rawValue, quantity(use.demand, use.budget),
                quantity(use.capacity, use.budget),
                use.share.fraction.fixed(2),
                use.budget == estimate.limitingBudget ? "← limiting" : "",
            ])
        }
        let verdict =
            estimate.fits
            ? "hardware cost \(estimate.hardwareCost.fraction.fixed(2)): fits on \(estimate.profile)"
            : "hardware cost \(estimate.hardwareCost.fraction.fixed(2)): over budget on \(estimate.profile)"
                + " (limited by \(estimate.limitingBudget.rawValue)); `headroom plan` finds a configuration that fits"
        return "\(cameras.text)\n\n\(budgets.text)\n\n\(verdict)"
    }

    /// `preview,videoData×2`, or `-` for none.
    private func outputList(_ counts: OutputCounts) -> String {
        let kinds = OutputKind.allCases.filter { counts[$0] > 0 }
            .map { counts[$0] == 1 ? $0.rawValue : "\($0.rawValue)×\(counts[$0])" }
        return kinds.isEmpty ? "-" : kinds.joined(separator: ",")
    }

    private func quantity(_ value: Double, _ budget: Budget) -> String {
        switch budget {
        case .pixelRate: "\((value / 1e6).fixed(2)) Mpx/s"
        case .memoryBandwidth: "\((value / 1e9).fixed(2)) GB/s"
        case .cameraPorts: Int(value) == 1 ? "1 camera" : "\(Int(value)) cameras"
        case .storageWriteRate: "\(DataRate(bytesPerSecond: value))"
        }
    }

    /// `recording: 22.2 MiB/s of Y4M into the reserve (3.8 GiB remaining): fits 2 min 51 s;
    /// 600 s needs 13 GiB: over`.
    static func recordingText(_ fit: RecordingFit) -> String {
        let space =
            fit.usesProVideoStorage
            ? "the reserve's \(fit.remainingBytes) remaining"
            : "\(fit.remainingBytes) free (the movie output does not use the reserve)"
        return
            "recording: \(fit.dataRate) of Y4M into \(space): fits \(durationText(fit.fitsSeconds))"
            + " at this data rate; \(durationText(fit.durationSeconds)) needs \(fit.neededBytes): "
            + (fit.fits ? "fits" : "over (`headroom storage allocate SIZE` makes room)")
    }

    /// `4 min 12 s`, `1 h 3 min`, `12 s`.
    private static func durationText(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "forever" }
        let whole = Int(seconds.rounded(.down))
        if whole >= 3600 { return "\(whole / 3600) h \(whole % 3600 / 60) min" }
        if whole >= 60 { return "\(whole / 60) min \(whole % 60) s" }
        // Under ten seconds a tenth counts ("0.7 s", not "0 s").
        return seconds < 10 ? "\(seconds.fixed(1)) s" : "\(whole) s"
    }
}
