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
        baselineSummary:
            "the floor: a thread waking at 10 Hz to pread the same value files, nothing else",
        targetNanoseconds: 100_000,
        measure: {
            try FakeHwmonTree.prepare()
            let seconds =
                Double(ProcessInfo.processInfo.environment["HEADROOM_BENCH_OBSERVER_SECONDS"] ?? "")
                ?? 60
            // The observer alone: no consumer wakes per sample.
            let alone = await observerCPU(seconds: seconds, consumer: .unread)
            let floor = await ValueFileFloor().cpu(seconds: seconds / 2)
            // What a subscriber awaiting every reading adds: a task wake-up per sample.
            let subscribed = await observerCPU(seconds: seconds / 6, consumer: .awaiting)
            // Where the time goes when warm: reading the sources (time advancing as at 10 Hz,
            // so the once-a-second checks for new sensors count), and classifying one sample.
            let sampler = PressureSampler.system()
            var time = MonotonicPressureClock().now()
            let sampleCost = nanosecondsPerCall(iterations: 200) {
                time += 0.1
                blackHole(sampler.sample(at: time))
            }
            var classifier = PressureClassifier()
            var sample = sampler.sample(at: 0) ?? PressureSample(time: 0)
            let classifyCost = nanosecondsPerCall(iterations: 2_000) {
                sample.time += 0.1
                blackHole(classifier.classify(sample))
            }
            return Measurement(
                nanoseconds: alone.cpuPerSample * 1e9,
                baselineNanoseconds: floor.cpuPerSample * 1e9,
                extras: [
                    "samples": String(alone.samples),
                    "warm sources": format(sampleCost), "warm classify": format(classifyCost),
                    "cpu": String(
                        format: "%.4f%% of one core over %.0f s", alone.share * 100, alone.wall),
                    "floor": String(
                        format: "%.4f%% of one core, %d files", floor.share * 100, floor.files),
                    "with a subscriber awaiting each reading": String(
                        format: "%@/sample, %.4f%% of one core",
                        format(subscribed.cpuPerSample * 1e9), subscribed.share * 100),
                ])
        }),
    Benchmark(
        name: "pressure.reaction-10hz",
        summary:
            "from a temperature step across a threshold to the sample that reports the level change (max of 10)",
        baselineSummary: "the 100 ms sample interval (ratio ≤ 1 = within one interval)",
        targetNanoseconds: 100_000_000,
        measure: {
            try FakeHwmonTree.prepare()
            // Temperatures only: PSI on a busy build machine would mask the step.
            let sampler = PressureSampler(temperatureSources: [LibsensorsSource()])
            let observer = PressureObserver(source: sampler, interval: 0.1)
            let clock = MonotonicPressureClock()
            var changes = observer.levelChanges().makeAsyncIterator()
            let task = Task { await observer.run() }
            // Step → the sample that saw it (the observer's reaction), and step → a subscriber
            // holding the change (adding the sample's own work and the subscriber's wake-up).
            var sampled: [Double] = []
            var delivered: [Double] = []
            for step in 0..<10 {
                // 50 °C is nominal, 96 °C is critical (H = 80, C = 100) on chip 0, input 1.
                // A random phase within the interval, as a real step would have.
                try await Task.sleep(nanoseconds: UInt64.random(in: 0..<100_000_000))
                let start = clock.now()
                try FakeHwmonTree.setTemperature(
                    chip: 0, input: 1, celsius: step % 2 == 0 ? 96 : 50)
                guard let change = await changes.next() else { break }
                delivered.append(clock.now() - start)
                sampled.append(change.reading.time - start)
            }
            task.cancel()
            await task.value
            try FakeHwmonTree.setTemperature(chip: 0, input: 1, celsius: 45)
            guard sampled.count == 10 else {
                throw BenchmarkSetupError(description: "saw \(sampled.count) of 10 level changes")
            }
            return Measurement(
                nanoseconds: (sampled.max() ?? 0) * 1e9, baselineNanoseconds: 1e8,
                extras: [
                    "mean": String(format: "%.1f ms", sampled.reduce(0, +) / 10 * 1e3),
                    "delivered to a subscriber": String(
                        format: "max %.1f ms, mean %.1f ms", (delivered.max() ?? 0) * 1e3,
                        delivered.reduce(0, +) / 10 * 1e3),
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

/// How the observer benchmark consumes readings.
private enum ReadingConsumer {
    /// Not read while the observer runs (only the newest is kept, so nothing piles up); the
    /// samples are counted from the first and the last reading's times: the observer's cost
    /// alone.
    case unread
    /// A task awaiting every reading as it comes.
    case awaiting
}

/// Process CPU used while a 10 Hz observer of this host's sources runs for `seconds`.
private func observerCPU(seconds: Double, consumer: ReadingConsumer) async -> (
    samples: Int, cpuPerSample: Double, share: Double, wall: Double
) {
    let observer = PressureObserver(source: PressureSampler.system(), interval: 0.1)
    let readings = observer.readings(bufferingPolicy: .bufferingNewest(1))
    let before = processCPUSeconds()
    let wallStart = MonotonicClock.now()
    let task = Task { await observer.run() }
    var count = 0
    switch consumer {
    case .unread:
        var iterator = readings.makeAsyncIterator()
        let first = await iterator.next()
        try? await Task.sleep(for: .seconds(seconds))
        task.cancel()
        await task.value
        if let first, let last = observer.latest {
            count = Int(((last.time - first.time) / observer.interval).rounded()) + 1
        }
    case .awaiting:
        for await _ in readings {
            count += 1
            if MonotonicClock.now().seconds(since: wallStart) >= seconds { break }
        }
        task.cancel()
        await task.value
    }
    let cpu = processCPUSeconds() - before
    let wall = MonotonicClock.now().seconds(since: wallStart)
    return (count, cpu / Double(max(count, 1)), cpu / wall, wall)
}

/// The floor under any 10 Hz observer of this host's sources: a thread that sleeps with
/// `clock_nanosleep` until each deadline and `pread`s every value file the system sampler
/// reads (hwmon inputs, thermal zones, cpufreq, PSI) without parsing, allocating or deciding
/// anything.
private struct ValueFileFloor {
    let paths: [String]

    init() {
        let manager = FileManager.default
        func matches(_ directory: String, _ prefix: String, _ suffix: String) -> [String] {
            let names = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasPrefix(prefix) }.map { "\(directory)/\($0)\(suffix)" }
        }
        let hwmon = matches("/sys/class/hwmon", "hwmon", "").flatMap {
            matches($0, "temp", "").filter { $0.hasSuffix("_input") }
        }
        let zones = matches("/sys/class/thermal", "thermal_zone", "/temp")
        let cpus = matches("/sys/devices/system/cpu", "cpu", "/cpufreq/scaling_cur_freq")
        let pressure = ["cpu", "memory", "io"].map { "/proc/pressure/\($0)" }
        paths = (hwmon + zones + cpus + pressure).filter { manager.fileExists(atPath: $0) }
    }

    /// Process CPU while the floor loop runs for `seconds`, per wake-up.
    func cpu(seconds: Double) async -> (
        samples: Int, cpuPerSample: Double, share: Double, wall: Double, files: Int
    ) {
        let descriptors = paths.map { open($0, O_RDONLY | O_CLOEXEC) }.filter { $0 >= 0 }
        defer { for descriptor in descriptors { close(descriptor) } }
        let before = processCPUSeconds()
        let wallStart = MonotonicClock.now()
        let samples = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            Thread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                var deadline = timespec()
                clock_gettime(CLOCK_MONOTONIC, &deadline)
                var count = 0
                while MonotonicClock.now().seconds(since: wallStart) < seconds {
                    for descriptor in descriptors { _ = pread(descriptor, &buffer, 4096, 0) }
                    count += 1
                    deadline.tv_nsec += 100_000_000
                    if deadline.tv_nsec >= 1_000_000_000 {
                        deadline.tv_sec += 1
                        deadline.tv_nsec -= 1_000_000_000
                    }
                    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil)
                }
                done.resume(returning: count)
            }.start()
        }
        let cpu = processCPUSeconds() - before
        let wall = MonotonicClock.now().seconds(since: wallStart)
        return (samples, cpu / Double(max(samples, 1)), cpu / wall, wall, descriptors.count)
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
