import CLI
import Capture
import Daemon
import FoundationEssentials
import Governor
import HostService
import Pipeline
import Pressure
import Units

/// `headroom replay FILE`: runs a recorded trace through the classifier and the governor.
enum ReplayCommand {
    static let command = Command(
        name: "replay",
        forms: [UsageForm("FILE")],
        summary:
            "Replay a recorded pressure trace through the classifier and the governor (simulated).",
        details: """
            Prints every level change, every change the governor would have made to the default
            `headroom run` session (frame rate, inference stride and scale), and a summary: time
            at each level, the worst level and the smallest sustainable budget share. --json
            prints {"samples", "changes": [{"time", "from", "to", "reason"}], "secondsAtLevel",
            "worstLevel", "minimumSustainableShare", "simulated", "governorChanges": [{"time",
            "from", "to", "level", "systemPressureCost", "reason"}]}.
            """,
        options: Options.self,
        run: { arguments in
            let path = try arguments.single("FILE")
            let trace = try PressureTrace.read(from: path)
            let configuration = try arguments[\.config].map(PressureConfiguration.load)
            var classifier = PressureClassifier(
                configuration: configuration ?? PressureConfiguration())
            let policy = try arguments[\.policy].map(GovernorPolicy.load) ?? GovernorPolicy()
            let session = PipelineRun.defaultSession
            // The default run's pipeline, alone on a host service, as `headroom run` governs
            // it; the service's clock is the trace's.
            let clock = ManualRunClock()
            let service = HostService(
                configuration: HostGovernorConfiguration(
                    policy: policy, processorCount: ProcessInfo.processInfo.activeProcessorCount),
                clock: clock, catalog: ProfileCatalog.forThisUser)
            var consumer = GovernorReplay(
                pipeline: try GovernedPipeline(
                    service: service,
                    costModel: SystemPressureCost(
                        estimator: HardwareCostEstimator(profile: .genericDesktop),
                        configuration: session),
                    qualityTable: .standard),
                clock: clock)
            let summary = PressureReplay.run(
                TraceReplaySource(trace: trace), classifier: &classifier, consumer: &consumer)
            // The governor's changes at their time on the trace's clock, as the trace counts it.
            let governorChanges = consumer.changes.map {
                RunGovernorChange($0, since: .origin)
            }
            if arguments[\.json] {
                Console.json(ReplayOutput(summary: summary, governorChanges: governorChanges))
                return 0
            }
            var lines = ["replaying \(path) [SIMULATED: recorded values]"]
            for change in summary.changes {
                lines.append(
                    "\(change.time.secondsSinceOrigin.fixed(1)) s  \(change.from) → \(change.to)  \(change.reason)"
                )
            }
            let levels = PressureLevel.allCases.compactMap { level in
                summary.secondsAtLevel[level.name].map { "\(level) \($0.fixed(2)) s" }
            }
            lines.append(
                "\(summary.samples) samples; worst level \(summary.worstLevel); "
                    + "minimum sustainable share \(summary.minimumSustainableShare.fraction.fixed(2))"
            )
            if !levels.isEmpty { lines.append("time at level: " + levels.joined(separator: ", ")) }
            for change in governorChanges {
                lines.append(
                    "\(change.time.seconds.fixed(1)) s  governor → \(change.to)  (\(change.reason))"
                )
            }
            Console.out(lines.joined(separator: "\n"))
            return 0
        })

    /// `headroom replay`'s options.
    struct Options: CommandOptions {
        /// The pressure commands' `--config` alone: a trace has no sources to model.
        let config = PressureInput.Options().config
        let policy = Option<String?>.path("--policy", "FILE", "governor policy JSON")
        let json = Option<Bool>.flag("--json", "print the summary as JSON")
    }
}

/// The replay summary with the governor's changes beside its own keys.
struct ReplayOutput: Encodable {
    var summary: PressureReplay.Summary
    var governorChanges: [RunGovernorChange]

    enum CodingKeys: String, CodingKey {
        case governorChanges
    }

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(governorChanges, forKey: .governorChanges)
    }
}
