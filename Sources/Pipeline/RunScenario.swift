import Files
import Units

/// The conditions a run is played under: how long, how warm the room gets, and how strongly
/// the pipeline's own work heats the (simulated) machine.
///
/// `default` uses the host's real sensors where it has any; `thermal-ramp` always uses the
/// labelled thermal model, so that its heat comes from this process's measured CPU use.
public struct RunScenario: Hashable, Sendable {
    /// The scenario's name, as `--scenario` takes it.
    public var name: String
    /// One line saying what it shows.
    public var summary: String
    /// How long a run lasts unless `--seconds` says otherwise.
    public var defaultDuration: Duration
    /// The room temperature over the run: (seconds, °C) points, linear between them.
    public var ambient: [AmbientPoint]
    /// The model's steady-state rise above ambient at the pipeline's full-settings load, °C.
    public var riseAtFullLoad: Double
    /// The model's time constant, seconds.
    public var timeConstant: Double
    /// The simulated sensor's high limit (serious from here), °C.
    public var high: Double
    /// The simulated sensor's critical limit (shutdown from here, critical 5 °C below), °C.
    public var critical: Double
    /// Whether the thermal model is used even where the host has real sensors.
    public var alwaysSimulates: Bool

    /// One point of the ambient curve.
    public struct AmbientPoint: Hashable, Sendable, Codable {
        /// Seconds from the start of the run.
        public var time: Double
        /// Room temperature, °C.
        public var celsius: Double
    }

    /// A steady room: what the pipeline does on a normal day.
    public static let standard = RunScenario(
        name: "default", summary: "a steady 30 °C room; real sensors where the host has them",
        defaultDuration: .seconds(20), ambient: [AmbientPoint(time: 0, celsius: 30)],
        riseAtFullLoad: 30,
        timeConstant: 15, high: 80, critical: 95, alwaysSimulates: false)

    /// A room that heats up during the run (a kiosk in the afternoon sun): without the governor
    /// the machine reaches its critical limit, with it the pipeline degrades gracefully.
    public static let thermalRamp = RunScenario(
        name: "thermal-ramp",
        summary:
            "ambient 35 → 67 °C over the run; the machine throttles unless the pipeline adapts",
        defaultDuration: .seconds(75),
        ambient: [AmbientPoint(time: 0, celsius: 35), AmbientPoint(time: 60, celsius: 67)],
        riseAtFullLoad: 30, timeConstant: 6, high: 80, critical: 95, alwaysSimulates: true)

    /// Every scenario, by name.
    public static let all: [RunScenario] = [.standard, .thermalRamp]

    /// The scenario named `name`.
    ///
    /// - Throws: ``ConfigurationError`` naming `--scenario` and listing the known names.
    public static func named(_ name: String) throws(ConfigurationError) -> RunScenario {
        guard let scenario = all.first(where: { $0.name == name }) else {
            throw ConfigurationError(
                path: "--scenario",
                problem:
                    "unknown scenario \"\(name)\"; expected one of: \(all.map(\.name).joined(separator: ", "))"
            )
        }
        return scenario
    }

    /// The ambient temperature at `elapsed` into the run, stretched so that the curve spans
    /// `runDuration` (a shorter or longer run sees the whole ramp).
    public func ambient(at elapsed: Duration, runDuration: Duration) -> Double {
        guard let first = ambient.first, let last = ambient.last else { return 30 }
        // The curve is written for `defaultDuration`; a longer or shorter run replays it to
        // scale.
        let scaled = elapsed.seconds * defaultDuration.seconds / max(runDuration.seconds, 1e-9)
        if scaled <= first.time { return first.celsius }
        if scaled >= last.time { return last.celsius }
        let upper = ambient.firstIndex { $0.time > scaled } ?? ambient.count - 1
        let (a, b) = (ambient[upper - 1], ambient[upper])
        return a.celsius + (b.celsius - a.celsius) * (scaled - a.time) / (b.time - a.time)
    }
}
