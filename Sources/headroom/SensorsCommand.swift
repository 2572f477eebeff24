import CLI
import Daemon
import Pressure

/// `headroom sensors`: every discovered sensor, its source, value and limits.
enum SensorsCommand {
    static let command = Command(
        name: "sensors",
        summary:
            "List every sensor (libsensors, thermal zones, cpufreq, PSI, board signals) with value and limits.",
        details: """
            A sensor that cannot be read is shown stale with the reason, never as 0 °C. Board
            signals are listed in their units: a Raspberry Pi's firmware throttling word (hex)
            and under-voltage alarm, supply and rail voltages (V), rail currents (A) and power
            (W), GPU load and clock (devfreq). Sources that are unavailable on this host are
            named on stderr. --json prints {"sensors":
            [{"id", "source", "label", "celsius", "high", "critical", "stale", ...}],
            "unavailable": [{"source", "reason"}], "thermal", "simulated"}.
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            let input = try PressureInput(config: nil, model: arguments[\.model])
            let sample = input.sampleNow()
            var classifier = input.classifier
            let reading = classifier.classify(sample)
            PressureInput.reportUnavailable(sample)
            for problem in Libsensors.shared.configurationProblems {
                Console.error("headroom: warning: libsensors configuration: \(problem)")
            }
            if arguments[\.json] {
                Console.json(
                    SensorsReport(
                        sensors: reading.sensors, unavailable: sample.unavailable,
                        thermal: reading.thermal, simulated: reading.simulated))
            } else {
                Console.out(PressureText.sensors(reading.sensors))
                Console.out("thermal: \(PressureText.coverage(reading.thermal))")
            }
            return 0
        })

    /// `headroom sensors`'s options.
    struct Options: CommandOptions {
        let model = PressureInput.Options().model
        let json = Option<Bool>.flag("--json", "print the sensors as JSON")
    }
}

/// The `sensors --json` document.
struct SensorsReport: Encodable {
    var sensors: [SensorReading]
    var unavailable: [SourceUnavailable]
    var thermal: ThermalCoverage
    var simulated: Bool
}
