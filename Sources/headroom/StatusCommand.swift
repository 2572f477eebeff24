import CLI
import Daemon
import Pressure
import Units

/// `headroom status`: one pressure reading with its level, factors, headroom and sensors.
enum StatusCommand {
    static let command = Command(
        name: "status",
        summary: "One pressure reading: level, factors, headroom, budget share and sensors.",
        details: """
            The level is the most severe factor's: system and camera temperature, power supply
            and peak power (Raspberry Pi, Jetson), CPU throttling, CPU/memory/IO pressure. CPU
            and IO pressure are contention, not danger: alone they stop at fair and serious. On
            a host without thermal sensors the reading says so ("thermal": "none") and rests on
            the other factors. Headroom has Android's meaning (getThermalHeadroom): 1.0 at the
            serious threshold, 0 at 30 °C below it. One reading has no trend, so the forecast
            is null unless --forecast SECONDS (0-60) is given: then status samples 3 times
            1 s apart (2 s) and forecasts that far ahead. --json prints {"level", "factors",
            "headroom": {"current", "forecast", "forecastSeconds"}, "sustainableShare",
            "simulated", "thermal", "sensors", "board", "notes", "time", "isWithinReach"}.
            """,
        options: Options.self,
        run: { arguments in
            try arguments.expectNoPositionals()
            let input = try PressureInput(arguments, \.pressure)
            var classifier = input.classifier
            let forecast = arguments[\.forecast]
            if let forecast {
                var configuration = classifier.configuration
                configuration.headroom.forecastSeconds = forecast
                classifier = PressureClassifier(configuration: configuration)
            }
            let reading = forecastReading(input, &classifier, wanted: forecast != nil)
            if arguments[\.json] {
                Console.json(reading)
            } else {
                Console.out(PressureText.status(reading))
            }
            return 0
        })

    /// `headroom status`'s options.
    struct Options: CommandOptions {
        let pressure = PressureInput.Options()
        let forecast = Option<Double?>.number(
            "--forecast", "SECONDS", "forecast headroom this far ahead (takes 2 s)", in: 0...60)
        let json = Option<Bool>.flag("--json", "print the reading as JSON")
    }

    /// One reading; with a forecast asked for, the last of as many samples as a trend needs,
    /// `spacing` seconds apart on the monotonic clock.
    private static func forecastReading(
        _ input: PressureInput, _ classifier: inout PressureClassifier, wanted: Bool
    ) -> PressureReading {
        let rules = classifier.configuration.headroom
        guard wanted, rules.forecastSeconds > 0 else {
            return classifier.classify(input.sampleNow())
        }
        let count = rules.minimumSamples
        if Console.isErrorTerminal {
            Console.error(
                "headroom: sampling \(count) times \(rules.spacing.trimmed()) s apart to forecast \(rules.forecastSeconds.trimmed()) s ahead"
            )
        }
        // The observer's own wait: an absolute deadline a full spacing after the last
        // sample's time, which never ends early (a point closer than the spacing would not
        // count).
        let clock = ContinuousRunClock()
        let waitSet = WaitSet()
        var reading = classifier.classify(input.sampleNow())
        for _ in 1..<count {
            _ = clock.wait(until: reading.time.advanced(by: .seconds(rules.spacing)), on: waitSet)
            reading = classifier.classify(input.sampleNow())
        }
        return reading
    }
}
