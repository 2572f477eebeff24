import CStorage
import Files

#if canImport(Glibc)
    import Glibc
#endif

/// The pro video storage reserve: disk space set aside before recording, so a recording's
/// writes never wait for the filesystem to find blocks (see the module overview).
///
/// A reserve is a directory shared by every Headroom process on the machine:
///
/// - `segments/NNNNNN`: the reserve itself, files allocated with `fallocate(2)` (real blocks,
///   not holes) of ``StorageStatus/segmentBytes`` each;
/// - `reserve.json`: the capacity to keep and the segment size;
/// - `reserve.lock`: taken around every short change (``ReserveLock``);
/// - `busy/REASON.ID`: one locked token per piece of long work (``BusyToken``);
/// - `recordings/ID.part` and `ID.json`: recordings in progress and where they go.
///
/// Opening a reserve recovers what killed processes left: stale tokens and half-made segments
/// are removed, and an interrupted recording is cut back to its last whole frame and moved
/// beside its destination as `NAME.recovered.EXT` (see ``Recovery``).
public final class StorageReserve: Sendable {
    /// The reserve's directory.
    public let directory: String
    /// What opening the reserve recovered from processes that were killed.
    public let recovered: [Recovery]

    let lock: ReserveLock
    var segmentsDirectory: String { "\(directory)/segments" }
    var busyDirectory: String { "\(directory)/busy" }
    var recordingsDirectory: String { "\(directory)/recordings" }
    private var manifestPath: String { "\(directory)/reserve.json" }

    /// `$XDG_DATA_HOME/headroom/storage`, or `~/.local/share/headroom/storage`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        "\(DataHome.directory(environment: environment))/headroom/storage"
    }

    /// Opens the reserve in `directory`, creating it if needed, and recovers what killed
    /// processes left in it.
    ///
    /// - Throws: ``StorageError/notSupported(_:)`` when the directory cannot be created (a
    ///   read-only filesystem), or another ``StorageError`` when recovery fails.
    public init(directory: String) throws(StorageError) {
        self.directory = directory
        lock = ReserveLock(path: "\(directory)/reserve.lock")
        do {
            for child in ["segments", "busy", "recordings"] {
                try SystemCalls.makeDirectories("\(directory)/\(child)")
            }
        } catch {
            throw .notSupported("\(directory) cannot be created: \(error)")
        }
        var recovered: [Recovery] = []
        let recordings = "\(directory)/recordings"
        try lock.withLock { () throws(StorageError) in
            recovered = Recovery.recoverAll(
                recordings: recordings, busy: "\(directory)/busy",
                segments: "\(directory)/segments")
        }
        self.recovered = recovered
    }

    // MARK: - State

    /// The reserve's state; with `destination`, also whether a recording there is renamed into
    /// place or copied.
    public func status(destination: String? = nil) throws(StorageError) -> StorageStatus {
        let (manifest, free, tokens) = try lock.withLock {
            () throws(StorageError) -> (ReserveManifest, [Segment], [BusyToken.Found]) in
            (try ReserveManifest.load(manifestPath), freeSegments(), BusyToken.scan(busyDirectory))
        }
        let live = tokens.filter(\.isLive).compactMap(\.reason)
        let problem = supportProblem()
        var status = StorageStatus(
            path: directory, isSupported: problem == nil, unsupportedReason: problem,
            filesystem: filesystemName(), capacityBytes: manifest.capacityBytes,
            remainingBytes: free.reduce(.zero) { $0 + $1.size },
            segmentBytes: manifest.segmentBytes, busyReasons: Array(Set(live)).sorted(),
            recordings: live.filter { $0 == .recording }.count, freeBytes: freeSpace())
        if let destination {
            status.destination = destination
            status.destinationIsSameFilesystem = isOnReserveFilesystem(destination)
        }
        return status
    }

    /// Why a reserve cannot work here (a read-only filesystem, no `fallocate`), or `nil`.
    public func supportProblem() -> String? {
        var info = statvfs()
        if statvfs(directory, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 {
            return "\(directory) is on a read-only filesystem"
        }
        let probe = "\(directory)/.probe.\(SystemCalls.randomName())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return "cannot create files in \(directory): \(String(cString: strerror(errno)))"
        }
        defer {
            close(descriptor)
            unlink(probe)
        }
        if headroom_fallocate(descriptor, 0, 0, 4096) != 0 && errno == EOPNOTSUPP {
            return "the \(filesystemName()) filesystem under \(directory) has no fallocate"
        }
        return nil
    }

    /// Whether `path` (or, for a file not yet written, its nearest existing directory) is on
    /// the reserve's filesystem.
    public func isOnReserveFilesystem(_ path: String) -> Bool {
        var candidate = FileSystem.absolute(path)
        while SystemCalls.device(of: candidate) == nil && candidate != "/" {
            candidate = FileSystem.parent(of: candidate)
        }
        return SystemCalls.device(of: candidate) == SystemCalls.device(of: directory)
    }

    // MARK: - Sizing

    /// Sets the reserve's capacity to `capacity`, creating segments (busy `allocating`) or
    /// removing free ones (busy `releasing`); `progress` is called with the bytes held and the
    /// target after each segment.
    ///
    /// - Throws: ``StorageError/busy(_:)`` while anything else uses the reserve,
    ///   ``StorageError/notEnoughSpace(needed:available:)`` when the filesystem lacks the
    ///   space (checked before anything is allocated), ``StorageError/invalid(_:)`` for a
    ///   capacity of zero.
    public func allocate(
        _ capacity: ByteCount, progress: (ByteCount, ByteCount) -> Void = { _, _ in }
    ) throws(StorageError) {
        guard capacity > .zero else {
            throw .invalid("SIZE: expected more than 0 bytes (use `release` to give it all back)")
        }
        if let problem = supportProblem() { throw .notSupported(problem) }
        let held = try lock.withLock { () throws(StorageError) -> ByteCount in
            try requireIdle()
            let free = freeSegments()
            let held = free.reduce(.zero) { $0 + $1.size }
            if capacity > held, capacity - held > freeSpace() {
                throw .notEnoughSpace(needed: capacity - held, available: freeSpace())
            }
            var manifest = try ReserveManifest.load(manifestPath)
            if free.isEmpty { manifest.segmentBytes = ReserveManifest.segmentSize(for: capacity) }
            manifest.capacityBytes = capacity
            try manifest.save(manifestPath)
            return held
        }
        try withBusyToken(capacity >= held ? .allocating : .releasing) { () throws(StorageError) in
            try removeFreeSegments(keeping: capacity)
            try fill(to: capacity, progress: progress)
        }
    }

    /// Gives the whole reserve back to the filesystem (busy `releasing`); capacity becomes 0.
    ///
    /// - Throws: ``StorageError/busy(_:)`` while anything else uses the reserve.
    public func release() throws(StorageError) {
        try lock.withLock { () throws(StorageError) in
            try requireIdle()
            var manifest = try ReserveManifest.load(manifestPath)
            manifest.capacityBytes = .zero
            try manifest.save(manifestPath)
        }
        try withBusyToken(.releasing) { () throws(StorageError) in
            try removeFreeSegments(keeping: .zero)
        }
    }

    /// Recreates the segments finished recordings used, up to the capacity (busy
    /// `replenishing`), as far as the filesystem's free space allows; returns the bytes added.
    ///
    /// - Throws: ``StorageError/busy(_:)`` while anything else uses the reserve (a recording
    ///   included: it claims segments as it goes).
    @discardableResult
    public func replenish(progress: (ByteCount, ByteCount) -> Void = { _, _ in })
        throws(StorageError) -> ByteCount
    {
        let (held, target) = try lock.withLock {
            () throws(StorageError) -> (ByteCount, ByteCount) in
            try requireIdle()
            let held = freeSegments().reduce(.zero) { $0 + $1.size }
            let capacity = try ReserveManifest.load(manifestPath).capacityBytes
            return (held, max(held, min(capacity, held + freeSpace())))
        }
        guard target > held else { return .zero }
        try withBusyToken(.replenishing) { () throws(StorageError) in
            try fill(to: target, progress: progress)
        }
        return target - held
    }

    // MARK: - Segments

    /// A free segment of the reserve.
    struct Segment {
        var name: String
        var size: ByteCount
    }

    /// The free segments, in name order (only whole ones: a segment is renamed into place once
    /// it is allocated).
    func freeSegments() -> [Segment] {
        SystemCalls.names(in: segmentsDirectory).compactMap { name in
            guard name.allSatisfy(\.isNumber),
                let size = SystemCalls.fileSize("\(segmentsDirectory)/\(name)")
            else { return nil }
            return Segment(name: name, size: ByteCount(size))
        }
    }

    /// Takes the first free segment out of the reserve, giving its blocks back to the
    /// filesystem for the caller to allocate at once: its size and what the reserve still
    /// holds, or `nil` when no segment is left. Call it holding the reserve's lock.
    func takeSegment() -> (size: ByteCount, remaining: ByteCount)? {
        let segments = freeSegments()
        guard let segment = segments.first else { return nil }
        unlink("\(segmentsDirectory)/\(segment.name)")
        return (segment.size, segments.dropFirst().reduce(.zero) { $0 + $1.size })
    }

    /// The segment size in the manifest (1 MiB for a reserve never allocated).
    func segmentSize() -> ByteCount {
        let size = (try? ReserveManifest.load(manifestPath).segmentBytes) ?? .zero
        return size > .zero ? size : .mebibytes(1)
    }

    /// Creates segments until the reserve holds `target`.
    private func fill(to target: ByteCount, progress: (ByteCount, ByteCount) -> Void)
        throws(StorageError)
    {
        let segmentBytes = segmentSize()
        let segments = freeSegments()
        var held = segments.reduce(.zero) { $0 + $1.size }
        var number = (segments.compactMap { Int($0.name) }.max() ?? 0) + 1
        progress(held, target)
        while held < target {
            let size = min(segmentBytes, target - held)
            try createSegment(number: number, size: size)
            held = held + size
            number += 1
            progress(held, target)
        }
    }

    /// Allocates `segments/.NNNNNN.tmp`, then renames it to `NNNNNN`, so a segment is never
    /// seen half-allocated.
    private func createSegment(number: Int, size: ByteCount) throws(StorageError) {
        let name = String(repeating: "0", count: max(0, 6 - String(number).count)) + "\(number)"
        let temporary = "\(segmentsDirectory)/.\(name).tmp"
        let descriptor = open(
            temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SystemCalls.failure(temporary, "create a segment") }
        defer { close(descriptor) }
        guard headroom_fallocate(descriptor, 0, 0, size.bytes) == 0, fsync(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            if code == EOPNOTSUPP {
                throw .notSupported("the \(filesystemName()) filesystem has no fallocate")
            }
            if code == ENOSPC {
                throw .notEnoughSpace(needed: size, available: freeSpace())
            }
            throw SystemCalls.failure(temporary, "allocate \(size)", errno: code)
        }
        guard rename(temporary, "\(segmentsDirectory)/\(name)") == 0 else {
            throw SystemCalls.failure(temporary, "rename the segment")
        }
    }

    /// Removes free segments, last first, until at most `capacity` is held.
    private func removeFreeSegments(keeping capacity: ByteCount) throws(StorageError) {
        var segments = freeSegments()
        var held = segments.reduce(.zero) { $0 + $1.size }
        while held > capacity, let last = segments.popLast() {
            let path = "\(segmentsDirectory)/\(last.name)"
            guard unlink(path) == 0 else { throw SystemCalls.failure(path, "remove the segment") }
            held = held - last.size
        }
        SystemCalls.syncDirectory(segmentsDirectory)
    }

    // MARK: - Busy state

    /// The reasons live processes hold the reserve busy for. Call it holding the lock.
    func liveBusyReasons() -> [BusyReason] {
        Array(Set(BusyToken.scan(busyDirectory).filter(\.isLive).compactMap(\.reason))).sorted()
    }

    /// Throws ``StorageError/busy(_:)`` unless nothing holds the reserve.
    private func requireIdle() throws(StorageError) {
        let busy = liveBusyReasons()
        guard busy.isEmpty else { throw .busy(busy) }
    }

    /// Runs `body` with a `reason` token held.
    private func withBusyToken(_ reason: BusyReason, _ body: () throws(StorageError) -> Void)
        throws(StorageError)
    {
        let token = try lock.withLock { () throws(StorageError) in
            try BusyToken(reason, id: SystemCalls.randomName(), in: busyDirectory)
        }
        defer { try? lock.withLock { token.release() } }
        try body()
    }

    // MARK: - The filesystem

    /// Free space for an unprivileged user on the reserve's filesystem.
    func freeSpace() -> ByteCount {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return .zero }
        return ByteCount(Int64(info.f_bavail) * Int64(info.f_frsize))
    }

    private func filesystemName() -> String {
        FilesystemName.of(magic: headroom_filesystem_magic(directory))
    }
}
