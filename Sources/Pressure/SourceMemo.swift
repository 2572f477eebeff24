import Units

#if canImport(Glibc)
    import Glibc
#endif

/// A source's last result, kept with the bytes of the open files it came from: while those
/// bytes stay the same and nothing else falls due (see ``QuietWatch``), reading the source
/// again would give the same result, and the sampler takes this one.
///
/// Checking costs one `pread` per file and a comparison, where reading the source runs its
/// lock, its parsing, its bookkeeping and the making of its result again — after 100 ms
/// asleep, cold, most of what a 10 Hz sample cost beyond its system calls. The bytes are read
/// before the source is, so a file that changes between the two makes the next comparison
/// fail rather than keep an older result; the files are held, so their descriptors cannot be
/// reused for other files while the bytes are compared. Used by one thread at a time (inside
/// the sampler's lock).
final class SourceMemo<Value> {
    /// The bytes read from one file at most; a longer content is never taken as unchanged.
    static var slot: Int { 64 }

    /// The source, when it can say what its reads depend on; otherwise it is read every time.
    private let watchable: (any QuietWatchable)?
    private var value: Value?
    private var files: [SysfsValueFile] = []
    private var descriptors: [Int32] = []
    /// Whether every watched file is held open, so that its bytes can be compared.
    private var isComparable = true
    /// Each file's bytes as read before the source was, ``slot`` bytes a file, with the count
    /// read (or −1 − errno); and the same for the read under way.
    private var contents: [UInt8] = [], lengths: [Int] = []
    private var freshContents: [UInt8] = [], freshLengths: [Int] = []
    private var until = MonotonicInstant(nanoseconds: 0)
    private var lastTime = MonotonicInstant(nanoseconds: 0)
    /// Whether the last ``value(at:read:)`` answered with the kept result.
    private(set) var wasReused = false
    /// The last ``check(at:)``: its time and whether the kept result held.
    private var checked: (time: MonotonicInstant, holds: Bool)?

    /// A memo for `source` (its conformance is looked up once, here: a cast on every sample
    /// cost more than the reads it saves).
    init(for source: Any) {
        watchable = source as? any QuietWatchable
    }

    /// Reads the watched files: whether the kept result holds at `time` (the files
    /// unchanged, nothing due). A ``value(at:read:)`` at the same time then takes this check
    /// rather than reading the files again; a source that cannot say what its reads depend on
    /// never holds.
    func check(at time: MonotonicInstant) -> Bool {
        guard watchable != nil else { return false }
        let isUnchanged = isComparable && readFiles()
        let holds = value != nil && isUnchanged && time >= lastTime && time < until
        if holds { lastTime = time }
        checked = (time, holds)
        return holds
    }

    /// The source's result at `time`: the kept one while it holds, else `read()`'s.
    func value(at time: MonotonicInstant, read: () -> Value) -> Value {
        wasReused = false
        guard let watchable else { return read() }
        let holds = checked.flatMap { $0.time == time ? $0.holds : nil } ?? check(at: time)
        checked = nil
        if holds, let value {
            wasReused = true
            return value
        }
        // Let go first, so that a source updating its result in place need not copy it.
        value = nil
        let result = read()
        lastTime = time
        guard let watch = watchable.quietWatch(after: time) else {
            adopt([])
            return result
        }
        if watch.files.count == files.count
            && zip(watch.files, files).allSatisfy({ $0 === $1 })
        {
            value = result
            until = watch.until
            swap(&contents, &freshContents)
            swap(&lengths, &freshLengths)
        } else {
            // Bytes read before this read belong to other files: the next read keeps them.
            adopt(watch.files)
        }
        return result
    }

    /// Watches `files` from the next read on. Where one is not held open (over the
    /// descriptor budget) their bytes are not compared, and the source is read every time.
    private func adopt(_ files: [SysfsValueFile]) {
        let held = files.compactMap(\.heldDescriptor)
        self.files = files
        isComparable = held.count == files.count
        descriptors = isComparable ? held : []
        let bytes = descriptors.count * Self.slot
        contents = [UInt8](repeating: 0, count: bytes)
        freshContents = [UInt8](repeating: 0, count: bytes)
        lengths = [Int](repeating: -1, count: descriptors.count)
        freshLengths = [Int](repeating: -1, count: descriptors.count)
        value = nil
    }

    /// Reads every watched file into the fresh contents; whether all hold what they held.
    private func readFiles() -> Bool {
        var isUnchanged = true
        let slot = Self.slot
        freshContents.withUnsafeMutableBytes { fresh in
            contents.withUnsafeBytes { kept in
                for index in descriptors.indices {
                    let start = index * slot
                    var count: Int
                    repeat {
                        count = pread(descriptors[index], fresh.baseAddress! + start, slot, 0)
                    } while count < 0 && errno == EINTR
                    if count < 0 { count = -1 - Int(errno) }
                    freshLengths[index] = count
                    if count != lengths[index] || count >= slot
                        || (count > 0
                            && memcmp(fresh.baseAddress! + start, kept.baseAddress! + start, count)
                                != 0)
                    {
                        isUnchanged = false
                    }
                }
            }
        }
        return isUnchanged
    }
}
