import CLI
import Locking
import Pipeline
import Pressure
import Reports
import Units

/// How `headroom run` shows progress: a status line redrawn in place on a terminal (with the
/// governor's changes printed above it as they happen), plain log lines every second otherwise.
final class RunDisplay: Sendable {
    private let isLive: Bool
    private let isQuiet: Bool
    private let duration: Duration
    private let state = LockedState<(changes: Int, samples: Int)>((0, 0))

    init(isLive: Bool, isQuiet: Bool, duration: Duration) {
        self.isLive = isLive
        self.isQuiet = isQuiet
        self.duration = duration
    }

    /// What the run is about to do.
    func header(_ options: RunOptions) -> String {
        let camera = options.configuration.cameras.first.map { "\($0.id) \($0.format)" } ?? "-"
        let footage =
            switch options.source {
            case .video(let input, let pacing, _):
                "\(input) (\(options.detector.rawValue) detector, pace \(pacing.rawValue))"
            case .scene(let seed, _): "\(Int(options.duration.seconds)) s, seed \(seed)"
            }
        return
            "headroom run: scenario \(options.scenario.name), governor \(options.governance.rawValue),"
            + " \(footage), \(camera) on \(options.profile.name)"
    }

    /// Shows one sample.
    func show(_ sample: RunSample) {
        guard !isQuiet else { return }
        let (newChange, count) = state.withLock { state -> (Bool, Int) in
            defer {
                state.changes = sample.governorChanges
                state.samples += 1
            }
            return (sample.governorChanges > state.changes, state.samples)
        }
        if isLive {
            if newChange { Console.write("\r\u{1B}[K  " + Self.changeLine(sample) + "\n") }
            Console.redraw(Self.bar(sample.time / duration) + " " + Self.line(sample))
        } else if newChange || count % 2 == 1 {
            if newChange {
                Console.out(Self.changeLine(sample))
            }
            Console.out(Self.line(sample))
        }
    }

    /// A governor change, at the time the reports give it (not the sample's, up to half a
    /// second later).
    static func changeLine(_ sample: RunSample) -> String {
        "\(seconds(sample.latestChangeTime ?? sample.time)) governor → \(settings(sample)) (\(sample.level))"
    }

    /// Ends the live line.
    func finish() {
        if isLive && !isQuiet { Console.out("") }
    }

    static func line(_ sample: RunSample) -> String {
        let temperature =
            sample.temperature.map {
                "\($0.fixed(1))°C\(sample.isSimulated ? " sim" : "")"
            } ?? "no sensor"
        let level =
            sample.cause.map { "\(sample.level.name) (\(causeText($0)))" } ?? sample.level.name
        return
            "\(seconds(sample.time)) \(sample.level.painted(pad(level, 19))) \(pad(temperature, 12))"
            + " fps \(sample.targetFrameRate.framesPerSecond.fixed(0))/"
            + pad(sample.actualFrameRate.framesPerSecond.fixed(0), 3)
            + " \(pad(settings(sample, withRate: false), 15)) subjects \(sample.subjects)"
            + " framing \(sample.framingError.fixed(2)) cost \(sample.systemPressureCost.fixed(2))"
            + " dropped \(sample.framesDropped)"
    }

    /// `cpuPressure` → `cpu psi`, `systemTemperature` → `temp`.
    static func causeText(_ cause: String) -> String {
        switch cause {
        case "systemTemperature": "temp"
        case "cameraTemperature": "camera temp"
        case "cpuThrottling": "throttling"
        case "cpuPressure": "cpu psi"
        case "memoryPressure": "memory psi"
        case "ioPressure": "io psi"
        default: cause
        }
    }

    static func settings(_ sample: RunSample, withRate: Bool = true) -> String {
        guard sample.isCapturing else { return "capture stopped" }
        let inference = "stride \(sample.stride) @\(sample.scale.fixed(2))"
        return withRate
            ? "\(sample.targetFrameRate.framesPerSecond.fixed(0)) fps, \(inference)" : inference
    }

    static func seconds(_ time: Duration) -> String {
        pad(time.seconds.fixed(1) + "s", 6, right: true)
    }

    static func bar(_ fraction: Double) -> String {
        let width = 12
        let filled = max(0, min(width, Int((fraction * Double(width)).rounded())))
        return "[" + String(repeating: "#", count: filled)
            + String(repeating: ".", count: width - filled) + "]"
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    /// The summary table after a run.
    static func summaryText(_ summary: RunSummary) -> String {
        var table = TextTable(headings: ["", ""], numericColumns: [1], lineWidth: 79)
        table.rows = RunReport.figures(summary).map { [$0.0, $0.1] }
        var text =
            "\n"
            + table.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .joined(separator: "\n")
        for note in summary.notes { text += "\nnote: \(note)" }
        return text
    }

    /// The governor-on/off table of `--compare`.
    static func comparisonText(on: RunSummary, off: RunSummary) -> String {
        // Named as it ran: a run that followed pressure alone is "governor pressure-only".
        let governed = "governor \(on.governance.rawValue)"
        var table = TextTable(headings: ["", governed, "governor off"], numericColumns: [1, 2])
        for (left, right) in zip(RunReport.figures(on), RunReport.figures(off)) {
            table.rows.append([left.0, left.1, right.1])
        }
        return "\n== \(on.scenario): \(governed) vs off (\(on.source))\n" + table.text
    }
}
