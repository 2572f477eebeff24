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
        /// The last check: a sample asked for at the time of a ``repeatsLastSample(at:)`` that
        /// said no takes it rather than reading every file again.
        private var lastCheck: (time: MonotonicInstant, holding: Holding)?

        /// A memo for each of `sampler`'s sources.
        init(for sampler: PressureSampler) {
            temperatures = sampler.temperatureSources.map { SourceMemo(for: $0) }
            throttling = sampler.throttlingSource.map { SourceMemo(for: $0) }
            stall = sampler.stallSource.map { SourceMemo(for: $0) }
            board = sampler.boardSource.map { SourceMemo(for: $0) }
        }

        /// Checks every source's files (see ``SourceMemo/check(at:)``), each once: which
        /// parts of the last sample hold at `time`.
        func check(at time: MonotonicInstant) -> Holding {
            if let lastCheck, lastCheck.time == time { return lastCheck.holding }
            var holding = Holding()
            for memo in temperatures where !memo.check(at: time) { holding.temperatures = false }
            if let throttling, !throttling.check(at: time) { holding.throttling = false }
            if let stall, !stall.check(at: time) { holding.stall = false }
            if let board, !board.check(at: time) { holding.board = false }
            lastCheck = (time, holding)
            return holding
        }
    }

    /// Which parts of the last sample hold: their sources' results would be the same.
    private struct Holding {
        var temperatures = true, throttling = true, stall = true, board = true

        /// Whether the whole sample holds.
        var all: Bool { temperatures && throttling && stall && board }
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

    /// Whether every source's result holds at `time` since the last sample (see
    /// ``SourceMemo/check(at:)``): the sample would be that one again.
    public func repeatsLastSample(at time: MonotonicInstant) -> Bool {
        memos.withLock { memos in
            guard let memos, memos.lastSample != nil else { return false }
            return memos.check(at: time).all
        }
    }

    private func sample(at time: MonotonicInstant, memos: Memos) -> PressureSample {
        let holding = memos.check(at: time)
        if var last = memos.lastSample {
            // Nothing read again: the last sample as it was, at this time — after 100 ms
            // asleep, making it again from the kept results cost more than every check before
            // it.
            if holding.all {
                last.time = time
                return last
            }
            // PSI refreshed (every fifth sample at 10 Hz), a frequency changed: only that part
            // read again, the rest of the last sample kept as it is.
            if holding.temperatures, renew(&last, at: time, holding: holding, memos: memos) {
                memos.lastSample = last
                return last
            }
        }
        let sample = assemble(at: time, memos: memos)
        memos.lastSample = sample
        return sample
    }

    /// Reads again the parts of `sample` besides its temperatures that do not hold, into it at
    /// `time`; false, leaving the sample to be made afresh, when one of them is unavailable
    /// now or was in `sample` (its unavailable sources would change).
    private func renew(
        _ sample: inout PressureSample, at time: MonotonicInstant, holding: Holding,
        memos: Memos
    ) -> Bool {
        if !holding.throttling, let throttlingSource, let memo = memos.throttling {
            let result = memo.value(at: time) {
                Result { () throws(SourceUnavailable) in
                    try throttlingSource.readThrottling(at: time)
                }
            }
            guard case .success(let throttling) = result, sample.throttling != nil else {
                return false
            }
            sample.throttling = throttling
        }
        if !holding.stall, let stallSource, let memo = memos.stall {
            let result = memo.value(at: time) {
                Result { () throws(SourceUnavailable) in try stallSource.readPressure(at: time) }
            }
            guard case .success(let pressure) = result, !sample.pressure.isEmpty else {
                return false
            }
            sample.pressure = pressure
        }
        if !holding.board, let boardSource, let memo = memos.board {
            let signals = memo.value(at: time) { boardSource.readBoard(at: time) }
            sample.board = signals.isEmpty ? nil : signals
        }
        sample.time = time
        return true
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
