import CLI
import Daemon
import Files
import FoundationEssentials
import Locking
import Pressure
import Units

/// `headroom record`: samples pressure for a while and writes a trace for `replay`.
enum RecordCommand {
    static let command = Command(
        name: "record",
        summary: "Record a pressure trace (JSON lines, one raw sample per line) for `replay`.",
        details: """
            Samples every --interval seconds (default 1) for --seconds seconds, then writes the
            trace atomically to --out. Times in the trace start at 0. Stopped early (SIGINT,
            SIGTERM), it writes the samples taken so far and exits 130 or 143.
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            guard let seconds = arguments[\.seconds] else {
                throw UsageError(description: "--seconds: expected how long to record")
            }
            let duration = Duration.seconds(seconds)
            guard let out = arguments[\.out]?.path else {
                throw UsageError(description: "--out: expected the trace file to write")
            }
            let interval = arguments[\.interval]
            let input = try PressureInput(config: nil, model: arguments[\.model])
            let clock = ContinuousRunClock()
            let start = clock.now
            let taken = LockedState<[PressureSample]>([])
            let stop = StopSignal()
            // A stop cancels the sampling; what was taken is still written.
            do {
                try await withSignalCancellation(stop) {
                    var deadline = start
                    while true {
                        let now = clock.now
                        guard var sample = input.sampler.sample(at: now) else { break }
                        if taken.withLock(\.isEmpty) { PressureInput.reportUnavailable(sample) }
                        // Trace times count from the first sample, in whole microseconds.
                        let elapsed = now.duration(since: start).seconds
                        sample.time = MonotonicInstant(
                            secondsSinceOrigin: (elapsed * 1e6).rounded() / 1e6)
                        taken.withLock { $0.append(sample) }
                        deadline = deadline.advanced(by: interval)
                        if deadline.duration(since: start) > duration { break }
                        try await clock.sleep(until: deadline)
                    }
                }
            } catch is CancellationError {}
            let samples = taken.withLock { $0 }
            try PressureTrace(samples: samples).write(to: out)
            let span =
                stop.received == nil
                ? seconds.trimmed() : clock.now.duration(since: start).seconds.fixed(1)
            Console.out("recorded \(samples.count) samples over \(span) s to \(out)")
            if let signal = stop.received {
                Console.error(
                    "headroom record: stopped by signal \(signal); the trace holds what was sampled"
                )
            }
            return stop.exitCode ?? 0
        })

    /// `headroom record`'s options.
    struct Options: CommandOptions {
        let model = PressureInput.Options().model
        let seconds = Option<Double?>.number(
            "--seconds", "N", "how long to record", in: 0.01...86400
        ).required()
        let out = Option<Destination?>.output(
            "--out", "FILE", "where to write the trace"
        ).required()
        let interval = Option<Duration>.seconds(
            "--interval", "S", "seconds between samples", in: 0.01...3600, default: 1)
    }
}
