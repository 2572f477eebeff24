import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Measures the sustained rate at which a recording can write into the reserve: the same
/// writes a ``RecordingWriter`` makes (units with one `writev` each, `fdatasync` every
/// ``RecordingWriter/Options/syncInterval``), timed until the last byte is on the disk, so the
/// page cache cannot flatter it. `headroom calibrate` stores the result in the host profile,
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

    /// Writes `bytes` into `reserve` (or beside it when it has less free) and times it; the
    /// reserve is replenished afterwards.
    ///
    /// - Throws: ``StorageError`` when nothing can be written there.
    public static func measure(
        in reserve: StorageReserve, bytes: ByteCount = .mebibytes(256)
    ) throws(StorageError) -> Measurement {
        let unit = ByteCount.mebibytes(4)
        let units = max(1, bytes.bytes / unit.bytes)
        let layout = RecordingLayout(headerBytes: 0, unitBytes: unit.bytes)
        let destination = "\(reserve.directory)/.write-rate-probe.\(SystemCalls.randomName())"
        let status = try reserve.status()
        let usesReserve =
            status.remainingBytes.bytes >= units * unit.bytes + status.segmentBytes.bytes
        let target: any RecordingTarget =
            usesReserve
            ? try ReserveRecording(reserve: reserve, destination: destination, layout: layout)
            : try GrowingFileTarget(destination: destination)
        var payload = [UInt8](repeating: 0, count: Int(unit.bytes))
        for index in payload.indices { payload[index] = UInt8(truncatingIfNeeded: index &* 131) }
        let syncInterval = RecordingWriter.Options().syncInterval.bytes
        let clock = ContinuousClock()
        let start = clock.now
        var written: Int64 = 0
        var synced: Int64 = 0
        for _ in 0..<units {
            guard try target.prepare(through: written + unit.bytes),
                RecordingWriter.write([payload], to: target.descriptor)
            else { throw SystemCalls.failure(destination, "write") }
            written += unit.bytes
            if written - synced >= syncInterval {
                _ = fdatasync(target.descriptor)
                synced = written
            }
        }
        _ = fdatasync(target.descriptor)
        let elapsed = clock.now - start
        let path = try target.finish(length: written)
        unlink(path)
        if usesReserve { try reserve.replenish() }
        let (seconds, attoseconds) = elapsed.components
        return Measurement(
            rate: DataRate(
                ByteCount(written), per: Double(seconds) + Double(attoseconds) * 1e-18),
            bytes: ByteCount(written), usedReserve: usesReserve)
    }
}
