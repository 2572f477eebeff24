import Files
import FoundationEssentials
import Locking
import Tracking

#if canImport(Glibc)
    import Glibc
#endif

/// A MOTChallenge file a run writes as it goes (the detector's boxes, the tracks), so that
/// anyone can score or compare them: lines gathered in memory and spilled in blocks to an
/// unnamed temporary file (a day's run keeps flat memory and nothing appears half-written in
/// the report directory), then copied atomically to their place when the run ends. A log keeps
/// at most ``capacity`` bytes — by default what `headroom track` and `evaluate` read, about
/// six million boxes — so a run of days keeps flat disk too: lines past it are counted, not
/// kept (``droppedRecords``).
final class MOTLog: Sendable {
    /// Bytes of lines held before they are spilled to the temporary file.
    static let spillSize = 1 << 18

    private struct Spill {
        var pending = ""
        /// The unnamed temporary file; -1 before the first spill.
        var descriptor: Int32 = -1
        /// Bytes of lines kept, spilled or pending.
        var bytes = 0
        /// Records past ``capacity``, not kept.
        var dropped = 0
        /// Why lines were lost, once they were (the temporary file could not be written).
        var problem: String?
    }

    private let spill = LockedState(Spill())
    /// The most bytes of lines kept.
    let capacity: Int

    /// An empty log keeping at most `capacity` bytes of lines.
    init(capacity: Int = MOTFile.maximumFileSize) {
        self.capacity = capacity
    }

    /// Records that came past ``capacity`` and were not kept.
    var droppedRecords: Int { spill.withLock { $0.dropped } }

    deinit {
        spill.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// Adds `records` as MOTChallenge lines.
    func append(_ records: [MOTRecord]) {
        guard !records.isEmpty else { return }
        let lines = MOTFile.format(records)
        let capacity = capacity
        spill.withLock { spill in
            guard spill.problem == nil else { return }
            guard spill.bytes + lines.utf8.count <= capacity else {
                spill.dropped += records.count
                return
            }
            spill.bytes += lines.utf8.count
            spill.pending += lines
            if spill.pending.utf8.count >= Self.spillSize { Self.flush(&spill) }
        }
    }

    /// Writes every line so far to `path` atomically.
    ///
    /// - Throws: ``ConfigurationError`` naming `path` when it cannot be written, or when lines
    ///   were lost on the way (the temporary file could not be written).
    func write(to path: String) throws(ConfigurationError) {
        let (descriptor, problem) = spill.withLock { spill in
            Self.flush(&spill)
            return (spill.descriptor, spill.problem)
        }
        if let problem { throw ConfigurationError(file: path, path: "", problem: problem) }
        guard descriptor >= 0 else {
            try AtomicFile.write([], to: path)
            return
        }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw ConfigurationError(
                file: path, path: "",
                problem: "cannot read a temporary file: \(String(cString: strerror(errno)))")
        }
        try AtomicFile.write(to: path) { DescriptorIO.copyRest(of: descriptor, to: $0) }
    }

    /// Moves the pending lines into the temporary file, made on the first spill.
    private static func flush(_ spill: inout Spill) {
        guard !spill.pending.isEmpty, spill.problem == nil else { return }
        if spill.descriptor < 0 {
            var template = Array(
                (FileManager.default.temporaryDirectory.path + "/headroom-mot-XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                spill.problem = "cannot make a temporary file: \(String(cString: strerror(errno)))"
                return
            }
            // Unnamed from now on: it goes away with the descriptor, however the run ends.
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            spill.descriptor = descriptor
        }
        let written = spill.pending.withUTF8 { bytes in
            DescriptorIO.writeAll(UnsafeRawBufferPointer(bytes), to: spill.descriptor)
        }
        guard written else {
            spill.problem = "cannot write a temporary file: \(String(cString: strerror(errno)))"
            return
        }
        spill.pending = ""
    }
}

/// What a run saw, frame by frame, for anyone to score or compare: every box the detector
/// found (`detections.txt`, id −1) and the tracks it reported (`tracks.txt`), MOTChallenge
/// lines numbered by the video's own frames.
struct RunRecords: Sendable {
    /// The detector's boxes, with its confidences.
    let detections = MOTLog()
    /// The tracks reported, with their identities.
    let tracks = MOTLog()

    /// Writes both into `directory`; returns the paths written and a note for each that was not.
    func write(into directory: String) -> (paths: [String], notes: [String]) {
        var paths: [String] = []
        var notes: [String] = []
        for (name, log) in [("detections.txt", detections), ("tracks.txt", tracks)] {
            let path = "\(directory)/\(name)"
            do {
                try log.write(to: path)
                paths.append(path)
            } catch {
                notes.append("\(name) was not written: \(error)")
            }
            let dropped = log.droppedRecords
            if dropped > 0 {
                notes.append(
                    "\(name) holds the run's first \(log.capacity >> 20) MiB of lines (what"
                        + " headroom track reads); \(dropped) later boxes were not kept")
            }
        }
        return (paths, notes)
    }
}
