import CLI
import Daemon
import Files
import FoundationEssentials
import Pressure
import Units

/// `headroom watch`: live pressure readings — every reading on a terminal, a line per level
/// change in a pipe or with `--changes`.
enum WatchCommand {
    static let command = Command(
        name: "watch",
        summary: "Watch pressure live: every reading on a terminal, level changes in a pipe.",
        details: """
            Samples every --interval seconds (default 1) until interrupted, or for --samples
            readings, and at once when a PSI trigger fires (where the kernel allows triggers).
            Sampling is adaptive: far from every threshold (headroom below 0.7 and flat, PSI
            and rails well below their limits) it samples once a second, and at --interval
            again as soon as a reading comes within reach. On a terminal every reading is
            printed; in a pipe, or with --changes, the first and every level change (logs stay
            short). --json prints one JSON reading per line (the `status --json` form, on one
            line), at the same moments.
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            let limit = arguments[\.samples] ?? Int.max
            let input = try PressureInput(arguments, \.pressure)
            let observer = PressureObserver(
                source: input.sampler, classifier: input.classifier,
                interval: arguments[\.interval], clock: ContinuousRunClock(),
                triggers: input.triggers(trace: nil))
            let readings = observer.readings()
            let json = arguments[\.json]
            let everyReading = Console.isTerminal && !arguments[\.changes]
            // SIGINT or SIGTERM ends the watch cleanly (exit 130 or 143); so does the reader
            // of a pipe going away (`watch | head -1`), noticed at the next sample. The observer
            // runs in a child task, stopped and awaited once the readings are printed.
            let stop = StopSignal()
            try await withSignalCancellation(stop) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await observer.run() }
                    defer { group.cancelAll() }
                    try await printReadings(
                        readings, limit: limit, json: json, everyReading: everyReading)
                }
            }
            return stop.exitCode ?? 0
        })

    /// `headroom watch`'s options.
    struct Options: CommandOptions {
        let pressure = PressureInput.Options()
        let interval = Option<Duration>.seconds(
            "--interval", "S", "seconds between samples within reach of a threshold",
            in: 0.01...3600, default: 1)
        let samples = Option<Int?>.integer(
            "--samples", "N", "stop after N samples (default: run until interrupted)",
            in: 1...Int.max)
        let changes = Option<Bool>.flag(
            "--changes", "print only the first reading and level changes")
        let json = Option<Bool>.flag("--json", "print JSON lines")
    }

    /// Prints every reading (`everyReading`), or the first and every level change, until
    /// `limit` readings, the end of the stream (cancellation), or stdout's reader going away.
    private static func printReadings(
        _ readings: AsyncStream<PressureReading>, limit: Int, json: Bool, everyReading: Bool
    ) async throws {
        var previous: PressureLevel?
        var count = 0
        var start: MonotonicInstant?
        for await sampled in readings {
            if Console.isOutputClosed { return }
            // Times are shown from the first sample, not from boot.
            var reading = sampled
            let first = start ?? sampled.time
            reading.time = MonotonicInstant.origin.advanced(by: sampled.time.duration(since: first))
            start = first
            count += 1
            if previous == nil {
                for note in reading.notes { Console.error("headroom: note: \(note)") }
            }
            if everyReading || reading.level != previous {
                if json {
                    Console.out(
                        String(
                            decoding: JSONStyle.line.encodeExplainingFailure(reading), as: UTF8.self
                        ))
                } else {
                    Console.out(
                        PressureText.line(
                            reading, from: reading.level != previous ? previous : nil))
                }
                previous = reading.level
            }
            if count >= limit { return }
        }
    }
}
