import Pressure

/// `headroom record`: samples pressure for a while and writes a trace for `replay`.
enum RecordCommand {
    static let command = Command(
        name: "record",
        usage: "--seconds N --out FILE [--interval S] [--model]",
        summary: "Record a pressure trace (JSON lines, one raw sample per line) for `replay`.",
        details: """
            Samples every --interval seconds (default 1) for --seconds seconds, then writes the
            trace atomically to --out. Times in the trace start at 0.
            """,
        options: PressureInput.options.filter { $0.name == "--model" } + [
            .number("--seconds", "N", "how long to record", in: 0.01...86400),
            .path("--out", "FILE", "where to write the trace"),
            .number("--interval", "S", "seconds between samples", in: 0.01...3600, default: 1),
        ],
        run: { arguments in
            try arguments.expectNoPositionals()
            guard arguments.value("--seconds") != nil else {
                throw UsageError(description: "--seconds: expected how long to record")
            }
            let seconds = arguments.number("--seconds")
            guard let out = arguments.value("--out") else {
                throw UsageError(description: "--out: expected the trace file to write")
            }
            let interval = arguments.number("--interval")
            let input = try PressureInput(arguments)
            let clock = MonotonicPressureClock()
            let start = clock.now()
            var samples: [PressureSample] = []
            var deadline = start
            while true {
                let now = clock.now()
                guard var sample = input.sampler.sample(at: now) else { break }
                if samples.isEmpty { PressureInput.reportUnavailable(sample) }
                sample.time = ((now - start) * 1e6).rounded() / 1e6
                samples.append(sample)
                deadline += interval
                if deadline - start > seconds { break }
                try await clock.sleep(until: deadline)
            }
            try PressureTrace(samples: samples).write(to: out)
            Console.out("recorded \(samples.count) samples over \(seconds.shortText) s to \(out)")
            return 0
        })
}
