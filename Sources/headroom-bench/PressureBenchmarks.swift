import Foundation
import LaunchTiming
import Pressure

#if canImport(Glibc)
    import Glibc
#endif

/// The system-pressure targets of issue 3, on a fake hwmon tree of 24 temperatures (4 chips ×
/// 6 inputs) that `scripts/bench-pressure.sh` provides (a tmpfs over `/sys/class` in a private
/// mount namespace): one pread sample ≥ 10× faster than libsensors' `sensors_get_value` loop
/// and ≥ 100× faster than `sensors -j`; the observer at 10 Hz ≤ 0.1 % of a core; a step across
/// a threshold seen within one sample interval.
let pressureBenchmarks: [Benchmark] = [
    Benchmark(
        name: "pressure.sample-24-hwmon.vs-libsensors",
        summary: "one sample of 24 hwmon temperatures: open files re-read with pread",
        baselineSummary: "libsensors' own sensors_get_value loop over the same 24 inputs",
        targetNanoseconds: nil,
        measure: {
            try FakeHwmonTree.prepare()
            let source = LibsensorsSource(rescanInterval: .infinity)
            let first = try source.readTemperatures(at: 0)
            let fastCount = first.filter { !$0.isStale }.count
            // Discovered after the source's own discovery, which starts libsensors afresh.
            let sensors = try Libsensors.shared.discover()
            let libraryCount = Libsensors.shared.readValues(sensors).filter {
                (try? $0.get()) != nil
            }.count
            guard fastCount == 24, libraryCount == 24 else {
                throw BenchmarkSetupError(
                    description:
                        "expected 24 readable sensors, got \(fastCount) and \(libraryCount)")
            }
            let fast = nanosecondsPerCall(iterations: 20_000) {
                blackHole(try? source.readTemperatures(at: 0))
            }
            let library = nanosecondsPerCall(iterations: 2_000) {
                blackHole(Libsensors.shared.readValues(sensors))
            }
            return Measurement(
                nanoseconds: fast, baselineNanoseconds: library,
                extras: ["speedup": String(format: "%.1fx (target ≥ 10x)", library / fast)])
        }),
    Benchmark(
        name: "pressure.sample-24-hwmon.vs-sensors-j",
        summary: "one sample of 24 hwmon temperatures: open files re-read with pread",
        baselineSummary: "running `sensors -j` (lm-sensors) once",
        targetNanoseconds: nil,
        measure: {
            try FakeHwmonTree.prepare()
            let source = LibsensorsSource(rescanInterval: .infinity)
            _ = try source.readTemperatures(at: 0)
            let fast = nanosecondsPerCall(iterations: 20_000) {
                blackHole(try? source.readTemperatures(at: 0))
            }
            var failure: String?
            let process = nanosecondsPerCall(iterations: 10, rounds: 3) {
                if let problem = runSensorsJSON() { failure = problem }
            }
            if let failure { throw BenchmarkSetupError(description: failure) }
            return Measurement(
                nanoseconds: fast, baselineNanoseconds: process,
                extras: ["speedup": String(format: "%.0fx (target ≥ 100x)", process / fast)])
        }),
    Benchmark(
        name: "pressure.observer-10hz-cpu",
        summary: "observer CPU time per 10 Hz sample over 60 s (libsensors, zones, cpufreq, PSI)",
        baselineSummary: "the 100 ms sample interval (ratio = share of one core; target ≤ 0.001)",
        targetNanoseconds: 100_000,
        measure: {
            try FakeHwmonTree.prepare()
            let seconds =
                Double(ProcessInfo.processInfo.environment["HEADROOM_BENCH_OBSERVER_SECONDS"] ?? "")
                ?? 60
            let observer = PressureObserver(source: PressureSampler.system(), interval: 0.1)
            let readings = observer.readings()
            let before = processCPUSeconds()
            let wallStart = MonotonicClock.now()
            let task = Task { try await observer.run() }
            var count = 0
            for await _ in readings {
                count += 1
                if MonotonicClock.now().seconds(since: wallStart) >= seconds { break }
            }
            task.cancel()
            try await task.value
            let cpu = processCPUSeconds() - before
            let wall = MonotonicClock.now().seconds(since: wallStart)
            // Where the time goes: reading the sources, and classifying one sample.
            let sampler = PressureSampler.system()
            let sampleCost = nanosecondsPerCall(iterations: 200) {
                blackHole(sampler.sample(at: 0))
            }
            var classifier = PressureClassifier()
            var sample = sampler.sample(at: 0) ?? PressureSample(time: 0)
            let classifyCost = nanosecondsPerCall(iterations: 2_000) {
                sample.time += 0.1
                blackHole(classifier.classify(sample))
            }
            return Measurement(
                nanoseconds: cpu / Double(count) * 1e9, baselineNanoseconds: 1e8,
                extras: [
                    "samples": String(count),
                    "sources": format(sampleCost), "classify": format(classifyCost),
                    "cpu": String(format: "%.4f%% of one core over %.0f s", cpu / wall * 100, wall),
                ])
        }),
    Benchmark(
        name: "pressure.reaction-10hz",
        summary: "time from a temperature step across a threshold to the level change (max of 10)",
        baselineSummary: "the 100 ms sample interval (ratio ≤ 1 = within one interval)",
        targetNanoseconds: 100_000_000,
        measure: {
            try FakeHwmonTree.prepare()
            // Temperatures only: PSI on a busy build machine would mask the step.
            let sampler = PressureSampler(temperatureSources: [LibsensorsSource()])
            let observer = PressureObserver(source: sampler, interval: 0.1)
            var changes = observer.levelChanges().makeAsyncIterator()
            let task = Task { try await observer.run() }
            var latencies: [Double] = []
            for step in 0..<10 {
                // 50 °C is nominal, 96 °C is critical (H = 80, C = 100) on chip 0, input 1.
                // A random phase within the interval, as a real step would have.
                try await Task.sleep(nanoseconds: UInt64.random(in: 0..<100_000_000))
                let start = MonotonicClock.now()
                try FakeHwmonTree.setTemperature(
                    chip: 0, input: 1, celsius: step % 2 == 0 ? 96 : 50)
                guard await changes.next() != nil else { break }
                latencies.append(MonotonicClock.now().seconds(since: start))
            }
            task.cancel()
            try await task.value
            try FakeHwmonTree.setTemperature(chip: 0, input: 1, celsius: 45)
            guard latencies.count == 10 else {
                throw BenchmarkSetupError(description: "saw \(latencies.count) of 10 level changes")
            }
            return Measurement(
                nanoseconds: (latencies.max() ?? 0) * 1e9, baselineNanoseconds: 1e8,
                extras: [
                    "mean": String(format: "%.1f ms", latencies.reduce(0, +) / 10 * 1e3)
                ])
        }),
]

/// The benchmark's hwmon tree: 4 chips × 6 temperature inputs with labels and limits, written
/// only where `/sys/class` is a tmpfs (never into a real sysfs).
enum FakeHwmonTree {
    static let root = "/sys/class/hwmon"

    static func prepare() throws {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        let classMount = mounts.split(separator: "\n").map { $0.split(separator: " ") }
            .last { $0.count > 2 && $0[1] == "/sys/class" }
        guard classMount?[2] == "tmpfs" else {
            throw BenchmarkSetupError(
                description: "needs a fake hwmon tree: run under scripts/bench-pressure.sh (root)")
        }
        let manager = FileManager.default
        try? manager.removeItem(atPath: root)
        for chip in 0..<4 {
            let directory = "\(root)/hwmon\(chip)"
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try write("\(directory)/name", "benchchip\(chip)")
            for input in 1...6 {
                try write("\(directory)/temp\(input)_label", "Core \(chip * 6 + input - 1)")
                try write("\(directory)/temp\(input)_max", "80000")
                try write("\(directory)/temp\(input)_crit", "100000")
                try setTemperature(chip: chip, input: input, celsius: 45 + Double(input))
            }
        }
    }

    /// Writes the input in place (truncate + write), as a driver's value changes.
    static func setTemperature(chip: Int, input: Int, celsius: Double) throws {
        let path = "\(root)/hwmon\(chip)/temp\(input)_input"
        let text = "\(Int(celsius * 1000))\n"
        if let handle = FileHandle(forWritingAtPath: path) {
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        } else {
            try write(path, text)
        }
    }

    /// Writes `text` with the trailing newline sysfs always has (libsensors drops the last
    /// character of what it reads).
    private static func write(_ path: String, _ text: String) throws {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// Runs `sensors -j` once and reads its output; the problem when it fails.
private func runSensorsJSON() -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sensors")
    process.arguments = ["-j"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return "cannot run /usr/bin/sensors (Debian lm-sensors): \(error)"
    }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, output.count > 100 else {
        return "sensors -j exited \(process.terminationStatus)"
    }
    return nil
}

/// This process's CPU time (user + system), in seconds.
private func processCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
