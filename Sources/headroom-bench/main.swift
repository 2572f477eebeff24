import Foundation
import Lifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// `headroom-bench [NAME-PREFIX ...] [--json] [--list]`: runs the benchmarks (all, or those whose
/// names start with a given prefix) and prints each figure beside its same-run baseline;
/// `headroom-bench motion RAWFILE WIDTH HEIGHT` times the motion detector on a raw video
/// (see `motionMain`).
/// Build it in release mode: `swift run -c release headroom-bench`.
func benchMain(_ words: [String]) async -> Int32 {
    if words.first == "--storage-competitor", words.count == 3, let rate = Double(words[2]) {
        Competitor.main(directory: words[1], rate: rate)
    }
    if words.first == "motion" {
        return motionMain(Array(words.dropFirst()))
    }
    if words.contains("--help") {
        print("usage: headroom-bench [NAME-PREFIX ...] [--json] [--list]")
        print(
            "       headroom-bench motion RAWFILE WIDTH HEIGHT [--scale S ...] [--json] [--print]")
        return 0
    }
    let prefixes = words.filter { !$0.hasPrefix("--") }
    let selected = allBenchmarks.filter { benchmark in
        prefixes.isEmpty || prefixes.contains { benchmark.name.hasPrefix($0) }
    }
    if words.contains("--list") {
        for benchmark in allBenchmarks { print("\(benchmark.name)  \(benchmark.summary)") }
        return 0
    }
    guard !selected.isEmpty else {
        FileHandle.standardError.write(
            Data("headroom-bench: no benchmark matches \(prefixes)\n".utf8))
        return 2
    }
    #if DEBUG
        FileHandle.standardError.write(
            Data("headroom-bench: debug build; figures are meaningless, use -c release\n".utf8))
    #endif
    var results: [[String: String]] = []
    var missed = false
    for benchmark in selected {
        do {
            let measurement = try await benchmark.measure()
            var verdict = ""
            if let target = benchmark.targetNanoseconds {
                let met = measurement.nanoseconds <= target
                missed = missed || !met
                verdict = "  target ≤ \(format(target)): \(met ? "met" : "MISSED")"
            }
            if let target = benchmark.targetRatio {
                let met = measurement.ratio <= target
                missed = missed || !met
                verdict += "  target ratio ≤ \(target)x: \(met ? "met" : "MISSED")"
            }
            let extras = measurement.extras.sorted { $0.key < $1.key }
                .map { "  \($0.key) \($0.value)" }.joined()
            if words.contains("--json") {
                var row = [
                    "name": benchmark.name, "nanoseconds": String(measurement.nanoseconds),
                    "baseline": benchmark.baselineSummary,
                    "baselineNanoseconds": String(measurement.baselineNanoseconds),
                    "ratio": String(measurement.ratio),
                ]
                for (key, value) in measurement.extras { row[key] = value }
                results.append(row)
            } else {
                print(
                    "\(benchmark.name): \(format(measurement.nanoseconds))  (\(benchmark.summary))\n"
                        + "    baseline \(format(measurement.baselineNanoseconds)) (\(benchmark.baselineSummary))"
                        + "  ratio \(String(format: "%.1f", measurement.ratio))x\(verdict)\(extras)"
                )
            }
        } catch {
            FileHandle.standardError.write(
                Data("headroom-bench: \(benchmark.name) failed: \(error)\n".utf8))
            missed = true
        }
    }
    if words.contains("--json") {
        let data = try? JSONSerialization.data(
            withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data ?? Data(), as: UTF8.self))
    }
    return missed ? 1 : 0
}

/// A duration in the unit that suits it: `412 ns`, `3.20 µs`, `8.10 ms`.
func format(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: String(format: "%.1f ns/op", nanoseconds)
    case ..<1_000_000: String(format: "%.2f µs/op", nanoseconds / 1e3)
    case ..<1_000_000_000: String(format: "%.2f ms/op", nanoseconds / 1e6)
    default: String(format: "%.2f s/op", nanoseconds / 1e9)
    }
}

// Every task on the threads `headroomd` runs its tasks on, so that `service.serve-*` prices
// what the daemon runs.
TaskThreads.install()
exit(await benchMain(Array(CommandLine.arguments.dropFirst())))
