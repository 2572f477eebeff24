import Locking
import Units

/// Temperatures from lm-sensors: libsensors for discovery, labels and limits; the input files
/// kept open and re-read with `pread` for each sample.
///
/// Discovery runs again when the entries of `/sys/class/hwmon` change (looked for with
/// `readdir` at most every 5 s), when a file vanishes, and every ``rescanInterval`` seconds
/// (limits may change), so chips that appear later are picked up and removed ones turn stale.
public final class LibsensorsSource: TemperatureSource {
    /// Seconds between discoveries; 0 rediscovers on every sample.
    public let rescanInterval: Duration
    private let library: Libsensors
    private struct State {
        var table = PolledSensorTable()
        var schedule: DiscoverySchedule
        var fingerprint: Int?
        var failure: SourceUnavailable?
    }
    private let state: LockedState<State>

    /// A source using `library` (the process's one owner), rediscovering every
    /// `rescanInterval` seconds.
    public init(library: Libsensors = .shared, rescanInterval: Duration = .seconds(60)) {
        self.library = library
        self.rescanInterval = rescanInterval
        self.state = LockedState(State(schedule: DiscoverySchedule(rescanInterval: rescanInterval)))
    }

    /// Reads every discovered temperature input, rediscovering when due.
    ///
    /// - Throws: ``SourceUnavailable`` when libsensors cannot be initialized.
    public func readTemperatures(at time: MonotonicInstant) throws(SourceUnavailable)
        -> [SensorReading]
    {
        let library = self.library
        let result: Result<[SensorReading], SourceUnavailable> = state.withLock { state in
            let isDue = state.schedule.isDiscoveryDue(at: time)
            // New or removed entries are looked for now and then, not on every sample.
            var fingerprint = state.fingerprint
            if state.schedule.takeCheck(at: time) {
                fingerprint = directoryFingerprint("/sys/class/hwmon")
                state.table.checkForReplacedFiles()
            }
            if isDue || state.table.needsRediscovery || fingerprint != state.fingerprint {
                state.fingerprint = fingerprint
                // A failed start is retried at the next discovery, not on every sample.
                state.schedule.discovered(at: time)
                do throws(LibsensorsError) {
                    let discovered = try library.discover()
                    state.table.reconcile(with: discovered.map { Self.entry(for: $0, library) })
                    state.failure = nil
                } catch {
                    state.failure = SourceUnavailable(source: .libsensors, reason: error.problem)
                }
            }
            if let failure = state.failure { return .failure(failure) }
            return .success(state.table.read())
        }
        return try result.get()
    }

    private static func entry(for sensor: DiscoveredSensor, _ library: Libsensors)
        -> PolledSensorTable.Entry
    {
        let template = SensorReading(
            id: sensor.id, source: .libsensors, label: sensor.label, high: sensor.high,
            critical: sensor.critical, emergency: sensor.emergency,
            hysteresis: sensor.hysteresis, alarm: sensor.alarm)
        let overrideRead: (@Sendable () -> Result<Celsius, SensorFault>)? =
            sensor.isComputed ? { @Sendable in library.readValues([sensor])[0] } : nil
        return .init(template: template, path: sensor.inputPath, overrideRead: overrideRead)
    }
}

extension LibsensorsSource: QuietWatchable {
    /// The inputs' open files (none after a failed start), until the next directory check.
    func quietWatch(after time: MonotonicInstant) -> QuietWatch? {
        state.withLock { state in
            guard let until = state.schedule.nextDue else { return nil }
            if state.failure != nil { return QuietWatch(files: [], until: until) }
            return state.table.watchedFiles.map { QuietWatch(files: $0, until: until) }
        }
    }
}
