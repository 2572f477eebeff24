import Pressure

/// `headroom status`: one pressure reading with its level, factors, headroom and sensors.
enum StatusCommand {
    static let command = Command(
        name: "status",
        usage: "[--config FILE] [--model] [--json]",
        summary: "One pressure reading: level, factors, headroom, budget share and sensors.",
        details: """
            The level is the most severe factor's: system and camera temperature, CPU
            throttling, CPU/memory/IO pressure. On a host without thermal sensors the reading
            says so ("thermal": "none") and rests on PSI and throttling. One reading has no
            trend, so the forecast is null (use `watch`). --json prints {"level", "factors",
            "headroom": {"current", "forecast", "forecastSeconds"}, "sustainableShare",
            "simulated", "thermal", "sensors", "notes", "time"}.
            """,
        options: PressureInput.options + [.flag("--json", "print the reading as JSON")],
        run: { arguments in
            try arguments.expectNoPositionals()
            let input = try PressureInput(arguments)
            var classifier = input.classifier
            let reading = classifier.classify(input.sampleNow())
            if arguments.has("--json") {
                Console.json(reading)
            } else {
                Console.out(PressureText.status(reading))
            }
            return 0
        })
}
