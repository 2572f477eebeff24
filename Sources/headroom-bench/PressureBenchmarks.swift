import CWakeup
import Foundation
import LaunchTiming
import Pressure
import Synchronization
import Units

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
            let source = LibsensorsSource(rescanInterval: .seconds(Int64.max))
            let first = try source.readTemperatures(at: .origin)
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
                blackHole(try? source.readTemperatures(at: .origin))
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
            let source = LibsensorsSource(rescanInterval: .seconds(Int64.max))
            _ = try source.readTemperatures(at: .origin)
            let fast = nanosecondsPerCall(iterations: 20_000) {
                blackHole(try? source.readTemperatures(at: .origin))
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
        summary:
            "observer CPU time per sample at a fixed 10 Hz (libsensors, zones, cpufreq, PSI, board)",
        baselineSummary:
            "the floor: a thread waking at 10 Hz to pread the same value files (PSI at 2 Hz), nothing else",
        targetNanoseconds: nil, targetRatio: 1.3,
        measure: {
            let sensors = try SensorTree.prepare()
            let seconds = observerSeconds()
            // The observer alone: no consumer wakes per sample.
            let (observer, floor) = await interleavedWithFloor(rounds: 5, seconds: seconds) {
                await observerCPU(seconds: $0, consumer: .unread, fixedRate: true)
            }
            // What a subscriber awaiting every reading adds: a task wake-up per sample.
            let subscribed = await observerCPU(
                seconds: seconds / 6, consumer: .awaiting, fixedRate: true)
            // Where the time goes when warm: reading the sources (time advancing as at 10 Hz,
            // so the once-a-second checks for new sensors count), and classifying one sample.
            let sampler = PressureSampler.system()
            var time = ContinuousRunClock().now
            let sampleCost = nanosecondsPerCall(iterations: 200) {
                time = time.advanced(by: .milliseconds(100))
                blackHole(sampler.sample(at: time))
            }
            var classifier = PressureClassifier()
            var sample = sampler.sample(at: .origin) ?? PressureSample(time: .origin)
            let classifyCost = nanosecondsPerCall(iterations: 2_000) {
                sample.time = sample.time.advanced(by: .milliseconds(100))
                blackHole(classifier.classify(sample))
            }
            return Measurement(
                nanoseconds: observer.cpuPerSample * 1e9,
                baselineNanoseconds: floor.cpuPerSample * 1e9,
                extras: [
                    "sensors": sensors,
                    "samples": String(observer.samples),
                    "warm sources": format(sampleCost), "warm classify": format(classifyCost),
                    "cpu": String(
                        format: "%.4f%% of one core over %.0f s (the median of 5 rounds)",
                        observer.share * 100, observer.wall),
                    "floor": String(
                        format: "%.4f%% of one core, %d files", floor.share * 100,
                        ValueFileFloor().paths.count),
                    "with a subscriber awaiting each reading": String(
                        format: "%@/sample, %.4f%% of one core",
                        format(subscribed.cpuPerSample * 1e9), subscribed.share * 100),
                ])
        }),
    Benchmark(
        name: "pressure.observer-adaptive-nominal",
        summary:
            "observer CPU time per second at nominal with adaptive sampling (configured 10 Hz, far from every threshold)",
        baselineSummary:
            "the floor at the same rate: wake-ups and the same reads only, CPU time per second",
        targetNanoseconds: 300_000,
        measure: {
            let sensors = try SensorTree.prepare()
            let seconds = observerSeconds()
            let adaptive = await observerCPU(seconds: seconds, consumer: .unread, fixedRate: false)
            // The floor at the rate the adaptive observer settled at (1 Hz far from everything).
            let rate = Double(adaptive.samples) / adaptive.wall
            let floor = await ValueFileFloor().cpu(seconds: seconds / 2, interval: 1 / rate)
            // The process with nothing to do: libdispatch's own once-a-second timer on Linux.
            let idleStart = processCPUSeconds()
            await sleepOnAThread(seconds: seconds / 2)
            let idle = (processCPUSeconds() - idleStart) / (seconds / 2)
            return Measurement(
                nanoseconds: adaptive.share * 1e9, baselineNanoseconds: floor.share * 1e9,
                extras: [
                    "sensors": sensors,
                    "samples per second": String(
                        format: "%.2f", Double(adaptive.samples) / adaptive.wall),
                    "the process idle": String(format: "%.4f%% of one core", idle * 100),
                    "cpu": String(
                        format: "%.4f%% of one core over %.0f s (target ≤ 0.03%%)",
                        adaptive.share * 100, adaptive.wall),
                    "floor": String(format: "%.4f%% of one core", floor.share * 100),
                ])
        }),
    Benchmark(
        name: "pressure.reaction-10hz",
        summary:
            "from a step across a threshold within reach (75 °C fair → 96 °C critical and back) to the sample that reports it (max of 10)",
        baselineSummary: "the 100 ms configured interval (ratio ≤ 1 = within one interval)",
        targetNanoseconds: 100_000_000,
        measure: {
            try await reaction(between: 75, and: 96, baseline: 0.1)
        }),
    Benchmark(
        name: "pressure.reaction-far",
        summary:
            "from a jump from far away (50 °C nominal → 96 °C critical) to the sample that reports it (max of 10)",
        baselineSummary: "the 1 s slow interval (ratio ≤ 1 = within one slow interval)",
        targetNanoseconds: 1_000_000_000,
        measure: {
            try await reaction(between: 50, and: 96, baseline: 1)
        }),
    coldSample,
]

/// Seconds each observer measurement runs: `HEADROOM_BENCH_OBSERVER_SECONDS`, default 60.
func observerSeconds() -> Double {
    Double(ProcessInfo.processInfo.environment["HEADROOM_BENCH_OBSERVER_SECONDS"] ?? "") ?? 60
}

/// Steps chip 0's input 1 between `low` and `high` °C ten times with the observer at 10 Hz
/// (adaptive), and measures from each step to the sample that saw it; the baseline is
/// `baseline` seconds.
private func reaction(between low: Double, and high: Double, baseline: Double) async throws
    -> Measurement
{
    guard try SensorTree.prepare().hasPrefix("fake") else {
        throw BenchmarkSetupError(
            description:
                "needs the fake hwmon tree to step a temperature: scripts/bench-pressure.sh")
    }
    // Temperatures only: PSI on a busy build machine would mask the step.
    let sampler = PressureSampler(temperatureSources: [LibsensorsSource()])
    try FakeHwmonTree.setTemperature(chip: 0, input: 1, celsius: low)
    let observer = PressureObserver(
        source: sampler, interval: .milliseconds(100), clock: ContinuousRunClock())
    let clock = ContinuousRunClock()
    var changes = observer.levelChanges().makeAsyncIterator()
    let task = Task { await observer.run() }
    // Step → the sample that saw it (the observer's reaction), and step → a subscriber
    // holding the change (adding the sample's own work and the subscriber's wake-up).
    var sampled: [Double] = []
    var delivered: [Double] = []
    // Let the observer settle at the low level (a first level change when it is not nominal).
    try await Task.sleep(nanoseconds: 1_500_000_000)
    while observer.latest?.level != (low >= 70 ? .fair : .nominal) {
        try await Task.sleep(nanoseconds: 10_000_000)
    }
    changes = observer.levelChanges().makeAsyncIterator()
    for step in 0..<10 {
        // A random phase within the interval, as a real step would have; from far away, a
        // second for the observer to fall back to its slow pace.
        let settle = low >= 70 ? 0.0 : 1.5
        try await Task.sleep(
            nanoseconds: UInt64((settle + Double.random(in: 0..<baseline)) * 1e9))
        let start = clock.now
        try FakeHwmonTree.setTemperature(chip: 0, input: 1, celsius: step % 2 == 0 ? high : low)
        guard let change = await changes.next() else { break }
        delivered.append(clock.now.duration(since: start).seconds)
        sampled.append(change.reading.time.duration(since: start).seconds)
    }
    task.cancel()
    await task.value
    try FakeHwmonTree.setTemperature(chip: 0, input: 1, celsius: 46)
    guard sampled.count == 10 else {
        throw BenchmarkSetupError(description: "saw \(sampled.count) of 10 level changes")
    }
    return Measurement(
        nanoseconds: (sampled.max() ?? 0) * 1e9, baselineNanoseconds: baseline * 1e9,
        extras: [
            "mean": String(format: "%.1f ms", sampled.reduce(0, +) / 10 * 1e3),
            "delivered to a subscriber": String(
                format: "max %.1f ms, mean %.1f ms", (delivered.max() ?? 0) * 1e3,
                delivered.reduce(0, +) / 10 * 1e3),
        ])
}

/// What the observer benchmarks read: the fake tree where `/sys/class` is a tmpfs (under
/// `scripts/bench-pressure.sh`), this host's own sensors otherwise (a Raspberry Pi, a Jetson).
enum SensorTree {
    /// Prepares the fake tree when there is one to prepare; says which was chosen.
    static func prepare() throws -> String {
        if FakeHwmonTree.isAvailable {
            try FakeHwmonTree.prepare()
            return "fake tree: 24 hwmon temperatures (4 chips)"
        }
        return "this host's own sensors"
    }
}

/// The benchmark's hwmon tree: 4 chips × 6 temperature inputs with labels and limits, written
/// only where `/sys/class` is a tmpfs (never into a real sysfs).
enum FakeHwmonTree {
    static let root = "/sys/class/hwmon"

    /// Whether `/sys/class` is a tmpfs here (a private mount namespace), never a real sysfs.
    static var isAvailable: Bool {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        let classMount = mounts.split(separator: "\n").map { $0.split(separator: " ") }
            .last { $0.count > 2 && $0[1] == "/sys/class" }
        return classMount?[2] == "tmpfs"
    }

    static func prepare() throws {
        guard isAvailable else {
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
    /// Not read while the observer runs (only the newest is kept, so nothing piles up): the
    /// observer's cost alone.
    case unread
    /// A task awaiting every reading as it comes.
    case awaiting
}

/// CPU used while observing: samples taken, CPU and wall seconds; sums over rounds.
struct ObserverCPU {
    var samples = 0
    var cpu = 0.0
    var wall = 0.0

    /// CPU seconds per sample.
    var cpuPerSample: Double { cpu / Double(max(samples, 1)) }
    /// CPU seconds per wall second: the share of one core.
    var share: Double { wall > 0 ? cpu / wall : 0 }

    static func += (lhs: inout ObserverCPU, rhs: ObserverCPU) {
        lhs.samples += rhs.samples
        lhs.cpu += rhs.cpu
        lhs.wall += rhs.wall
    }
}

/// `measured` and the floor (``ValueFileFloor``) in `rounds` interleaved rounds over `seconds`
/// in all, so that a change in the machine's load hits both alike; each side's median round by
/// CPU per sample, so that a burst of load during one round does not decide the figure.
func interleavedWithFloor(
    rounds: Int, seconds: Double, _ measured: (Double) async throws -> ObserverCPU
) async rethrows -> (measured: ObserverCPU, floor: ObserverCPU) {
    var measuredRounds: [ObserverCPU] = []
    var floorRounds: [ObserverCPU] = []
    for _ in 0..<rounds {
        measuredRounds.append(try await measured(seconds / Double(rounds)))
        floorRounds.append(await ValueFileFloor().cpu(seconds: seconds / Double(rounds)))
    }
    func median(_ rounds: [ObserverCPU]) -> ObserverCPU {
        rounds.sorted { $0.cpuPerSample < $1.cpuPerSample }[rounds.count / 2]
    }
    return (median(measuredRounds), median(floorRounds))
}

/// A sample source that counts the samples it gives.
final class CountingSource: SampleSource {
    let inner: any SampleSource
    let count = Atomic<Int>(0)

    init(_ inner: any SampleSource) { self.inner = inner }

    func sample(at time: MonotonicInstant) -> PressureSample? {
        count.add(1, ordering: .relaxed)
        return inner.sample(at: time)
    }
}

/// Process CPU used while an observer of this host's sources, configured for 10 Hz, runs for
/// `seconds`: at a fixed rate, or adaptive (1 Hz far from every threshold).
private func observerCPU(seconds: Double, consumer: ReadingConsumer, fixedRate: Bool) async
    -> ObserverCPU
{
    var configuration = PressureConfiguration()
    if fixedRate { configuration.sampling.slowInterval = .milliseconds(100) }
    let source = CountingSource(PressureSampler.system())
    let observer = PressureObserver(
        source: source, classifier: PressureClassifier(configuration: configuration),
        interval: .milliseconds(100), clock: ContinuousRunClock())
    let readings = observer.readings(bufferingPolicy: .bufferingNewest(1))
    let task = Task { await observer.run() }
    // From the first reading on: starting the thread and discovering every sensor (libsensors
    // reads its configuration and every chip) are not what a sample costs.
    var iterator = readings.makeAsyncIterator()
    _ = await iterator.next()
    let samplesBefore = source.count.load(ordering: .relaxed)
    let before = processCPUSeconds()
    let wallStart = MonotonicClock.now()
    switch consumer {
    case .unread:
        await sleepOnAThread(seconds: seconds)
    case .awaiting:
        while await iterator.next() != nil,
            MonotonicClock.now().seconds(since: wallStart) < seconds
        {}
    }
    task.cancel()
    await task.value
    let cpu = processCPUSeconds() - before
    let wall = MonotonicClock.now().seconds(since: wallStart)
    return ObserverCPU(
        samples: source.count.load(ordering: .relaxed) - samplesBefore, cpu: cpu, wall: wall)
}

/// Suspends for `seconds` with one `clock_nanosleep` on a thread of its own: `Task.sleep`
/// re-arms a dispatch timer every second on Linux, a wake-up a second that would be charged
/// to the observer being measured.
func sleepOnAThread(seconds: Double) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let nanoseconds = Int(deadline.tv_nsec) + Int((seconds * 1e9).rounded())
            deadline.tv_sec += nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) != 0 {}
            done.resume()
        }.start()
    }
}

/// The floor under any 10 Hz observer of this host's sources: a thread that sleeps with
/// `clock_nanosleep` until each deadline and `pread`s every value file the system sampler
/// reads (hwmon inputs, thermal zones, cpufreq, board signals every time; PSI every fifth
/// time, as the sampler reads it at 2 Hz) without parsing, allocating or deciding anything.
struct ValueFileFloor {
    /// Files read on every wake-up.
    let paths: [String]
    /// Files read on every fifth wake-up.
    let pressurePaths = ["cpu", "memory", "io"].map { "/proc/pressure/\($0)" }.filter {
        FileManager.default.fileExists(atPath: $0)
    }

    init() {
        let manager = FileManager.default
        func matches(_ directory: String, _ prefix: String, _ suffix: String) -> [String] {
            let names = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasPrefix(prefix) }.map { "\(directory)/\($0)\(suffix)" }
        }
        let hwmon = matches("/sys/class/hwmon", "hwmon", "").flatMap {
            matches($0, "", "").filter {
                ($0.hasSuffix("_input")
                    && ($0.contains("/temp") || $0.contains("/in")
                        || $0.contains("/curr") || $0.contains("/power")))
                    || $0.hasSuffix("_alarm")
            }
        }
        let zones = matches("/sys/class/thermal", "thermal_zone", "/temp")
        let cpus = matches("/sys/devices/system/cpu/cpufreq", "policy", "").flatMap { policy in
            ["scaling_cur_freq", "scaling_max_freq", "cpuinfo_max_freq"].map { "\(policy)/\($0)" }
        }
        let devfreq = matches("/sys/class/devfreq", "", "/cur_freq")
        paths = (hwmon + zones + cpus + devfreq).filter { manager.fileExists(atPath: $0) }
    }

    /// Process CPU while the floor loop runs for `seconds`, waking every `interval` seconds
    /// (PSI every fifth wake-up at 10 Hz, as the sampler reads it at most twice a second;
    /// every wake-up at 2 Hz and slower).
    func cpu(seconds: Double, interval: Double = 0.1) async -> ObserverCPU {
        let pressureEvery = max(1, Int((0.5 / interval).rounded()))
        let step = Int((interval * 1e9).rounded())
        let descriptors = paths.map { open($0, O_RDONLY | O_CLOEXEC) }.filter { $0 >= 0 }
        let pressure = pressurePaths.map { open($0, O_RDONLY | O_CLOEXEC) }.filter { $0 >= 0 }
        defer { for descriptor in descriptors + pressure { close(descriptor) } }
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
                    if count % pressureEvery == 0 {
                        for descriptor in pressure { _ = pread(descriptor, &buffer, 4096, 0) }
                    }
                    count += 1
                    let nanoseconds = Int(deadline.tv_nsec) + step
                    deadline.tv_sec += nanoseconds / 1_000_000_000
                    deadline.tv_nsec = nanoseconds % 1_000_000_000
                    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil)
                }
                done.resume(returning: count)
            }.start()
        }
        let cpu = processCPUSeconds() - before
        let wall = MonotonicClock.now().seconds(since: wallStart)
        return ObserverCPU(samples: samples, cpu: cpu, wall: wall)
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
func processCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Thread CPU time, seconds.
func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Median thread CPU time of `body` run 100 times, each after 100 ms asleep (caches cold, as
/// for a 10 Hz observer), in seconds.
private func coldMedian(_ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<100 {
        var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000)
        nanosleep(&pause, nil)
        let start = threadCPUSeconds()
        body()
        times.append(threadCPUSeconds() - start)
    }
    return times.sorted()[50]
}

/// Process CPU per wake-up of `wait`, 100 wake-ups 100 ms apart, in seconds.
private func wakeCost(_ wait: (Int64) -> Void) -> Double {
    let before = processCPUSeconds()
    for _ in 0..<100 { wait(Int64(MonotonicClock.now().nanoseconds) + 100_000_000) }
    return (processCPUSeconds() - before) / 100
}

/// Where a 10 Hz sample's time goes with cold caches: the observer's sample and
/// classification against the bare reads of the same files, and its wake-up against
/// `clock_nanosleep`'s.
private let coldSample = Benchmark(
    name: "pressure.sample-cold",
    summary: "one sample and its classification after 100 ms asleep (median thread CPU)",
    baselineSummary: "pread of the same value files after 100 ms asleep",
    targetNanoseconds: nil,
    measure: {
        let sensors = try SensorTree.prepare()
        let sampler = PressureSampler.system()
        var classifier = PressureClassifier()
        var time = MonotonicInstant.origin
        let sample = coldMedian {
            time = time.advanced(by: .milliseconds(100))
            blackHole(sampler.sample(at: time))
        }
        let classified = coldMedian {
            time = time.advanced(by: .milliseconds(100))
            if let sample = sampler.sample(at: time) { blackHole(classifier.classify(sample)) }
        }
        let descriptors = ValueFileFloor().paths.map { open($0, O_RDONLY | O_CLOEXEC) }
        defer { for descriptor in descriptors { close(descriptor) } }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let reads = coldMedian {
            for descriptor in descriptors { _ = pread(descriptor, &buffer, 4096, 0) }
        }
        let nanosleepWake = wakeCost { deadline in
            var spec = timespec(
                tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil)
        }
        let waitSet = WaitSet()
        let futexWake = wakeCost { deadline in _ = waitSet.wait(until: deadline) }
        return Measurement(
            nanoseconds: classified * 1e9, baselineNanoseconds: reads * 1e9,
            extras: [
                "sensors": sensors, "sample alone": format(sample * 1e9),
                "wake-up": String(
                    format: "WaitSet %@, clock_nanosleep %@", format(futexWake * 1e9),
                    format(nanosleepWake * 1e9)),
            ])
    })
