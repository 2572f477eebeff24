/// The sensors a source keeps open between samples: for each, how to describe it and its
/// open value file (or why it cannot be opened).
///
/// ``reconcile(with:)`` takes the result of a fresh discovery: files are reopened (a replaced
/// file is picked up), new sensors are added, and sensors no longer discovered stay listed
/// as stale `vanished` instead of silently disappearing. Used inside one owner's lock.
struct PolledSensorTable {
    /// Opens a sensor's value file; tests substitute files that fail with chosen errors.
    typealias Opener = @Sendable (String) throws(SensorFault) -> any SensorAttribute

    /// The real opener: a ``SysfsValueFile`` kept open.
    static let sysfs: Opener = { path throws(SensorFault) in try SysfsValueFile(path: path) }

    private let open: Opener

    init(open: @escaping Opener = PolledSensorTable.sysfs) {
        self.open = open
    }

    /// What a value file's integer means.
    enum Scale: Equatable {
        /// A temperature in millidegrees Celsius, checked for plausibility.
        case millidegrees
        /// A state out of `maximum` (a cooling device's `cur_state` of `max_state`): the
        /// reading's `value` is the ratio, 0 when the maximum is 0.
        case ratio(of: Int)
    }

    /// A discovered sensor: its reading without a value, and the file holding its value.
    struct Entry {
        var template: SensorReading
        var path: String
        var scale: Scale = .millidegrees
        /// Why the sensor cannot be read at all, found at discovery (its file is not opened).
        var discoveryFault: SensorFault? = nil
        /// Reads the value through another path (libsensors `compute`), when the raw file
        /// cannot be used.
        var overrideRead: (@Sendable () -> Result<Celsius, SensorFault>)? = nil
    }

    private struct Polled {
        var template: SensorReading
        var file: Result<any SensorAttribute, SensorFault>
        var scale: Scale
        var overrideRead: (@Sendable () -> Result<Celsius, SensorFault>)?
    }

    /// One value as read: a temperature, or a ratio for ``Scale/ratio(of:)``.
    private enum Measured {
        case celsius(Celsius)
        case ratio(Double)
    }

    /// In the order sensors were first discovered; an array so a sample is one pass without
    /// hashing.
    private var polled: [Polled] = []

    /// The readings the last ``read()`` returned, updated in place by the next one: a sensor
    /// whose state did not change only gets its new temperature, so a sample copies no
    /// labels and, once the caller has let go of the previous array, allocates nothing.
    private var readings: [SensorReading] = []

    /// Whether any listed sensor's file failed in a way a rediscovery might fix.
    private(set) var needsRediscovery = false

    /// Replaces the table's contents with `discovered`, keeping vanished sensors as stale.
    mutating func reconcile(with discovered: [Entry]) {
        var fresh: [SensorID: Polled] = [:]
        var newOrder: [SensorID] = []
        for entry in discovered {
            let file: Result<any SensorAttribute, SensorFault>
            do throws(SensorFault) {
                if let fault = entry.discoveryFault { throw fault }
                file = .success(try open(entry.path))
            } catch {
                file = .failure(error)
            }
            fresh[entry.template.id] = Polled(
                template: entry.template, file: file, scale: entry.scale,
                overrideRead: entry.overrideRead)
            newOrder.append(entry.template.id)
        }
        var next: [Polled] = []
        for old in polled {
            if let replacement = fresh.removeValue(forKey: old.template.id) {
                next.append(replacement)
            } else {
                next.append(
                    Polled(
                        template: old.template, file: .failure(.vanished), scale: old.scale,
                        overrideRead: nil))
            }
        }
        for id in newOrder {
            if let added = fresh.removeValue(forKey: id) { next.append(added) }
        }
        polled = next
        // Every entry is rewritten from its template at the next read.
        readings = []
        needsRediscovery = false
    }

    /// The open files a read reads, for a ``QuietWatch``; `nil` when a read does more: a
    /// rediscovery is needed, or a value is computed (libsensors) or read through another kind
    /// of attribute (a test's).
    var watchedFiles: [SysfsValueFile]? {
        guard !needsRediscovery else { return nil }
        var files: [SysfsValueFile] = []
        for entry in polled {
            if entry.overrideRead != nil { return nil }
            guard case .success(let attribute) = entry.file else { continue }
            guard let file = attribute as? SysfsValueFile else { return nil }
            files.append(file)
        }
        return files
    }

    /// Looks (one `stat` per open file) for files removed and recreated under their open
    /// descriptors, as a driver reload does; any found sets ``needsRediscovery``, which
    /// reopens them. Sources call it on their once-a-second directory check.
    mutating func checkForReplacedFiles() {
        for entry in polled {
            if case .success(let file) = entry.file, file.isReplaced {
                needsRediscovery = true
                return
            }
        }
    }

    /// Reads every sensor: a value (a temperature in the plausible range, or a ratio), or
    /// stale with the reason.
    mutating func read() -> [SensorReading] {
        let isFresh = readings.count != polled.count
        if isFresh { readings = polled.map { $0.template } }
        for index in polled.indices {
            switch measure(at: index) {
            case .success(let measured):
                if isFresh || readings[index].fault != nil {
                    // Live again (or for the first time): the template's limits and alarm.
                    readings[index] = polled[index].template
                }
                switch measured {
                case .celsius(let celsius): readings[index].celsius = celsius
                case .ratio(let ratio): readings[index].value = ratio
                }
            case .failure(let fault):
                if isFresh || readings[index].fault != fault {
                    readings[index] = polled[index].template.stale(fault)
                }
            }
        }
        return readings
    }

    /// Reads the sensor at `index` through its file (or its override).
    private mutating func measure(at index: Int) -> Result<Measured, SensorFault> {
        if let overrideRead = polled[index].overrideRead {
            return overrideRead().map(Measured.celsius)
        }
        switch polled[index].file {
        case .failure(let fault): return .failure(fault)
        case .success(let file):
            do throws(SensorFault) {
                let raw = try file.readInteger()
                switch polled[index].scale {
                case .millidegrees:
                    return .success(.celsius(try Celsius.plausible(millidegrees: raw)))
                case .ratio(let maximum):
                    return .success(.ratio(maximum > 0 ? Double(raw) / Double(maximum) : 0))
                }
            } catch {
                // An open file that stops existing (ENODEV on sysfs): look again. Sensors
                // already known to be gone do not trigger a rediscovery every sample.
                if error == .vanished { needsRediscovery = true }
                return .failure(error)
            }
        }
    }
}
