import Files
import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Temperatures from kernel thermal zones (`class/thermal/thermal_zone*`), with limits from
/// their trip points, and the state of their cooling devices.
///
/// The first `passive` trip point is the high limit, the `hot` and `critical` trip points the
/// others; a trip point's `hyst` is the sensor's hysteresis. Cooling devices appear as
/// entries with a `ratio` value (`cur_state / max_state`). Zones' `temp` and devices'
/// `cur_state` are kept open and re-read with `pread`; types, trip points and `max_state` are
/// read at discovery.
public final class ThermalZoneSource: TemperatureSource {
    /// Where `/sys` is.
    public let roots: SystemRoots
    /// Seconds between rediscoveries of zones and trip points; 0 rediscovers every sample.
    public let rescanInterval: Duration
    private struct State {
        var table: PolledSensorTable
        var schedule: DiscoverySchedule
        var fingerprint: Int?
        /// Whether `class/thermal` existed at the last fingerprint check.
        var directoryExists = false
    }
    private let state: LockedState<State>
    /// `class/thermal` under ``roots``.
    private let directory: String
    /// What a sample says when that directory does not exist.
    private let missing: SourceUnavailable

    /// A source reading zones under `roots`, rediscovering every `rescanInterval`.
    public convenience init(
        roots: SystemRoots = SystemRoots(), rescanInterval: Duration = .seconds(60)
    ) {
        self.init(roots: roots, rescanInterval: rescanInterval, open: PolledSensorTable.sysfs)
    }

    /// A source whose value files are opened by `open` (tests inject failing files).
    init(roots: SystemRoots, rescanInterval: Duration, open: @escaping PolledSensorTable.Opener) {
        self.roots = roots
        self.rescanInterval = rescanInterval
        self.state = LockedState(
            State(
                table: PolledSensorTable(open: open),
                schedule: DiscoverySchedule(rescanInterval: rescanInterval)))
        self.directory = roots.thermalClass
        self.missing = SourceUnavailable(source: .thermalZone, reason: "no \(roots.thermalClass)")
    }

    /// Reads every zone and cooling device.
    ///
    /// - Throws: ``SourceUnavailable`` when there is no thermal class directory at all (looked
    ///   for at most every 5 s).
    public func readTemperatures(at time: MonotonicInstant) throws(SourceUnavailable)
        -> [SensorReading]
    {
        let directory = self.directory
        let missing = self.missing
        let result: Result<[SensorReading], SourceUnavailable> = state.withLock { state in
            let isDue = state.schedule.isDiscoveryDue(at: time)
            // New or removed entries, and the directory itself, are looked for now and then:
            // a path lookup on every sample cost more than reading the zones.
            var fingerprint = state.fingerprint
            if state.schedule.takeCheck(at: time) {
                fingerprint = directoryFingerprint(directory)
                state.table.checkForReplacedFiles()
                // `opendir` also fails on an unreadable directory, which is not a missing one.
                state.directoryExists = fingerprint != nil || access(directory, F_OK) == 0
            }
            guard state.directoryExists else { return .failure(missing) }
            if isDue || state.table.needsRediscovery || fingerprint != state.fingerprint {
                state.fingerprint = fingerprint
                state.table.reconcile(
                    with: Self.discoverZones(in: directory)
                        + Self.discoverCoolingDevices(in: directory))
                state.schedule.discovered(at: time)
            }
            return .success(state.table.read())
        }
        return try result.get()
    }

    private static func discoverZones(in directory: String) -> [PolledSensorTable.Entry] {
        numberedEntries(in: directory, prefix: "thermal_zone").map { zone in
            let path = "\(directory)/\(zone.name)"
            let type = (try? SysfsValueFile.readText(at: "\(path)/type")) ?? zone.name
            var template = SensorReading(id: SensorID(zone.name), source: .thermalZone, label: type)
            for trip in tripNumbers(in: path) {
                let prefix = "\(path)/trip_point_\(trip)_"
                guard let kind = try? SysfsValueFile.readText(at: prefix + "type"),
                    let millidegrees = try? SysfsValueFile.readInteger(at: prefix + "temp"),
                    let celsius = try? Celsius.plausible(millidegrees: millidegrees)
                else { continue }
                let hysteresis = (try? SysfsValueFile.readInteger(at: prefix + "hyst"))
                    .flatMap { $0 > 0 ? Celsius(millidegrees: $0) : nil }
                switch kind {
                case "passive" where template.high == nil:
                    template.high = celsius
                    template.hysteresis = hysteresis ?? template.hysteresis
                case "hot" where template.hot == nil:
                    template.hot = celsius
                case "critical" where template.critical == nil:
                    template.critical = celsius
                default:
                    break
                }
            }
            return .init(template: template, path: "\(path)/temp")
        }
    }

    /// Trip point numbers N for which `trip_point_N_type` exists, in order.
    private static func tripNumbers(in path: String) -> [Int] {
        let names = FileSystem.entries(of: path) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasPrefix("trip_point_"), name.hasSuffix("_type") else { return nil }
            return Int(name.dropFirst("trip_point_".count).dropLast("_type".count))
        }
        .sorted()
    }

    /// Cooling devices as ratio entries; a device whose `max_state` cannot be read is listed
    /// stale with the reason.
    private static func discoverCoolingDevices(in directory: String) -> [PolledSensorTable.Entry] {
        numberedEntries(in: directory, prefix: "cooling_device").map { device in
            let path = "\(directory)/\(device.name)"
            let type = (try? SysfsValueFile.readText(at: "\(path)/type")) ?? device.name
            let template = SensorReading(
                id: SensorID(device.name), source: .thermalZone, label: "cooling: \(type)",
                unit: "ratio")
            do throws(SensorFault) {
                let maximum = try SysfsValueFile.readInteger(at: "\(path)/max_state")
                return .init(
                    template: template, path: "\(path)/cur_state", scale: .ratio(of: maximum))
            } catch {
                return .init(
                    template: template, path: "\(path)/cur_state", discoveryFault: error)
            }
        }
    }
}

extension ThermalZoneSource: QuietWatchable {
    /// The zones' and cooling devices' open files, until the next directory check.
    func quietWatch(after time: MonotonicInstant) -> QuietWatch? {
        state.withLock { state in
            guard let until = state.schedule.nextDue, let files = state.table.watchedFiles
            else { return nil }
            // Without the directory a read reads nothing and says so until the next check.
            return QuietWatch(files: state.directoryExists ? files : [], until: until)
        }
    }
}
