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

    /// A discovered sensor: its reading without a value, and the file holding its value.
    struct Entry {
        var template: SensorReading
        var path: String
        /// Reads the value through another path (libsensors `compute`), when the raw file
        /// cannot be used.
        var overrideRead: (@Sendable () -> Result<Celsius, SensorFault>)?
    }

    private struct Polled {
        var template: SensorReading
        var file: Result<any SensorAttribute, SensorFault>
        var overrideRead: (@Sendable () -> Result<Celsius, SensorFault>)?
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
                file = .success(try open(entry.path))
            } catch {
                file = .failure(error)
            }
            fresh[entry.template.id] = Polled(
                template: entry.template, file: file, overrideRead: entry.overrideRead)
            newOrder.append(entry.template.id)
        }
        var next: [Polled] = []
        for old in polled {
            if let replacement = fresh.removeValue(forKey: old.template.id) {
                next.append(replacement)
            } else {
                next.append(
                    Polled(template: old.template, file: .failure(.vanished), overrideRead: nil))
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

    /// Reads every sensor: a value in the plausible range, or stale with the reason.
    mutating func read() -> [SensorReading] {
        let isFresh = readings.count != polled.count
        if isFresh { readings = polled.map { $0.template } }
        for index in polled.indices {
            let result: Result<Celsius, SensorFault>
            if let overrideRead = polled[index].overrideRead {
                result = overrideRead()
            } else {
                switch polled[index].file {
                case .failure(let fault): result = .failure(fault)
                case .success(let file):
                    do throws(SensorFault) {
                        result = .success(try Celsius.plausible(millidegrees: file.readInteger()))
                    } catch {
                        // An open file that stops existing (ENODEV on sysfs): look again. Sensors
                        // already known to be gone do not trigger a rediscovery every sample.
                        if error == .vanished { needsRediscovery = true }
                        result = .failure(error)
                    }
                }
            }
            switch result {
            case .success(let celsius):
                if isFresh || readings[index].fault != nil {
                    // Live again (or for the first time): the template's limits and alarm.
                    readings[index] = polled[index].template
                }
                readings[index].celsius = celsius
            case .failure(let fault):
                if isFresh || readings[index].fault != fault {
                    readings[index] = polled[index].template.stale(fault)
                }
            }
        }
        return readings
    }
}
