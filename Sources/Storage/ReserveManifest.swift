import Files
import Foundation

/// The reserve's settings, in `reserve.json` (written atomically): the capacity it is kept at
/// and the size of its segments. What the reserve holds now is not written down: it is the
/// segment files themselves, so a manifest can never disagree with the disk.
struct ReserveManifest: Codable, Equatable {
    /// The manifest's format.
    var version = 1
    /// The size `allocate` asked for and `replenish` restores.
    var capacityBytes = ByteCount.zero
    /// The size of each segment (the last may be smaller); 0 before the first allocation.
    var segmentBytes = ByteCount.zero

    /// The segment size for a reserve of `capacity`: a sixteenth of it, whole mebibytes
    /// between 1 MiB and 64 MiB, so remaining capacity falls in visible steps and a recording
    /// claims its next segment well before it needs it.
    static func segmentSize(for capacity: ByteCount) -> ByteCount {
        let mebibyte = ByteCount.mebibytes(1).bytes
        let sixteenth = capacity.bytes / 16 / mebibyte * mebibyte
        return ByteCount(min(max(sixteenth, mebibyte), ByteCount.mebibytes(64).bytes))
    }

    /// Reads the manifest at `path`; a missing file is an empty reserve.
    static func load(_ path: String) throws(StorageError) -> ReserveManifest {
        guard FileManager.default.fileExists(atPath: path) else { return ReserveManifest() }
        do {
            return try decodeStrictly(
                ReserveManifest.self, from: InputFile.read(path), file: path)
        } catch {
            throw .invalid(error.description)
        }
    }

    /// Writes the manifest to `path` atomically.
    func save(_ path: String) throws(StorageError) {
        do {
            try AtomicFile.write((try? JSONEncoder.document().encode(self)) ?? Data(), to: path)
        } catch {
            throw .system(path: path, operation: "write the manifest", error: error.problem)
        }
    }
}

/// How a recording's file is laid out, so that an interrupted one can be cut back to its last
/// whole unit: a header of fixed length, then units (frames) of fixed length.
public struct RecordingLayout: Codable, Equatable, Sendable {
    /// Bytes before the first unit (a Y4M stream header).
    public var headerBytes: Int64
    /// Bytes of each unit (a Y4M frame with its `FRAME` line).
    public var unitBytes: Int64

    /// A layout of a `headerBytes` header and `unitBytes` units.
    public init(headerBytes: Int64, unitBytes: Int64) {
        self.headerBytes = headerBytes
        self.unitBytes = unitBytes
    }

    /// How many whole units a file of `length` bytes holds (0 when the header is incomplete).
    public func wholeUnits(in length: Int64) -> Int64 {
        length < headerBytes || unitBytes <= 0 ? 0 : (length - headerBytes) / unitBytes
    }

    /// The length of a file holding `units` whole units.
    public func length(units: Int64) -> Int64 { headerBytes + units * unitBytes }
}

/// What the reserve remembers about a recording in progress, in `recordings/ID.json`, so the
/// next Headroom start can finish what a killed process left.
struct RecordingRecord: Codable, Equatable {
    /// Where the finished recording goes.
    var destination: String
    /// Its layout.
    var layout: RecordingLayout

    /// The record at `path`, or `nil` when it is missing or unreadable.
    static func read(_ path: String) -> RecordingRecord? {
        try? decodeStrictly(RecordingRecord.self, from: InputFile.read(path), file: path)
    }

    /// Writes the record to `path` atomically.
    func save(_ path: String) throws(StorageError) {
        do {
            try AtomicFile.write((try? JSONEncoder().encode(self)) ?? Data(), to: path)
        } catch {
            throw .system(
                path: path, operation: "write the recording's record", error: error.problem)
        }
    }
}
