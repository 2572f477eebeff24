import CStorage
import Files

#if canImport(Glibc)
    import Glibc
#endif

/// The last steps of every recording, whole or recovered: cut the file to its length (giving
/// back the blocks allocated past it), flush it, and move it to its destination — a rename on
/// the same filesystem, otherwise an atomic copy — then flush the destination's directory.
/// A destination never holds a part of a recording.
enum FinishedFile {
    /// Where a finished file goes.
    enum Placement {
        /// To this path, replacing what is there (a recording that ended normally).
        case replacing(String)
        /// To the first of these paths that is free, never over a file (a recovered
        /// recording); all in one directory.
        case firstFree([String])
    }

    /// Finishes the open file `descriptor` at `path` at `length` bytes and moves it to its
    /// `placement`; closes the descriptor and returns where the file now is.
    static func finish(
        descriptor: Int32, path: String, length: Int64, placement: Placement
    ) throws(StorageError) -> String {
        defer { close(descriptor) }
        // Truncating, even to the length the file already has, gives back the blocks kept past
        // its end (FALLOC_FL_KEEP_SIZE): checked on ext4 and tmpfs by the storage tests.
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw SystemCalls.failure(path, "truncate the recording")
        }
        guard fdatasync(descriptor) == 0 else {
            throw SystemCalls.failure(path, "flush the recording")
        }
        switch placement {
        case .replacing(let destination):
            try move(path, to: destination, descriptor: descriptor)
            return destination
        case .firstFree(let candidates):
            return try moveToFirstFree(path, candidates: candidates, descriptor: descriptor)
        }
    }

    /// Moves the flushed file at `path` to `destination`.
    private static func move(_ path: String, to destination: String, descriptor: Int32)
        throws(StorageError)
    {
        let parent = Destination.parent(of: destination)
        try SystemCalls.makeDirectories(parent)
        if rename(path, destination) == 0 {
            SystemCalls.syncDirectory(parent)
            return
        }
        guard errno == EXDEV else { throw SystemCalls.failure(destination, "move the recording") }
        try copy(path, to: destination, descriptor: descriptor)
        unlink(path)
    }

    /// Moves the flushed file at `path` to the first of `candidates` that does not exist, with
    /// `RENAME_NOREPLACE` (another filesystem: copied beside them first, then renamed so).
    private static func moveToFirstFree(_ path: String, candidates: [String], descriptor: Int32)
        throws(StorageError) -> String
    {
        guard let first = candidates.first else {
            preconditionFailure("a placement lists at least one name")
        }
        let parent = Destination.parent(of: first)
        try SystemCalls.makeDirectories(parent)
        var source = path
        var index = candidates.startIndex
        while index < candidates.endIndex {
            let candidate = candidates[index]
            if headroom_rename_noreplace(source, candidate) == 0 {
                SystemCalls.syncDirectory(parent)
                if source != path { unlink(path) }
                return candidate
            }
            switch errno {
            case EEXIST:
                index += 1
            case EXDEV where source == path:
                // Copied once into the destination's directory; the names are tried from it.
                let copied = "\(parent)/.recovering.\(SystemCalls.randomName())"
                try copy(path, to: copied, descriptor: descriptor)
                source = copied
            default:
                let error = SystemCalls.failure(candidate, "move the recording")
                if source != path { unlink(source) }
                throw error
            }
        }
        if source != path { unlink(source) }
        throw .system(
            path: first, operation: "move the recording",
            error: "\(candidates.count) names beside it are all taken")
    }

    /// Copies the flushed file `descriptor` (at `path`) to `destination` atomically.
    private static func copy(_ path: String, to destination: String, descriptor: Int32)
        throws(StorageError)
    {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw SystemCalls.failure(path, "read the recording")
        }
        do {
            try AtomicFile.write(to: destination) { DescriptorIO.copyRest(of: descriptor, to: $0) }
        } catch {
            throw .system(path: destination, operation: "copy the recording", error: error.problem)
        }
    }
}
