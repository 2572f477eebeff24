import Locking
import Units

/// Reads every configured source into one ``PressureSample``.
///
/// Each source is independent: one that is unavailable is noted in the sample and the
/// others still count. A source that can say what its reads depend on (the system's all do)
/// is read again only when the bytes of its open files changed or its discovery, check or
/// refresh fell due; otherwise its last result is taken (see ``SourceMemo``), and when every
/// source's is, the last sample is given again at the new time. Copies of a
/// sampler share these results until their sources are changed.
public struct PressureSampler: SampleSource {
    /// Temperature sources, read in order.
    public var temperatureSources: [any TemperatureSource] { didSet { forgetResults() } }
    /// The CPU throttling source, if any.
    public var throttlingSource: (any ThrottlingSource)? { didSet { forgetResults() } }
    /// The PSI source, if any.
    public var stallSource: (any PressureStallSource)? { didSet { forgetResults() } }
    /// The board's power and GPU source, if any.
    public var boardSource: (any BoardSource)? { didSet { forgetResults() } }
    /// Each source's last result and what it depends on, made for the sources at hand.
    private final class Memos {
        let temperatures: [SourceMemo<Result<[SensorReading], SourceUnavailable>>]
        let throttling: SourceMemo<Result<CPUThrottling, SourceUnavailable>>?
        let stall: SourceMemo<Result<[PSIReading], SourceUnavailable>>?
        let board: SourceMemo<BoardSignals>?
        /// The temperature sources' readings joined, as long as none of them was read again:
        /// the same array, sample after sample.
        var joinedSensors: [SensorReading]?
        /// The last sample, taken again (at the new time) while every source's result holds.
        var lastSample: PressureSample?

        /// A memo for each of `sampler`'s sources.
        init(for sampler: PressureSampler) {
            temperatures = sampler.temperatureSources.map { SourceMemo(for: $0) }
            throttling = sampler.throttlingSource.map { SourceMemo(for: $0) }
            stall = sampler.stallSource.map { SourceMemo(for: $0) }
            board = sampler.boardSource.map { SourceMemo(for: $0) }
        }

        /// Checks every source's files (see ``SourceMemo/check(at:)``), each once: whether
        /// every kept result holds at `time`.
        func allHold(at time: MonotonicInstant) -> Bool {
            var holds = true
            for memo in temperatures where !memo.check(at: time) { holds = false }
            if let throttling, !throttling.check(at: time) { holds = false }
            if let stall, !stall.check(at: time) { holds = false }
            if let board, !board.check(at: time) { holds = false }
            return holds
        }
    }
    private var memos: LockedState<Memos?> = LockedState(nil)

    /// A sampler over the given sources.
    public init(
        temperatureSources: [any TemperatureSource],
        throttlingSource: (any ThrottlingSource)? = nil,
        stallSource: (any PressureStallSource)? = nil, boardSource: (any BoardSource)? = nil
    ) {
        self.temperatureSources = temperatureSources
        self.throttlingSource = throttlingSource
        self.stallSource = stallSource
        self.boardSource = boardSource
    }

    /// Starts afresh with the sources now set (a copy that kept the others keeps its own).
    private mutating func forgetResults() {
        memos = LockedState(nil)
    }

    /// The real sources of this host: libsensors, thermal zones, cpufreq, PSI and the board's
    /// signals under `roots`
    /// (PSI read at most twice a second: the kernel updates its averages every 2 s).
    ///
    /// `rescanInterval` is how often discovery runs again even when no directory changed.
    public static func system(
        roots: SystemRoots = SystemRoots(), rescanInterval: Duration = .seconds(60)
    )
        -> PressureSampler
    {
        PressureSampler(
            temperatureSources: [
                LibsensorsSource(rescanInterval: rescanInterval),
                ThermalZoneSource(roots: roots, rescanInterval: rescanInterval),
            ],
            throttlingSource: CPUFrequencySource(roots: roots, rescanInterval: rescanInterval),
            stallSource: PSISource(roots: roots, refreshInterval: .milliseconds(500)),
            boardSource: BoardSignalSource(roots: roots, rescanInterval: rescanInterval))
    }

    /// Reads every source at `time` (or takes its last result, see ``SourceMemo``); never
    /// `nil`.
    public func sample(at time: MonotonicInstant) -> PressureSample? {
        memos.withLock { memos in
            let current = memos ?? Memos(for: self)
            memos = current
            return sample(at: time, memos: current)
        }
    }

    private func sample(at time: MonotonicInstant, memos: Memos) -> PressureSample {
        // Nothing read again: the last sample as it was, at this time — after 100 ms asleep,
        // making it again from the kept results cost more than every check before it.
        if memos.allHold(at: time), var last = memos.lastSample {
            last.time = time
            return last
        }
        let sample = assemble(at: time, memos: memos)
        memos.lastSample = sample
        return sample
    }

    /// The sample at `time` from each source's result, kept or read again.
    private func assemble(at time: MonotonicInstant, memos: Memos) -> PressureSample {
        var sample = PressureSample(time: time)
        var unavailable = Failures(last: memos.lastSample?.unavailable ?? [])
        var isJoinedCurrent = memos.joinedSensors != nil
        for (source, memo) in zip(temperatureSources, memos.temperatures) {
            let result = memo.value(at: time) {
                Result { () throws(SourceUnavailable) in try source.readTemperatures(at: time) }
            }
            isJoinedCurrent = isJoinedCurrent && memo.wasReused
            switch result {
            case .success(let sensors):
                // The first source's array is taken whole (no copy of its readings).
                if sample.sensors.isEmpty {
                    sample.sensors = sensors
                } else if !sensors.isEmpty {
                    sample.sensors += sensors
                }
            case .failure(let error):
                unavailable.append(error)
            }
        }
        if isJoinedCurrent, let joined = memos.joinedSensors {
            sample.sensors = joined
        } else {
            memos.joinedSensors = sample.sensors
        }
        if let throttlingSource, let memo = memos.throttling {
            let result = memo.value(at: time) {
                Result { () throws(SourceUnavailable) in
                    try throttlingSource.readThrottling(at: time)
                }
            }
            switch result {
            case .success(let throttling): sample.throttling = throttling
            case .failure(let error): unavailable.append(error)
            }
        }
        if let stallSource, let memo = memos.stall {
            let result = memo.value(at: time) {
                Result { () throws(SourceUnavailable) in try stallSource.readPressure(at: time) }
            }
            switch result {
            case .success(let pressure): sample.pressure = pressure
            case .failure(let error): unavailable.append(error)
            }
        }
        if let boardSource, let memo = memos.board {
            let signals = memo.value(at: time) {
                boardSource.readBoard(at: time)
            }
            if !signals.isEmpty { sample.board = signals }
        }
        sample.unavailable = unavailable.all
        sample.isSimulated = sample.sensors.contains { $0.source.isSimulated }
        return sample
    }
}

/// The sources found unavailable while a sample is made: the last sample's array as long as
/// they are the same ones in the same order (the usual case: a host without cpufreq lacks it
/// at every sample), so that no array is made and grown at every sample.
private struct Failures {
    /// The last sample's.
    let last: [SourceUnavailable]
    /// How many of `last` the failures so far are.
    private var matched = 0
    /// The failures, once they differ from `last`.
    private var differing: [SourceUnavailable]?

    init(last: [SourceUnavailable]) { self.last = last }

    /// Adds the next failure.
    mutating func append(_ failure: SourceUnavailable) {
        if differing == nil, matched < last.count, last[matched] == failure {
            matched += 1
        } else {
            differing = (differing ?? Array(last[..<matched])) + [failure]
        }
    }

    /// Every failure added, in order.
    var all: [SourceUnavailable] {
        differing ?? (matched == last.count ? last : Array(last[..<matched]))
    }
}
