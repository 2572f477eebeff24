import Units

/// What a source's next reads depend on, as the source says after a read: the open files it
/// reads, and until when reading them is all it does (before a discovery, a directory check
/// or a refresh falls due). While the files hold the same bytes, reading the source again
/// before then gives the same result (see ``SourceMemo``).
struct QuietWatch {
    /// The open files the source reads; each holds its descriptor (``SysfsValueFile/heldDescriptor``).
    var files: [SysfsValueFile]
    /// The first time at which the source does more than read them.
    var until: MonotonicInstant
}

/// A source that can say what its next reads depend on (see ``QuietWatch``).
protocol QuietWatchable: AnyObject {
    /// What the source's reads after `time` depend on; `nil` when the next read must run
    /// whatever the files hold: a discovery due, a file read by path or a value computed by
    /// libsensors.
    func quietWatch(after time: MonotonicInstant) -> QuietWatch?
}

extension DiscoverySchedule {
    /// The first time at which a discovery or a quick look falls due (see
    /// ``isDiscoveryDue(at:)`` and ``takeCheck(at:)``); `nil` before the first discovery.
    var nextDue: MonotonicInstant? {
        guard let discovery = nextDiscovery else { return nil }
        guard let check = lastCheck?.advanced(by: Self.checkInterval) else { return discovery }
        return min(discovery, check)
    }

    /// When the next full discovery falls due; `nil` before the first.
    var nextDiscovery: MonotonicInstant? { lastDiscovery?.advanced(by: rescanInterval) }
}
