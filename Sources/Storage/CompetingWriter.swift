import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Another program's writes beside a recording, as `storage measure --competitor` and the
/// recording benchmark set them against it: 1 MiB chunks written through the page cache into a
/// file of its own at a steady rate, with an `fsync` every 32 MiB (what keeps the filesystem's
/// journal busy, as a camera recorder's neighbour does), the file replaced every 256 MiB.
public final class CompetingWriter: Sendable {
    /// The rate it writes at.
    public let rate: DataRate
    private let isStopping = LockedState(false)
    private let written = Completion<Int64>()

    /// Starts writing into a new file in `directory` at `rate`, on a thread of its own, paced
    /// by `clock`; until ``stop()``.
    public init(directory: String, rate: DataRate, clock: any RunClock) {
        self.rate = rate
        DetachedThread.start(name: "competing-writer") { [self] in
            let path = "\(directory)/.competing-writer.\(SystemCalls.randomName())"
            let bytes = Self.write(into: path, rate: rate, clock: clock) {
                !isStopping.withLock { $0 }
            }
            unlink(path)
            written.complete(bytes)
        }
    }

    /// Stops it and waits for its thread (at most a chunk's pause); its file is removed.
    /// Returns what it wrote.
    public func stop() -> ByteCount {
        isStopping.withLock { $0 = true }
        return ByteCount(written.wait())
    }

    /// Writes into `path` at `rate` while `continues()` says so (asked before each chunk), or
    /// until a write fails; returns the bytes written. The file is left where it is.
    public static func write(
        into path: String, rate: DataRate, clock: any RunClock, while continues: () -> Bool
    ) -> Int64 {
        let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
        let start = clock.now
        var written: Int64 = 0
        while continues() {
            unlink(path)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return written }
            defer { close(descriptor) }
            for megabyte in 1...256 {
                guard continues() else { break }
                let count = chunk.withUnsafeBytes {
                    Glibc.write(descriptor, $0.baseAddress, $0.count)
                }
                guard count == chunk.count else { return written }
                written += Int64(count)
                if megabyte % 32 == 0 { fsync(descriptor) }
                // Each chunk at its due time, never early: lateness does not accumulate.
                let due = start.advanced(by: .seconds(Double(written) / rate.bytesPerSecond))
                let pause = due.duration(since: clock.now)
                if pause > .zero {
                    let (seconds, attoseconds) = pause.components
                    var interval = timespec(
                        tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                    var remaining = timespec()
                    while nanosleep(&interval, &remaining) != 0, errno == EINTR {
                        interval = remaining
                    }
                }
            }
        }
        return written
    }
}
