import CLI
import Dock
import Files
import FoundationEssentials
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
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            let out = arguments[\.out]
            let rates = arguments[\.fps]
            let strides = arguments[\.strides].map { Int($0) }
            let scales = arguments[\.scales]
            var scene = SyntheticScene.Configuration()
            scene.people = arguments[\.people]
            let size =
                try TrackCommand.imageSize(arguments[\.size], option: "--size") ?? (320, 180)
            let seeds = arguments[\.seeds].map { UInt64($0) }
            var generator = QualityTableGenerator(
                scene: scene,
                duration: arguments[\.seconds],
                width: Int(size.width), height: Int(size.height))
            generator.seeds = seeds
            let table =
                arguments[\.fixed]
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
            if arguments[\.json] {
                Console.json(table)
            } else {
                Console.out(table.markdown)
            }
            return 0
        })

    /// `headroom quality`'s options.
    struct Options: CommandOptions {
        let fps = Option<[Double]>.list(
            "--fps", "LIST", "frame rates, comma-separated (default 30,20,15)",
            default: [30, 20, 15], in: 1...240)
        let strides = Option<[Double]>.list(
            "--strides", "LIST", "inference strides (default 1,2,3,5)", default: [1, 2, 3, 5],
            in: 1...100)
        let scales = Option<[Double]>.list(
            "--scales", "LIST", "detector scales in (0, 1] (default 0.5)", default: [0.5],
            in: 0.05...1)
        let seconds = Option<Duration>.seconds(
            "--seconds", "S", "seconds of scene per setting", in: 1...3600, default: 20)
        let seeds = Option<[Double]>.list(
            "--seeds", "LIST", "scene seeds; rows are means over them (default 1,2,3)",
            default: [1, 2, 3], in: 0...1e15)
        let people = Option<Int>.integer(
            "--people", "N", "people in the scene", in: 1...100, default: 6)
        let size = Option<String?>.text("--size", "WxH", "frame size in pixels (default 320x180)")
        let fixed = Option<Bool>.flag(
            "--fixed", "keep the camera still instead of following the subject")
        let out = Option<Destination?>.output("--out", "FILE", "write the table as JSON")
        let json = Option<Bool>.flag("--json", "print the table as JSON")
    }
}

extension Option where Value == [Double] {
    /// An option taking comma-separated numbers, each within `range`; `defaultValue` when not
    /// given (the help states it, as the option's own text).
    fileprivate static func list(
        _ name: String, _ value: String, _ help: String, default defaultValue: [Double],
        in range: ClosedRange<Double>
    ) -> Self {
        Self(.option(name, value, help), absent: defaultValue) { text throws(UsageError) in
            var values: [Double] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = Double(part), number.isFinite, range.contains(number) else {
                    throw UsageError(
                        description:
                            "\(name): expected comma-separated numbers from \(range.lowerBound.trimmed()) to \(range.upperBound.trimmed()), got \"\(text)\""
                    )
                }
                values.append(number)
            }
            return values
        }
    }
}
