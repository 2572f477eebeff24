import CStorage
import Capture
import Foundation
import LaunchTiming
import Lifecycle
import Locking
import Storage
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// The pro video storage benchmark: the same 1080p Y4M recording, at a data rate near this
/// disk's measured sustained write rate, while a competing process does buffered writes and
/// `fsync`s, through (a) a naive recorder writing from the frame loop into a growing file,
/// (b) the writer thread without preallocation, through the page cache, (c) the writer
/// thread into the reserve, past the page cache. First it measures the write rate both ways:
/// 3 s through the page cache, flushed (the figure `calibrate` used to store), and sustained
/// past it (``WriteRateProbe``, what it stores now).
let storageBenchmarks: [Benchmark] = [
    Benchmark(
        name: "storage.recording",
        summary:
            "frame-loop stall p99 recording through the reserve ((c): writer thread + reserve)",
        baselineSummary: "(a) a naive recorder writing from the frame loop into a growing file",
        targetNanoseconds: nil, targetRatio: 0.05,
        measure: { try StorageBenchmark().run() })
]

/// One run of the three recorders (see ``storageBenchmarks``). Environment:
/// `HEADROOM_BENCH_STORAGE_DIR` (default /var/tmp: a disk, not a tmpfs),
/// `HEADROOM_BENCH_STORAGE_SECONDS` (default 10 per recorder), and for exploring only (the
/// figures we quote use the defaults) `HEADROOM_BENCH_STORAGE_SHARE` (the recording's share of
/// the measured write rate, default 0.7) and `HEADROOM_BENCH_STORAGE_COMPETITOR_SHARE` (the
/// competitor's, default 0.2; 0 runs none).
struct StorageBenchmark {
    let root: String
    let seconds: Double
    let format = MovieFormat(width: 1920, height: 1080, frameRate: 30)
    /// The share of the measured write rate the recording uses, and the competitor's share.
    let recordingShare: Double
    let competitorShare: Double

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        root =
            (environment["HEADROOM_BENCH_STORAGE_DIR"] ?? "/var/tmp")
            + "/headroom-bench-storage-\(getpid())"
        seconds = Double(environment["HEADROOM_BENCH_STORAGE_SECONDS"] ?? "") ?? 10
        recordingShare = Double(environment["HEADROOM_BENCH_STORAGE_SHARE"] ?? "") ?? 0.7
        competitorShare =
            Double(environment["HEADROOM_BENCH_STORAGE_COMPETITOR_SHARE"] ?? "") ?? 0.2
    }

    /// What one recorder did.
    struct Result {
        var name: String
        var stalls: [Double]
        var writes: [Double]
        var dropped: Int
        /// Of ``dropped``, frames the frame loop itself was too late for (for (b) and (c),
        /// whose loop only enqueues: the scheduler's doing, not the recorder's).
        var late = 0
        var extents: Int64
        /// The most the ring past the page cache held ((c); zero for the others).
        var ringPeak = ByteCount.zero
    }

    func run() throws -> Measurement {
        try? FileManager.default.removeItem(atPath: root)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let reserve = try StorageReserve(directory: "\(root)/reserve")
        let cached = try WriteRateProbe.measure(
            in: reserve, seconds: 3, limit: .gibibytes(2), uncached: false,
            clock: ContinuousRunClock())
        let probe = try WriteRateProbe.measure(in: reserve, clock: ContinuousRunClock())
        print(rates(cached: cached, sustained: probe))
        let frameRate = probe.rate.bytesPerSecond * recordingShare / Double(format.bytesPerFrame)
        // At most a quarter of the free space per recording: the reserve holds one, and each
        // recorder's file is removed before the next one records.
        let affordable = try reserve.status().freeBytes.bytes / 4 / Int64(format.bytesPerFrame)
        let frames = min(Int(seconds * frameRate), Int(affordable))
        let recordingBytes = ByteCount(format.layout.length(units: Int64(frames)))
        try reserve.allocate(recordingBytes + .mebibytes(256))
        let competitor =
            competitorShare > 0
            ? try Competitor(directory: root, rate: probe.rate.bytesPerSecond * competitorShare)
            : nil
        defer { competitor?.stop() }
        let luma = (0..<16).map { index in
            [UInt8](
                repeating: UInt8(truncatingIfNeeded: index &* 37),
                count: format.width * format.height)
        }
        let naive = try recordNaively(frames: frames, frameRate: frameRate, luma: luma)
        let thread = try recordWithWriter(
            GrowingFileTarget(destination: "\(root)/writer.y4m"), name: "(b) writer thread",
            frames: frames, frameRate: frameRate, luma: luma)
        let reserved = try recordWithWriter(
            ReserveRecording(
                reserve: reserve, destination: "\(root)/reserve.y4m", layout: format.layout),
            name: "(c) writer thread + reserve", frames: frames, frameRate: frameRate, luma: luma)
        print(
            table(
                [naive, thread, reserved], rate: probe.rate, frameRate: frameRate, frames: frames))
        let writeRatio = percentile(reserved.writes, 0.99) / percentile(thread.writes, 0.99)
        let stallRatio = percentile(reserved.stalls, 0.99) / percentile(naive.stalls, 0.99)
        return Measurement(
            nanoseconds: percentile(reserved.stalls, 0.99) * 1e9,
            baselineNanoseconds: percentile(naive.stalls, 0.99) * 1e9,
            extras: [
                "frameLoopP99Ratio": String(format: "%.4f", stallRatio),
                "writeP99Ratio(c/b)": String(
                    format: "%.2f (target ≤ 0.5: %@)", writeRatio,
                    writeRatio <= 0.5 ? "met" : "MISSED"),
                "dropped(a,b,c)": "\(naive.dropped),\(thread.dropped),\(reserved.dropped)",
                "sustainedWriteRate":
                    "\(probe.rate) (3 s through the page cache: \(cached.averageRate))",
            ])
    }

    /// The two write rates, and how many 1080p30 Y4M movie outputs the estimator admits
    /// against each (at ``DeviceProfile/recordingWriteShare`` of the rate).
    private func rates(cached: WriteRateProbe.Measurement, sustained: WriteRateProbe.Measurement)
        -> String
    {
        let output = MovieFormat(width: 1920, height: 1080, frameRate: 30)
        func admitted(_ rate: DataRate) -> Int {
            Int(
                rate.bytesPerSecond * DeviceProfile.recordingWriteShare
                    / output.dataRate.bytesPerSecond)
        }
        return """
            storage.recording: write rate 3 s through the page cache, flushed (the old figure): \
            \(cached.averageRate) (\(cached.bytes)); past it, sustained (the slowest second of the \
            second half of \(String(format: "%.1f", sustained.seconds)) s): \(sustained.rate) (\(sustained.averageRate) \
            over all \(sustained.bytes)); 1080p30 Y4M movie outputs admitted at \
            \(Int(DeviceProfile.recordingWriteShare * 100)) % of each: \(admitted(cached.averageRate)) \
            and \(admitted(sustained.rate))
            """
    }

    /// (a): each frame written from the frame loop with one `writev` into a growing file; a
    /// frame that waits more than two frame intervals is lost, as in a camera's two-buffer ring.
    private func recordNaively(frames: Int, frameRate: Double, luma: [[UInt8]]) throws -> Result {
        let path = "\(root)/naive.y4m"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StorageError.system(path: path, operation: "create", error: "")
        }
        _ = RecordingWriter.write([format.header], to: descriptor)
        var stalls: [Double] = []
        var dropped = 0
        let chroma = format.neutralChroma
        pace(frames: frames, frameRate: frameRate, dropped: &dropped) { index in
            let start = MonotonicClock.now()
            _ = RecordingWriter.write(
                [MovieFormat.framePrefix, luma[index % luma.count], chroma], to: descriptor)
            stalls.append(MonotonicClock.now().seconds(since: start))
        }
        _ = fsync(descriptor)
        let extents = headroom_extent_count(descriptor)
        close(descriptor)
        unlink(path)
        return Result(
            name: "(a) naive, from the frame loop", stalls: stalls, writes: stalls,
            dropped: dropped, extents: extents)
    }

    /// (b) and (c): the frame loop only enqueues; the writer thread writes.
    private func recordWithWriter(
        _ target: any RecordingTarget, name: String, frames: Int, frameRate: Double,
        luma: [[UInt8]]
    ) throws -> Result {
        let writes = LockedState<[Double]>([])
        let writer = try RecordingWriter(
            target: target, layout: format.layout, header: format.header,
            unitPrefix: MovieFormat.framePrefix, unitSuffix: format.neutralChroma,
            onWrite: { seconds in writes.withLock { $0.append(seconds) } },
            clock: ContinuousRunClock())
        let writing = ThreadedWork("recording", work: writer.writeQueued, stop: writer.endWriting)
        writing.start()
        var stalls: [Double] = []
        var late = 0
        pace(frames: frames, frameRate: frameRate, dropped: &late) { index in
            let start = MonotonicClock.now()
            _ = writer.enqueue(luma[index % luma.count])
            stalls.append(MonotonicClock.now().seconds(since: start))
        }
        let summary = writing.finishWaiting()
        let descriptor = open(summary.path, O_RDONLY | O_CLOEXEC)
        defer {
            close(descriptor)
            unlink(summary.path)
        }
        return Result(
            name: name, stalls: stalls, writes: writes.withLock { $0 },
            dropped: late + Int(summary.framesDropped), late: late,
            extents: headroom_extent_count(descriptor), ringPeak: summary.ringPeak)
    }

    /// Calls `body` with each frame's index at its capture time, `1 / frameRate` apart; frames
    /// more than two intervals old when the loop gets to them are dropped.
    private func pace(
        frames: Int, frameRate: Double, dropped: inout Int, _ body: (Int) -> Void
    ) {
        let interval = 1 / frameRate
        let start = MonotonicClock.now()
        var index = 0
        while index < frames {
            let due = Double(index) * interval
            var now = MonotonicClock.now().seconds(since: start)
            if now < due {
                sleep(until: start.nanoseconds + UInt64(due * 1e9))
                now = due
            }
            let newest = min(frames - 1, Int(now / interval))
            if newest - index >= 2 {
                dropped += newest - 1 - index
                index = newest - 1
            }
            body(index)
            index += 1
        }
    }

    private func table(_ results: [Result], rate: DataRate, frameRate: Double, frames: Int)
        -> String
    {
        func ms(_ seconds: Double) -> String { String(format: "%.3f", seconds * 1e3) }
        var lines = [
            "storage.recording: \(frames) frames of 1920x1080 Y4M at \(String(format: "%.1f", frameRate)) fps"
                + " = \(DataRate(bytesPerSecond: frameRate * Double(format.bytesPerFrame)))"
                + " (\(Int(recordingShare * 100)) % of the \(rate) measured);"
                + " a competing process writes \(DataRate(bytesPerSecond: rate.bytesPerSecond * competitorShare))"
                + " buffered with an fsync every 32 MiB; files in \(root)",
            "    recorder                        stall p50 ms  p99 ms   max ms  write p50 ms  p99 ms   max ms  dropped  extents  ring MiB",
        ]
        for result in results {
            let ring = result.ringPeak == .zero ? "-" : String(result.ringPeak.bytes >> 20)
            lines.append(
                "    " + result.name.padding(toLength: 32, withPad: " ", startingAt: 0)
                    + ms(percentile(result.stalls, 0.5)).leftPadded(12)
                    + ms(percentile(result.stalls, 0.99)).leftPadded(8)
                    + ms(result.stalls.max() ?? 0).leftPadded(9)
                    + ms(percentile(result.writes, 0.5)).leftPadded(14)
                    + ms(percentile(result.writes, 0.99)).leftPadded(8)
                    + ms(result.writes.max() ?? 0).leftPadded(9)
                    + ("\(result.dropped)" + (result.late > 0 ? " (\(result.late) late)" : ""))
                    .leftPadded(9)
                    + String(result.extents).leftPadded(9)
                    + ring.leftPadded(10))
        }
        return lines.joined(separator: "\n")
    }
}

/// The competing process: `headroom-bench --storage-competitor DIR BYTES-PER-SECOND` writes
/// as a ``CompetingWriter`` does, until it is killed (a process of its own, so its CPU is not
/// the recorders').
struct Competitor {
    private let process: Process

    init(directory: String, rate: Double) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--storage-competitor", directory, String(Int(rate))]
        try process.run()
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// The competitor's loop (in the child process), until it is killed.
    static func main(directory: String, rate: Double) -> Never {
        _ = CompetingWriter.write(
            into: "\(directory)/competitor.bin", rate: DataRate(bytesPerSecond: rate),
            clock: ContinuousRunClock()
        ) { true }
        exit(1)
    }
}

/// Sleeps until `nanoseconds` on the monotonic clock (an absolute deadline: lateness does
/// not accumulate).
func sleep(until nanoseconds: UInt64) {
    var deadline = timespec(
        tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
}

/// The `fraction` percentile of `values` (nearest rank); 0 when empty.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
