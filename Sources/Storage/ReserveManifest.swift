import Files

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

    /// The largest reserve a manifest may ask for: far beyond any disk a camera records to.
    static let capacityLimit = ByteCount(1 << 60)

    /// Reads the manifest at `path`; a missing file is an empty reserve. Headroom wrote it, but
    /// it is checked as strictly as user input: a manifest that says 1-byte segments would
    /// have `replenish` make millions of files.
    static func load(_ path: String) throws(StorageError) -> ReserveManifest {
        guard FileSystem.exists(path) else { return ReserveManifest() }
        do {
            let manifest = try decodeStrictly(
                ReserveManifest.self, from: InputFile.read(path), file: path)
            try manifest.validate()
            return manifest
        } catch {
            throw .invalid(error.inFile(path).description)
        }
    }

    /// Checks the fields against what Headroom writes: version 1, a capacity from 0 to
    /// ``capacityLimit``, segments of 0 (nothing allocated yet) or 1 MiB to 64 MiB.
    func validate() throws(ConfigurationError) {
        guard version == 1 else {
            throw ConfigurationError(
                path: "version", problem: "expected 1 (this Headroom's format), got \(version)")
        }
        guard capacityBytes >= .zero, capacityBytes <= Self.capacityLimit else {
            throw ConfigurationError(
                path: "capacityBytes",
                problem: "expected 0 to \(Self.capacityLimit.bytes), got \(capacityBytes.bytes)")
        }
        let segments = ByteCount.mebibytes(1)...ByteCount.mebibytes(64)
        guard segmentBytes == .zero || segments.contains(segmentBytes) else {
            throw ConfigurationError(
                path: "segmentBytes",
                problem:
                    "expected 0 or \(segments.lowerBound.bytes) to \(segments.upperBound.bytes), got \(segmentBytes.bytes)"
            )
        }
    }

    /// Writes the manifest to `path` atomically.
    func save(_ path: String) throws(StorageError) {
        do {
            try AtomicFile.write(try Self.encoded(self, as: .document, at: path), to: path)
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

    /// The longest header a recording has (a Y4M stream header is a line of tens of bytes).
    public static let headerLimit: Int64 = 1 << 20
    /// The largest unit: a 16384² frame of 16-bit 4:4:4 is 1.5 GiB.
    public static let unitLimit: Int64 = 1 << 32

    /// Checks the layout as a recording record gives it: a header of 0 to ``headerLimit``
    /// bytes and units of 1 to ``unitLimit`` bytes (so that no length computed from them
    /// overflows).
    public func validate() throws(ConfigurationError) {
        guard (0...Self.headerLimit).contains(headerBytes) else {
            throw ConfigurationError(
                path: "headerBytes",
                problem: "expected 0 to \(Self.headerLimit), got \(headerBytes)")
        }
        guard (1...Self.unitLimit).contains(unitBytes) else {
            throw ConfigurationError(
                path: "unitBytes", problem: "expected 1 to \(Self.unitLimit), got \(unitBytes)")
        }
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

    /// The record at `path`, or `nil` when there is none.
    ///
    /// - Throws: ``ConfigurationError`` naming the file and field when it is unreadable or its
    ///   values are not what Headroom writes: a relative or empty destination (it would be
    ///   recovered into whichever directory the next command runs in), a layout out of range.
    static func read(_ path: String) throws(ConfigurationError) -> RecordingRecord? {
        guard SystemCalls.fileSize(path) != nil else { return nil }
        let record = try decodeStrictly(
            RecordingRecord.self, from: InputFile.read(path), file: path)
        guard record.destination.hasPrefix("/") else {
            throw ConfigurationError(
                file: path, path: "destination",
                problem: "expected an absolute path, got \"\(record.destination.prefix(64))\"")
        }
        do { try record.layout.validate() } catch {
            throw ConfigurationError(
                file: path, path: "layout." + error.path, problem: error.problem)
        }
        return record
    }

    /// Writes the record to `path` atomically.
    func save(_ path: String) throws(StorageError) {
        do {
            try AtomicFile.write(
                try ReserveManifest.encoded(self, as: .line, at: path), to: path)
        } catch {
            throw .system(
                path: path, operation: "write the recording's record", error: error.problem)
        }
    }
}

extension ReserveManifest {
    /// `value` as JSON in `style`, for the file at `path`; an encoding that fails (a bug:
    /// these are plain values) is an error naming the file, never an empty file.
    static func encoded(_ value: some Encodable, as style: JSONStyle, at path: String)
        throws(ConfigurationError) -> [UInt8]
    {
        do {
            return try style.encode(value)
        } catch {
            throw ConfigurationError(file: path, path: "", problem: "cannot be encoded: \(error)")
        }
    }
}
