import Foundation
import Pressure

/// `headroom watch`: live pressure readings, a line per level change.
enum WatchCommand {
    static let command = Command(
        name: "watch",
        usage: "[--interval S] [--samples N] [--config FILE] [--model] [--json]",
        summary: "Watch pressure live: a line at start and at every level change.",
        details: """
            Samples every --interval seconds (default 1) until interrupted, or for --samples
            readings, and at once when a PSI trigger fires (where the kernel allows triggers).
            Sampling is adaptive: far from every threshold (headroom below 0.7 and flat, PSI
            and rails well below their limits) it samples once a second, and at --interval
            again as soon as a reading comes within reach. --json prints one JSON reading per
            line (the `status --json` form, on one line) at start and at each change.
            """,
        options: PressureInput.options + [
            .number(
                "--interval", "S", "seconds between samples within reach of a threshold",
                in: 0.01...3600, default: 1),
            .integer(
                "--samples", "N", "stop after N samples (default: run until interrupted)",
                in: 1...Int.max),
            .flag("--json", "print JSON lines"),
        ],
        run: { arguments in
            try arguments.expectNoPositionals()
            let interval = arguments.number("--interval")
            let limit = arguments.optionalInteger("--samples") ?? Int.max
            let input = try PressureInput(arguments)
            // PSI triggers wake the observer at once where the kernel allows them.
            var triggers: [PSITrigger] = []
            switch PSITrigger.arm(
                for: input.classifier.configuration,
                roots: SystemRoots.from(environment: ProcessInfo.processInfo.environment))
            {
            case .success(let armed): triggers = armed
            case .failure(let reason): Console.error("headroom: note: \(reason); sampling only")
            }
            let observer = PressureObserver(
                source: input.sampler, classifier: input.classifier, interval: interval,
                triggers: triggers)
            let readings = observer.readings()
            let task = Task { await observer.run() }
            let json = arguments.has("--json")
            // SIGINT or SIGTERM ends the watch cleanly (exit 130 or 143); so does the reader
            // of a pipe going away (`watch | head -1`), noticed at the next sample.
            let stop = StopSignal()
            defer { task.cancel() }
            try await withSignalCancellation(stop) {
                try await printChanges(readings, limit: limit, json: json)
            }
            task.cancel()
            await task.value
            return stop.exitCode ?? 0
        })

    /// Prints the first reading and every level change until `limit` readings, the end of
    /// the stream (cancellation), or stdout's reader going away.
    private static func printChanges(
        _ readings: AsyncStream<PressureReading>, limit: Int, json: Bool
    ) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var previous: PressureLevel?
        var count = 0
        var start: Double?
        for await sampled in readings {
            if Console.isOutputClosed { return }
            // Times are shown from the first sample, not from boot.
            var reading = sampled
            reading.time -= start ?? reading.time
            start = start ?? sampled.time
            count += 1
            if previous == nil {
                for note in reading.notes { Console.error("headroom: note: \(note)") }
            }
            if reading.level != previous {
                if json {
                    Console.out(String(decoding: try encoder.encode(reading), as: UTF8.self))
                } else {
                    Console.out(PressureText.line(reading, from: previous))
                }
                previous = reading.level
            }
            if count >= limit { return }
        }
    }
}
