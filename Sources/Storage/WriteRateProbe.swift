import Files
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Measures the rate at which a recording can write into the reserve, the way a
/// ``RecordingWriter`` writes there: units past the page cache (`UncachedSink`, or through it
/// where the filesystem refuses `O_DIRECT`), for long enough that the caches in front of the
/// disk (its own, a virtual disk's host's) have filled, and timed until the last byte is on the
/// disk. The sustained rate is the slowest second of the second half of the bytes: once those
/// caches no longer flatter it, what the disk holds even in its slow moments, which a recording
/// must get through with only its ring and its queue. `headroom calibrate` and `headroom storage measure` store it in the host
/// profile, where the estimator prices movie outputs against it.
public enum WriteRateProbe {
    /// What a measurement found.
    public struct Measurement: Codable, Equatable, Sendable {
        /// Bytes per second sustained to the disk: the slowest second of the second half of the
        /// bytes (``WriteRateProbe/sustainedRate(_:window:)``).
        public var rate: DataRate
        /// Bytes per second over the whole measurement, its start (what caches absorb)
        /// included.
        public var averageRate: DataRate
        /// Bytes written.
        public var bytes: ByteCount
        /// Seconds it took, until the last byte was on the disk.
        public var seconds: Double
        /// Whether the writes went into the reserve's preallocated blocks (otherwise into a
        /// file growing in its directory: the reserve had too little free).
        public var usedReserve: Bool
        /// Whether they bypassed the page cache, as recordings into the reserve do.
        public var uncached: Bool
        /// What another writer beside it wrote meanwhile (``CompetingWriter``), when one was
        /// asked for: its rate over the measurement.
        public var competitorRate: DataRate?

        /// What was written, how long it took, how and where: `2.63 GiB in 10.2 s past the
        /// page cache, beside the reserve at DIR (it holds less than 4 GiB)`, and `, with another
        /// writer beside it at 50 MiB/s (an fsync every 32 MiB)` when there was one.
        public func summary(reserve directory: String) -> String {
            "\(bytes) in \(seconds.fixed(1)) s "
                + (uncached
                    ? "past the page cache"
                    : "through the page cache (the filesystem refuses O_DIRECT)")
                + (usedReserve
                    ? ", into the reserve at \(directory)"
                    : ", beside the reserve at \(directory) (it holds less than"
                        + " \(WriteRateProbe.reserveNeeded))")
                + (competitorRate.map {
                    ", with another writer beside it at \($0) (an fsync every 32 MiB)"
                } ?? "")
        }
    }

    /// The rate the disk held even in its slowest stretch once half the bytes were on it:
    /// `progress` (seconds from the start, bytes on the disk by then; the last is the end) cut
    /// from there into consecutive stretches of at least `window` seconds, the slowest of them
    /// (a stretch shorter than `window` at the end is left out). Without a whole stretch, the
    /// rate from half the bytes to the end; with nothing after half, the average.
    static func sustainedRate(_ progress: [(seconds: Double, bytes: Int64)], window: Double = 1)
        -> DataRate
    {
        guard let end = progress.last, end.seconds > 0 else { return DataRate(bytesPerSecond: 0) }
        guard let half = progress.firstIndex(where: { $0.bytes * 2 >= end.bytes }),
            progress[half].seconds < end.seconds
        else { return DataRate(ByteCount(end.bytes), per: end.seconds) }
        var from = progress[half]
        var slowest: DataRate?
        for point in progress[(half + 1)...] where point.seconds - from.seconds >= window {
            let rate = DataRate(
                ByteCount(point.bytes - from.bytes), per: point.seconds - from.seconds)
            slowest = min(slowest ?? rate, rate)
            from = point
        }
        return slowest
            ?? DataRate(
                ByteCount(end.bytes - progress[half].bytes),
                per: end.seconds - progress[half].seconds)
    }

    /// The reserve's free space past one segment that the probe writes into; with less, it
    /// writes into a file growing beside the reserve (on the same filesystem).
    public static let reserveNeeded = ByteCount.gibibytes(4)

    /// Writes into `reserve` (or beside it, when it holds less than ``reserveNeeded``) for
    /// `seconds`, or until `limit` is written (at most what the reserve holds, or half the
    /// filesystem's free space beside it), and times it; the reserve is replenished afterwards.
    /// `uncached: false` writes through the page cache, flushed, as recordings outside the
    /// reserve do. With a `competitor` rate, another writer (``CompetingWriter``) writes at
    /// that rate beside it throughout, as a recorder's neighbour on the same disk would.
    ///
    /// - Throws: ``StorageError`` when nothing can be written there.
    public static func measure(
        in reserve: StorageReserve, seconds: Double = 10, limit: ByteCount = .gibibytes(16),
        uncached: Bool = true, competitor: DataRate? = nil, clock: any RunClock
    ) throws(StorageError) -> Measurement {
        let unit = ByteCount.mebibytes(4)
        let status = try reserve.status()
        let reserved = status.remainingBytes - status.segmentBytes
        let usesReserve = reserved >= reserveNeeded
        let room = usesReserve ? reserved : ByteCount(status.freeBytes.bytes / 2)
        let units = max(1, min(limit, room).bytes / unit.bytes)
        let layout = RecordingLayout(headerBytes: 0, unitBytes: unit.bytes)
        let destination = "\(reserve.directory)/.write-rate-probe.\(SystemCalls.randomName())"
        let target: any RecordingTarget =
            usesReserve
            ? try ReserveRecording(reserve: reserve, destination: destination, layout: layout)
            : try GrowingFileTarget(destination: destination, uncached: uncached)
        var options = RecordingWriter.Options()
        options.uncached = uncached
        let sink = target.sink(unitBytes: unit.bytes, options: options)
        var payload = [UInt8](repeating: 0, count: Int(unit.bytes))
        for index in payload.indices { payload[index] = UInt8(truncatingIfNeeded: index &* 131) }
        let competing = competitor.map {
            CompetingWriter(directory: reserve.directory, rate: $0, clock: clock)
        }
        let start = clock.now
        // After each unit: the time, and the bytes on the disk by then.
        var marks: [(seconds: Double, bytes: Int64)] = [(0, 0)]
        var appended: Int64 = 0
        var failure: StorageError?
        for _ in 0..<units where clock.now.seconds(since: start) < seconds {
            let end = appended + unit.bytes
            do throws(StorageError) {
                guard try target.prepare(through: end + sink.overhang) else {
                    throw SystemCalls.failure(destination, "allocate", errno: ENOSPC)
                }
            } catch {
                failure = error
                break
            }
            do {
                try sink.append([payload])
            } catch {
                failure = SystemCalls.failure(destination, "write", errno: error.code)
                break
            }
            appended = end
            marks.append((clock.now.seconds(since: start), sink.writtenBytes))
        }
        do {
            try sink.finish()
        } catch {
            failure = failure ?? SystemCalls.failure(destination, "write", errno: error.code)
        }
        let written = appended
        if failure == nil, fdatasync(target.descriptor) != 0 {
            failure = SystemCalls.failure(destination, "flush")
        }
        let elapsed = clock.now.seconds(since: start)
        let competed = competing?.stop()
        let path = try target.finish(length: written)
        unlink(path)
        if usesReserve { try reserve.replenish() }
        if let failure { throw failure }
        return Measurement(
            rate: sustainedRate(marks + [(elapsed, written)]),
            averageRate: DataRate(ByteCount(written), per: elapsed),
            bytes: ByteCount(written), seconds: elapsed, usedReserve: usesReserve,
            uncached: sink is UncachedSink,
            competitorRate: competed.map { DataRate($0, per: elapsed) })
    }
}
