import Units

/// Reads every configured source into one ``PressureSample``.
///
/// Each source is independent: one that is unavailable is noted in the sample and the
/// others still count.
public struct PressureSampler: SampleSource {
    /// Temperature sources, read in order.
    public var temperatureSources: [any TemperatureSource]
    /// The CPU throttling source, if any.
    public var throttlingSource: (any ThrottlingSource)?
    /// The PSI source, if any.
    public var stallSource: (any PressureStallSource)?
    /// The board's power and GPU source, if any.
    public var boardSource: (any BoardSource)?

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

    /// Reads every source at `time`; never `nil`.
    public func sample(at time: MonotonicInstant) -> PressureSample? {
        var sample = PressureSample(time: time)
        for source in temperatureSources {
            do throws(SourceUnavailable) {
                let sensors = try source.readTemperatures(at: time)
                // The first source's array is taken whole (no copy of its readings).
                if sample.sensors.isEmpty {
                    sample.sensors = sensors
                } else {
                    sample.sensors += sensors
                }
            } catch {
                sample.unavailable.append(error)
            }
        }
        if let throttlingSource {
            do throws(SourceUnavailable) {
                sample.throttling = try throttlingSource.readThrottling(at: time)
            } catch {
                sample.unavailable.append(error)
            }
        }
        if let stallSource {
            do throws(SourceUnavailable) {
                sample.pressure = try stallSource.readPressure(at: time)
            } catch {
                sample.unavailable.append(error)
            }
        }
        if let signals = boardSource?.readBoard(at: time), !signals.isEmpty {
            sample.board = signals
        }
        sample.isSimulated = sample.sensors.contains { $0.source.isSimulated }
        return sample
    }
}
