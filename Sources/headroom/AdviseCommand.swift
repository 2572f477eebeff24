import CLI
import Daemon
import Files
import FoundationEssentials
import Governor
import Pressure
import Units

/// `headroom advise --ladder FILE`: the host governor for a shell pipeline, without a server —
/// a line on stdout per change of advice.
enum AdviseCommand {
    static let command = Command(
        name: "advise",
        summary: "Advise a shell pipeline: a line per change of frame rate and ladder step.",
        details: """
            --ladder FILE is the pipeline's registration, as POST /v1/clients takes it:
            {"name", "priority", "nominalFrameRate", "minFrameRate", "ladder": [{"name",
            "cost"}, ...] heaviest first, "share" (optional)}. Samples pressure every
            --interval seconds (default 1) and prints the first advice and every change: with
            --json one JSON object a line ({"seq", "level", "actingLevel", "frameRate",
            "ladderStep", "ladderName", "reason"}; frameRate 0 means pause), else a line for
            people. --trace FILE replays pressure in its recorded time and stops at its end.
            Ends on SIGINT or SIGTERM (exit 130, 143) or when stdout's reader goes away (0).
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            guard let path = arguments[\.ladder] else {
                throw UsageError(description: "--ladder: expected the pipeline's registration file")
            }
            let registration = try decodeStrictly(
                ClientRegistration.self, from: InputFile.read(path), file: path)
            let input = try PressureInput(arguments, \.pressure)
            let clock = ContinuousRunClock()
            let observer = PressureObserver(
                source: try input.observedSource(trace: arguments[\.trace]),
                classifier: input.classifier, interval: arguments[\.interval],
                clock: clock, triggers: input.triggers(trace: arguments[\.trace]))
            let (changes, feed) = AsyncStream.makeStream(of: AdviceChange.self)
            let governor = HostGovernor(
                configuration: HostGovernorConfiguration(
                    // The pipeline is the only client: its lease never ends (a century).
                    lease: .seconds(100 * 365 * 86_400),  // a century: for ever, in range
                    processorCount: ProcessInfo.processInfo.activeProcessorCount),
                onChange: { feed.yield($0) })
            let readings = observer.readings()
            _ = try governor.register(registration, at: clock.now)
            let json = arguments[\.json]
            let stop = StopSignal()
            try await withSignalCancellation(stop) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await observer.run() }
                    group.addTask {
                        // A reader that went away is noticed at the next sample, not only at
                        // the next change of advice.
                        for await reading in readings {
                            if Console.isOutputClosed { break }
                            governor.update(with: reading)
                        }
                        feed.finish()
                    }
                    group.addTask {
                        for await change in changes {
                            if Console.isOutputClosed { return }
                            Console.out(json ? line(change.advice) : text(change.advice))
                        }
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                }
            }
            return stop.exitCode ?? 0
        })

    /// `headroom advise`'s options.
    struct Options: CommandOptions {
        let pressure = PressureInput.Options()
        let ladder = Option<String?>.path(
            "--ladder", "FILE", "the pipeline's registration (JSON)"
        ).required()
        let json = Option<Bool>.flag("--json", "print JSON lines")
        let interval = Option<Duration>.seconds(
            "--interval", "S", "seconds between samples within reach of a threshold",
            in: 0.1...3600, default: 1)
        let trace = PressureInput.traceOption
    }

    /// The advice on one line of JSON.
    private static func line(_ advice: ClientAdvice) -> String {
        String(decoding: JSONStyle.line.encodeExplainingFailure(advice), as: UTF8.self)
    }

    /// `#3 serious: 20 fps, hog-0.75 (serious: the host sustains …)`.
    private static func text(_ advice: ClientAdvice) -> String {
        let settings =
            advice.frameRate == 0
            ? "pause" : "\(advice.frameRate.framesPerSecond.trimmed()) fps, \(advice.ladderName)"
        return "#\(advice.seq) \(advice.actingLevel): \(settings) (\(advice.reason))"
    }
}
