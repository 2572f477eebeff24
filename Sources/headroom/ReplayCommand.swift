import Foundation
import Pressure

/// `headroom replay FILE`: runs a recorded trace through the classifier.
enum ReplayCommand {
    static let command = Command(
        name: "replay",
        usage: "FILE [--config FILE] [--json]",
        summary: "Replay a recorded pressure trace through the classifier (simulated).",
        details: """
            Prints every level change and a summary: time at each level, the worst level and
            the smallest sustainable budget share. --json prints the summary {"samples",
            "changes": [{"time", "from", "to", "reason"}], "secondsAtLevel", "worstLevel",
            "minimumSustainableShare", "simulated"}.
            """,
        options: PressureInput.options.filter { $0.name == "--config" } + [
            .flag("--json", "print the summary as JSON")
        ],
        run: { arguments in
            let path = try arguments.single("FILE")
            let trace = try PressureTrace.read(from: path)
            let configuration = try arguments.value("--config").map(PressureConfiguration.load)
            var classifier = PressureClassifier(
                configuration: configuration ?? PressureConfiguration())
            var consumer = ReadingCounter()
            let summary = PressureReplay.run(
                TraceReplaySource(trace: trace), classifier: &classifier, consumer: &consumer)
            if arguments.has("--json") {
                Console.json(summary)
                return 0
            }
            var lines = ["replaying \(path) [SIMULATED: recorded values]"]
            for change in summary.changes {
                lines.append(
                    "\(String(format: "%.1f", change.time)) s  \(change.from) → \(change.to)  \(change.reason)"
                )
            }
            let levels = PressureLevel.allCases.compactMap { level in
                summary.secondsAtLevel[level.name].map { "\(level) \($0.shortDecimal) s" }
            }
            lines.append(
                "\(summary.samples) samples; worst level \(summary.worstLevel); "
                    + "minimum sustainable share \(summary.minimumSustainableShare.shortDecimal)")
            if !levels.isEmpty { lines.append("time at level: " + levels.joined(separator: ", ")) }
            Console.out(lines.joined(separator: "\n"))
            return 0
        })
}

/// The replay's consumer until the Governor (issue 6) plugs in its own: counts readings.
struct ReadingCounter: PressureReadingConsumer {
    var count = 0
    mutating func consume(_ reading: PressureReading) { count += 1 }
}
