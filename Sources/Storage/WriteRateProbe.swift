import FoundationEssentials
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Measures the sustained rate at which a recording can write into the reserve: the same
/// writes a ``RecordingWriter`` makes (units with one `writev` each, paced by the same
/// ``WritebackPacer``), timed until the last byte is on the disk, so the page cache cannot
/// flatter it. `headroom calibrate` stores the result in the host profile,
/// where the estimator prices movie outputs against it.
public enum WriteRateProbe {
    /// What a measurement found.
    public struct Measurement: Codable, Equatable, Sendable {
        /// Bytes per second, sustained to the disk.
        public var rate: DataRate
        /// Bytes written.
        public var bytes: ByteCount
        /// Whether the writes went into the reserve's preallocated blocks (otherwise into a
        /// file growing in its directory: the reserve had too little free).
        public var usedReserve: Bool
    }

    /// Writes into `reserve` (or beside it when it has less free) for at least `seconds` —
    /// long enough that a disk's or a virtual disk's caches are no longer what is measured —
    /// or until `limit` is written (at most what the reserve holds, or half the filesystem's
    /// free space beside it), and times it;
    /// the reserve is replenished afterwards.
    ///
    /// - Throws: ``StorageError`` when nothing can be written there.
    public static func measure(
        in reserve: StorageReserve, seconds: Double = 3, limit: ByteCount = .gibibytes(2),
        clock: any RunClock
    ) throws(StorageError) -> Measurement {
        let unit = ByteCount.mebibytes(4)
        let status = try reserve.status()
        // Into the reserve when it holds at least 256 MiB past one segment, else beside it.
        let reserved = status.remainingBytes - status.segmentBytes
        let usesReserve = reserved >= .mebibytes(256)
        let room = usesReserve ? reserved : ByteCount(status.freeBytes.bytes / 2)
        let units = max(1, min(limit, room).bytes / unit.bytes)
        let layout = RecordingLayout(headerBytes: 0, unitBytes: unit.bytes)
        let destination = "\(reserve.directory)/.write-rate-probe.\(SystemCalls.randomName())"
        let target: any RecordingTarget =
            usesReserve
            ? try ReserveRecording(reserve: reserve, destination: destination, layout: layout)
            : try GrowingFileTarget(destination: destination)
        var payload = [UInt8](repeating: 0, count: Int(unit.bytes))
        for index in payload.indices { payload[index] = UInt8(truncatingIfNeeded: index &* 131) }
        var pacer = WritebackPacer(
            descriptor: target.descriptor, options: RecordingWriter.Options(), start: 0)
        let start = clock.now
        var written: Int64 = 0
        for _ in 0..<units where clock.now.seconds(since: start) < seconds {
            guard try target.prepare(through: written + unit.bytes),
                RecordingWriter.write([payload], to: target.descriptor)
            else { throw SystemCalls.failure(destination, "write") }
            written += unit.bytes
            pacer.wrote(through: written)
        }
        _ = pacer.flush(through: written)
        let elapsed = clock.now.seconds(since: start)
        let path = try target.finish(length: written)
        unlink(path)
        if usesReserve { try reserve.replenish() }
        return Measurement(
            rate: DataRate(ByteCount(written), per: elapsed),
            bytes: ByteCount(written), usedReserve: usesReserve)
    }
}
