import Files

#if canImport(Glibc)
    import Glibc
#endif

/// What opening a reserve did with a recording whose process was killed.
///
/// Every byte a recorder's `write` returned for is in the kernel, so a recording killed by a
/// signal loses nothing it wrote (a power cut loses what was written since its last
/// `fdatasync`). Recovery keeps it: the file is cut back to its last whole frame, flushed and
/// moved beside its destination as `NAME.recovered.EXT` — never to the destination itself, so
/// a file there is always a recording that ended normally — and never over another file: when
/// that name is taken (an earlier recovery, a second killed recording for the same
/// destination) it goes to `NAME.recovered.1.EXT`, `.2`, … (moved with `RENAME_NOREPLACE`).
/// A recording without one whole frame is discarded. Either way its segments' space returns to the filesystem, and `replenish`
/// brings the reserve back to its capacity.
public struct Recovery: Equatable, Sendable, CustomStringConvertible {
    /// What happened to it.
    public enum Outcome: Equatable, Sendable {
        /// Kept: `frames` whole frames, now at `path`.
        case finalized(path: String, frames: Int64)
        /// Removed: it held no whole frame.
        case discarded
        /// Left in the reserve, to be tried again at the next start: why it could not be moved.
        case failed(String)
    }

    /// The destination the recording was meant for.
    public var destination: String
    /// What happened to it.
    public var outcome: Outcome

    /// A recovery of a recording meant for `destination`.
    public init(destination: String, outcome: Outcome) {
        self.destination = destination
        self.outcome = outcome
    }

    /// `recovered 42 frames of an interrupted recording into clip.recovered.y4m`.
    public var description: String {
        switch outcome {
        case .finalized(let path, let frames):
            return
                "recovered \(frames) frames of an interrupted recording for \(destination) into \(path)"
        case .discarded:
            return "discarded an interrupted recording for \(destination): it held no whole frame"
        case .failed(let problem):
            return
                "could not recover an interrupted recording for \(destination) (\(problem)); it stays in the reserve and the next start tries again"
        }
    }

    /// How many numbered names a recovery tries after `NAME.recovered.EXT`.
    static let numberedNames = 99

    /// Where a recovered recording for `destination` goes: `clip.y4m` → `clip.recovered.y4m`,
    /// or `clip.recovered.N.y4m` (N from 1) when the `attempt`-th name is wanted.
    public static func recoveredPath(for destination: String, attempt: Int = 0) -> String {
        let nameExtension = FileSystem.nameExtension(of: destination)
        let suffix = nameExtension.isEmpty ? "" : ".\(nameExtension)"
        let number = attempt == 0 ? "" : ".\(attempt)"
        let directory = FileSystem.parent(of: FileSystem.absolute(destination))
        return "\(directory == "/" ? "" : directory)/"
            + "\(FileSystem.stem(of: destination)).recovered\(number)\(suffix)"
    }

    /// Recovers every recording no live process holds (one that cannot be moved is left for
    /// the next start, reported as ``Outcome/failed(_:)``), then removes stale tokens and
    /// half-made segments. Call it holding the reserve's lock.
    static func recoverAll(recordings: String, busy: String, segments: String) -> [Recovery] {
        let tokens = BusyToken.scan(busy)
        let live = Set(tokens.filter(\.isLive).map(\.name))
        var recovered: [Recovery] = []
        for name in SystemCalls.names(in: recordings) where name.hasSuffix(".part") {
            let id = String(name.dropLast(".part".count))
            guard !live.contains("\(BusyReason.recording.rawValue).\(id)") else { continue }
            let part = "\(recordings)/\(name)"
            let record = "\(recordings)/\(id).json"
            let info: RecordingRecord
            do throws(ConfigurationError) {
                // Killed before its record was written: nothing says where it was going.
                guard let read = try RecordingRecord.read(record) else {
                    unlink(part)
                    continue
                }
                info = read
            } catch {
                // A damaged record is reported and its recording kept, never guessed at.
                recovered.append(
                    Recovery(
                        destination: "an unknown destination", outcome: .failed(error.description)))
                continue
            }
            do {
                recovered.append(try recover(part: part, info: info))
                unlink(record)
            } catch {
                // One recording that cannot be moved must not keep the reserve from opening.
                recovered.append(
                    Recovery(destination: info.destination, outcome: .failed(error.description)))
            }
        }
        // Records whose recording is gone (killed between the two removals).
        for name in SystemCalls.names(in: recordings) where name.hasSuffix(".json") {
            let id = String(name.dropLast(".json".count))
            let isLive = live.contains("\(BusyReason.recording.rawValue).\(id)")
            if !isLive && SystemCalls.fileSize("\(recordings)/\(id).part") == nil {
                unlink("\(recordings)/\(name)")
            }
        }
        for token in tokens where !token.isLive { unlink("\(busy)/\(token.name)") }
        for name in SystemCalls.names(in: segments) where name.hasSuffix(".tmp") {
            unlink("\(segments)/\(name)")
        }
        return recovered
    }

    /// Recovers one recording described by `info`.
    private static func recover(part: String, info: RecordingRecord) throws(StorageError)
        -> Recovery
    {
        let length = SystemCalls.fileSize(part) ?? 0
        let frames = info.layout.wholeUnits(in: length)
        guard frames > 0 else {
            unlink(part)
            return Recovery(destination: info.destination, outcome: .discarded)
        }
        let descriptor = open(part, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCalls.failure(part, "open the recording") }
        let path = try FinishedFile.finish(
            descriptor: descriptor, path: part, length: info.layout.length(units: frames),
            placement: .firstFree(
                (0...numberedNames).map { recoveredPath(for: info.destination, attempt: $0) }))
        return Recovery(
            destination: info.destination, outcome: .finalized(path: path, frames: frames))
    }
}
