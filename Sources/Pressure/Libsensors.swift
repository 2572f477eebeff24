import CSensors
import Files
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The process's one owner of libsensors, whose state is global: every call goes through
/// one lock, so two threads never use the library at once.
///
/// libsensors scans `/sys/class/hwmon` only in `sensors_init`, so ``discover()`` starts it
/// afresh each time; that is how a chip that appears later is found.
public final class Libsensors: Sendable {
    /// The single instance; libsensors cannot be initialized twice in one process.
    public static let shared = Libsensors()

    private struct State: ~Copyable {
        var isInitialized = false
        var generation = 0
        var chips: [UnsafePointer<sensors_chip_name>] = []
    }

    private let state = Mutex(State())

    private init() {}

    /// Problems libsensors reported while parsing its configuration at the last discovery,
    /// such as `/etc/sensors3.conf:3: syntax error`; libsensors then carries on without the
    /// broken statements, so these are warnings.
    public var configurationProblems: [String] { reportedParseErrors.withLock { $0 } }

    /// Starts libsensors afresh (reading its configuration and scanning sysfs) and lists every
    /// temperature input with its label and limits, ordered by identifier.
    ///
    /// - Throws: ``LibsensorsError`` when `sensors_init` fails, for example on a broken
    ///   `/etc/sensors3.conf` (Debian package `libsensors-config`).
    public func discover() throws(LibsensorsError) -> [DiscoveredSensor] {
        let result: Result<[DiscoveredSensor], LibsensorsError> = state.withLock { state in
            if state.isInitialized {
                sensors_cleanup()
                state.isInitialized = false
                state.chips = []
            }
            reportedParseErrors.withLock { $0 = [] }
            headroom_sensors_set_parse_error_handler(recordParseError)
            let code = sensors_init(nil)
            guard code == 0 else {
                let reason = String(cString: sensors_strerror(code))
                let hint =
                    -code == SENSORS_ERR_KERNEL
                    ? "is /sys a mounted sysfs with a class/hwmon directory?"
                    : "check /etc/sensors3.conf and /etc/sensors.d (Debian package libsensors-config)"
                return .failure(
                    LibsensorsError(problem: "sensors_init failed: \(reason) (\(hint))"))
            }
            state.isInitialized = true
            state.generation += 1
            var chipCursor: Int32 = 0
            while let chip = sensors_get_detected_chips(nil, &chipCursor) {
                state.chips.append(chip)
            }
            var found: [DiscoveredSensor] = []
            for (index, chip) in state.chips.enumerated() {
                found += Self.temperatures(of: chip, index: index, generation: state.generation)
            }
            // Two chips may share a name (virtual chips all have address 0): name the later
            // ones (by hwmon directory number) after their directory so identifiers stay unique.
            found.sort {
                $0.inputPath.precedesNumerically($1.inputPath)
            }
            var seen: Set<SensorID> = []
            for index in found.indices {
                if !seen.insert(found[index].id).inserted {
                    let directory = FileSystem.name(
                        of: FileSystem.parent(of: found[index].inputPath))
                    let feature = found[index].id.rawValue.split(separator: "/").last ?? ""
                    let chip = found[index].id.rawValue.split(separator: "/").first ?? ""
                    found[index].id = SensorID(
                        "\(chip)@\(directory)/\(feature)")
                    seen.insert(found[index].id)
                }
            }
            // libsensors lists chips in directory order, which differs between filesystems.
            return .success(
                found.sorted { $0.id.rawValue.precedesNumerically($1.id.rawValue) })
        }
        return try result.get()
    }

    /// Reads each sensor's input through `sensors_get_value`, the library's own way (open,
    /// read, close and any `compute` statement); sensors of an older generation are stale.
    public func readValues(_ sensors: [DiscoveredSensor]) -> [Result<Celsius, SensorFault>] {
        state.withLock { state in
            sensors.map { sensor in
                guard state.isInitialized, sensor.generation == state.generation,
                    sensor.chipIndex < state.chips.count
                else { return .failure(.vanished) }
                var value = 0.0
                let code = sensors_get_value(
                    state.chips[sensor.chipIndex], sensor.inputNumber, &value)
                guard code == 0 else {
                    return .failure(
                        .other("libsensors: \(String(cString: sensors_strerror(code)))"))
                }
                do throws(SensorFault) {
                    return .success(
                        try Celsius.plausible(millidegrees: Int((value * 1000).rounded())))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    private static func temperatures(
        of chip: UnsafePointer<sensors_chip_name>, index: Int, generation: Int
    ) -> [DiscoveredSensor] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard sensors_snprintf_chip_name(&buffer, buffer.count, chip) >= 0 else { return [] }
        let chipName = String(
            decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
        let chipPath = chip.pointee.path.map { String(cString: $0) } ?? ""
        var sensors: [DiscoveredSensor] = []
        var featureCursor: Int32 = 0
        while let feature = sensors_get_features(chip, &featureCursor) {
            guard feature.pointee.type == SENSORS_FEATURE_TEMP,
                let input = sensors_get_subfeature(chip, feature, SENSORS_SUBFEATURE_TEMP_INPUT)
            else { continue }
            let featureName = String(cString: feature.pointee.name)
            var label = featureName
            if let raw = sensors_get_label(chip, feature) {
                label = String(cString: raw)
                free(raw)
            }
            func limit(_ type: sensors_subfeature_type) -> Double? {
                guard let subfeature = sensors_get_subfeature(chip, feature, type) else {
                    return nil
                }
                var value = 0.0
                return sensors_get_value(chip, subfeature.pointee.number, &value) == 0 ? value : nil
            }
            let high = limit(SENSORS_SUBFEATURE_TEMP_MAX)
            let maxHysteresis = limit(SENSORS_SUBFEATURE_TEMP_MAX_HYST)
            let inputName = String(cString: input.pointee.name)
            let inputPath = chipPath + "/" + inputName
            var libraryValue = 0.0
            let libraryRead = sensors_get_value(chip, input.pointee.number, &libraryValue) == 0
            let rawValue = try? SysfsValueFile.readInteger(at: inputPath)
            let isComputed =
                libraryRead && rawValue.map { abs(Double($0) / 1000 - libraryValue) > 0.5 } ?? false
            sensors.append(
                DiscoveredSensor(
                    id: SensorID("\(chipName)/\(featureName)"), label: label, inputPath: inputPath,
                    high: high.map(Celsius.init),
                    critical: limit(SENSORS_SUBFEATURE_TEMP_CRIT).map(Celsius.init),
                    emergency: limit(SENSORS_SUBFEATURE_TEMP_EMERGENCY).map(Celsius.init),
                    hysteresis: high.flatMap { high in
                        maxHysteresis.flatMap { $0 < high ? Celsius(high - $0) : nil }
                    },
                    alarm: limit(SENSORS_SUBFEATURE_TEMP_ALARM).map { $0 != 0 },
                    isComputed: isComputed, generation: generation, chipIndex: index,
                    inputNumber: input.pointee.number))
        }
        return sensors
    }
}

/// What libsensors' parse-error callback reported; written only under ``Libsensors``' lock.
private let reportedParseErrors = Mutex<[String]>([])

/// libsensors' parse-error callback (a C function pointer, so it captures nothing).
private func recordParseError(
    _ error: UnsafePointer<CChar>?, _ file: UnsafePointer<CChar>?, _ line: Int32
) {
    let message = error.map { String(cString: $0) } ?? "parse error"
    let place = file.map { String(cString: $0) } ?? "libsensors configuration"
    reportedParseErrors.withLock { $0.append("\(place):\(line): \(message)") }
}
