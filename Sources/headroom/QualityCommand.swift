import Dock
import Files
import Foundation
import Tracking
import Units

/// `headroom quality`: the tracking-quality table the governor relies on.
enum QualityCommand {
    static let command = Command(
        name: "quality",
        summary: "Measure tracking quality (IDF1, MOTA, framing error) against stride and scale.",
        details: """
            Runs the seeded synthetic scene in closed loop (frames rendered from the simulated
            stand's pose, detector, tracker, framing, stand) for every frame rate, inference
            stride and detector scale, and scores the tracks against the scene's ground truth.
            Defaults: --fps 30,20,15 --strides 1,2,3,5 --scales 0.5 --seconds 20
            --seeds 1,2,3 --people 6 --size 320x180; each row is the mean over the seeds
            (IDSW the sum). --fixed keeps the camera still. --out writes the table
            as JSON (atomically), the form `QualityTable` decodes. The same options give the
            same table on every machine.
            """,
        options: [
            .option("--fps", "LIST", "frame rates, comma-separated (default 30,20,15)"),
            .option("--strides", "LIST", "inference strides (default 1,2,3,5)"),
            .option("--scales", "LIST", "detector scales in (0, 1] (default 0.5)"),
            .number("--seconds", "S", "seconds of scene per setting", in: 1...3600, default: 20),
            .option("--seeds", "LIST", "scene seeds; rows are means over them (default 1,2,3)"),
            .integer("--people", "N", "people in the scene", in: 1...100, default: 6),
            .option("--size", "WxH", "frame size in pixels (default 320x180)"),
            .flag("--fixed", "keep the camera still instead of following the subject"),
            .output("--out", "FILE", "write the table as JSON"),
            .flag("--json", "print the table as JSON"),
        ],
        run: { arguments in
            try arguments.expectNoPositionals()
            let out = try arguments.destination("--out")
            let rates = try list(arguments, "--fps", default: [30, 20, 15], in: 1...240)
            let strides = try list(arguments, "--strides", default: [1, 2, 3, 5], in: 1...100)
                .map { Int($0) }
            let scales = try list(arguments, "--scales", default: [0.5], in: 0.05...1)
            var scene = SyntheticScene.Configuration()
            scene.people = arguments.integer("--people")
            let size =
                try TrackCommand.imageSize(arguments.value("--size"), option: "--size") ?? (
                    320, 180
                )
            let seeds = try list(arguments, "--seeds", default: [1, 2, 3], in: 0...1e15)
                .map { UInt64($0) }
            var generator = QualityTableGenerator(
                scene: scene,
                duration: arguments.seconds("--seconds"),
                width: Int(size.width), height: Int(size.height))
            generator.seeds = seeds
            let table =
                arguments.has("--fixed")
                ? try generator.generate(
                    rig: FixedRig(), frameRates: rates.map(FrameRate.init(framesPerSecond:)),
                    strides: strides, scales: scales)
                : try generator.generate(
                    rig: try StandMotors(), frameRates: rates.map(FrameRate.init(framesPerSecond:)),
                    strides: strides,
                    scales: scales)
            if let out {
                try AtomicFile.write(Console.jsonData(table), to: out.path)
            }
            if arguments.has("--json") {
                Console.json(table)
            } else {
                Console.out(table.markdown)
            }
            return 0
        })

    /// A comma-separated list of numbers in `range`, or `defaultValue` when absent.
    static func list(
        _ arguments: Arguments, _ option: String, default defaultValue: [Double],
        in range: ClosedRange<Double>
    ) throws(UsageError) -> [Double] {
        guard let text = arguments.value(option) else { return defaultValue }
        var values: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Double(part), value.isFinite, range.contains(value) else {
                throw UsageError(
                    description:
                        "\(option): expected comma-separated numbers from \(range.lowerBound.trimmed()) to \(range.upperBound.trimmed()), got \"\(text)\""
                )
            }
            values.append(value)
        }
        return values
    }
}
