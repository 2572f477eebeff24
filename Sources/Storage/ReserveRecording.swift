import CStorage
import Files
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// A recording writing into the reserve (`usesProVideoStorage`): a file in the reserve's
/// `recordings/` whose blocks come from the reserve's segments, one segment at a time, claimed
/// on a thread of the recording's own two segments ahead of the writes (`SegmentClaims`),
/// written past the page cache (``uncachedDescriptor``) where the filesystem allows it.
///
/// Claiming a segment, under the reserve's lock, removes a free segment file and at once
/// allocates the same number of bytes past the recording's end (`fallocate` with
/// `FALLOC_FL_KEEP_SIZE`, so the file's length stays what was written). Writes then land in
/// blocks that are already allocated; remaining capacity falls by a segment at each claim. The
/// space between the removal and the allocation could in principle be taken by another
/// program in that instant; the claim then fails like a full reserve and the recording ends
/// cleanly.
public final class ReserveRecording: RecordingTarget {
    /// The recording's file in the reserve.
    public let descriptor: Int32
    /// The file opened with `O_DIRECT`; `nil` where the filesystem refuses it.
    public let uncachedDescriptor: Int32?
    /// Where the finished recording goes.
    public let destination: String

    private let reserve: StorageReserve
    private let token: BusyToken
    private let path: String
    private let recordPath: String
    /// The file's space, claimed ahead of the writes.
    private let claims: SegmentClaims

    /// Starts a recording for `destination` in `reserve`, laid out as `layout` (so an
    /// interrupted one can be recovered), and claims its first segment. A relative
    /// `destination` is made absolute here, so a recovery from another directory finds it.
    ///
    /// - Throws: ``StorageError/busy(_:)`` while the reserve is being resized,
    ///   ``StorageError/notEnoughSpace(needed:available:)`` when it has no free segment.
    public init(reserve: StorageReserve, destination: String, layout: RecordingLayout)
        throws(StorageError)
    {
        self.reserve = reserve
        let destination =
            destination.hasPrefix("/")
            ? destination : FileSystem.currentDirectory + "/" + destination
        self.destination = destination
        let id = SystemCalls.randomName()
        path = "\(reserve.recordingsDirectory)/\(id).part"
        recordPath = "\(reserve.recordingsDirectory)/\(id).json"
        let recordPath = recordPath
        let path = path
        (token, descriptor) = try reserve.lock.withLock {
            () throws(StorageError) -> (BusyToken, Int32) in
            let busy = reserve.liveBusyReasons().filter(\.isResizing)
            guard busy.isEmpty else { throw .busy(busy) }
            guard reserve.freeSegments().first != nil else {
                throw .notEnoughSpace(needed: ByteCount(layout.length(units: 1)), available: .zero)
            }
            let token = try BusyToken(.recording, id: id, in: reserve.busyDirectory)
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                token.release()
                throw SystemCalls.failure(path, "create the recording")
            }
            do throws(StorageError) {
                try RecordingRecord(destination: destination, layout: layout).save(recordPath)
            } catch {
                close(descriptor)
                unlink(path)
                token.release()
                throw error
            }
            return (token, descriptor)
        }
        uncachedDescriptor = SystemCalls.openUncached(path)
        let descriptor = descriptor
        claims = SegmentClaims(ahead: 2 * reserve.segmentSize().bytes) {
            [reserve] end throws(StorageError) in
            try Self.claimSegment(of: reserve, at: end, in: descriptor, path: path)
        }
        let hasSpace: Bool
        do {
            hasSpace = try claims.prepare(through: 1)
        } catch {
            abandon()
            throw error
        }
        guard hasSpace else {
            abandon()
            throw .notEnoughSpace(needed: ByteCount(layout.length(units: 1)), available: .zero)
        }
    }

    deinit { claims.stop() }

    /// Whether the bytes up to `end` are claimed (waiting only while a claim they need is under
    /// way), and asks for two segments more past it, so the claims stay ahead of the writes.
    public func prepare(through end: Int64) throws(StorageError) -> Bool {
        try claims.prepare(through: end)
    }

    /// Free segments plus what is allocated to this recording and not yet written.
    public func remaining(afterWriting written: Int64) -> ByteCount? {
        let (end, free) = claims.allocated
        return free + ByteCount(max(0, end - written))
    }

    /// Cuts the file to `length`, gives back what was allocated past it, flushes it and moves
    /// it to the destination; the recording's busy token goes. When that fails (the
    /// destination cannot be written), the recording stays in the reserve with its record, and
    /// the next start recovers it beside its destination.
    public func finish(length: Int64) throws(StorageError) -> String {
        claims.stop()
        if let uncachedDescriptor { close(uncachedDescriptor) }
        do {
            _ = try FinishedFile.finish(
                descriptor: descriptor, path: path, length: length,
                placement: .replacing(destination))
        } catch {
            try? reserve.lock.withLock { token.release() }
            throw error
        }
        abandonRecord()
        return destination
    }

    /// Takes one free segment of `reserve` for the file at `path`, allocating its bytes from
    /// `end`: the bytes and the reserve's free bytes after, `nil` when none is left.
    private static func claimSegment(
        of reserve: StorageReserve, at end: Int64, in descriptor: Int32, path: String
    ) throws(StorageError) -> (ByteCount, ByteCount)? {
        try reserve.lock.withLock { () throws(StorageError) -> (ByteCount, ByteCount)? in
            guard let (size, free) = reserve.takeSegment() else { return nil }
            guard headroom_fallocate(descriptor, 1, end, size.bytes) == 0 else {
                if errno == ENOSPC { return nil }
                throw SystemCalls.failure(path, "allocate \(size)")
            }
            return (size, free)
        }
    }

    /// Removes the recording without finishing it (it never began).
    private func abandon() {
        claims.stop()
        if let uncachedDescriptor { close(uncachedDescriptor) }
        close(descriptor)
        unlink(path)
        abandonRecord()
    }

    private func abandonRecord() {
        try? reserve.lock.withLock {
            unlink(recordPath)
            token.release()
        }
    }
}
