import Files
import Units

/// The board attributes discovery found, with their files open.
struct BoardLayout {
    /// A value file kept open, or why it could not be opened.
    typealias File = Result<SysfsValueFile, SensorFault>

    struct Voltage {
        var template: SupplyVoltage
        var millivolts: File?
        var alarm: File?
    }
    struct Rail {
        var template: PowerRail
        var millivolts: File?
        var milliamperes: File?
        var microwatts: File?
        var warningAlarm: File?
        var criticalAlarm: File?
    }
    struct GPU {
        var device: String
        var load: File?
        var hertz: File?
        var maximumHertz: File?
    }

    var firmware: File?
    var voltages: [Voltage] = []
    var rails: [Rail] = []
    var gpus: [GPU] = []
    /// Set when a read found a file gone: the next sample discovers again.
    private(set) var needsRediscovery = false

    /// The attributes under `roots` now; what `previous` had and discovery no longer finds
    /// stays listed, stale `vanished`, rather than silently disappearing.
    static func discover(under roots: SystemRoots, keepingVanished previous: BoardLayout)
        -> BoardLayout
    {
        var layout = discover(under: roots)
        let gone: File = .failure(.vanished)
        if layout.firmware == nil, previous.firmware != nil { layout.firmware = gone }
        let voltages = Set(layout.voltages.map(\.template.id))
        layout.voltages += previous.voltages.filter { !voltages.contains($0.template.id) }.map {
            Voltage(template: $0.template, millivolts: gone)
        }
        let rails = Set(layout.rails.map(\.template.id))
        layout.rails += previous.rails.filter { !rails.contains($0.template.id) }.map {
            Rail(template: $0.template, milliamperes: gone)
        }
        let gpus = Set(layout.gpus.map(\.device))
        layout.gpus += previous.gpus.filter { !gpus.contains($0.device) }.map {
            GPU(device: $0.device, load: gone)
        }
        return layout
    }

    private static func discover(under roots: SystemRoots) -> BoardLayout {
        var layout = BoardLayout()
        let sysfs = roots.sysfs
        if let path = firmwareWord(under: sysfs) { layout.firmware = open(path) }
        let hwmon = "\(sysfs)/class/hwmon"
        for chip in numberedEntries(in: hwmon, prefix: "hwmon") {
            let directory = "\(hwmon)/\(chip.name)"
            guard let name = try? SysfsValueFile.readText(at: "\(directory)/name") else { continue }
            switch name {
            case "rpi_volt":
                layout.voltages.append(
                    Voltage(
                        template: SupplyVoltage(id: "rpi_volt/in0", label: "supply"),
                        alarm: open("\(directory)/in0_lcrit_alarm")))
            case "rp1_adc":
                layout.voltages += (0...8).compactMap { channel in
                    let input = "\(directory)/in\(channel)_input"
                    guard FileSystem.exists(input) else { return nil }
                    let label =
                        (try? SysfsValueFile.readText(at: "\(directory)/in\(channel)_label"))
                        ?? "RP1 ADC in\(channel)"
                    return Voltage(
                        template: SupplyVoltage(id: SensorID("rp1_adc/in\(channel)"), label: label),
                        millivolts: open(input))
                }
            case "ina3221":
                let device = deviceName(of: directory) ?? chip.name
                layout.rails += (1...3).compactMap { railChannel($0, of: name, device, directory) }
            case _ where name.hasPrefix("ina2"):
                let device = deviceName(of: directory) ?? chip.name
                layout.rails += [railChannel(1, of: name, device, directory)].compactMap { $0 }
            default:
                continue
            }
        }
        let devfreq = "\(sysfs)/class/devfreq"
        let devices = FileSystem.entries(of: devfreq) ?? []
        for device in devices.sorted() where isGPU(device, in: devfreq) {
            let directory = "\(devfreq)/\(device)"
            let load = (["\(directory)/device"] + gpuLoadDirectories.map { "\(sysfs)/\($0)" })
                .map { "\($0)/load" }.first(where: FileSystem.exists)
            layout.gpus.append(
                GPU(
                    device: device, load: load.map(open),
                    hertz: openIfPresent("\(directory)/cur_freq"),
                    maximumHertz: openIfPresent("\(directory)/max_freq")))
        }
        return layout
    }

    /// The firmware word's file: `get_throttled` in the Raspberry Pi firmware node under
    /// `devices/platform/soc…` (`soc/soc:firmware` on a Pi 4; the node's name carries the bus
    /// address on some device trees, hence the search).
    private static func firmwareWord(under sysfs: String) -> String? {
        let platform = "\(sysfs)/devices/platform"
        let buses = (FileSystem.entries(of: platform) ?? []).filter {
            $0.hasPrefix("soc")
        }
        for bus in buses.sorted() {
            let nodes = FileSystem.entries(of: "\(platform)/\(bus)") ?? []
            for node in nodes.sorted() where node.hasSuffix(":firmware") {
                let path = "\(platform)/\(bus)/\(node)/get_throttled"
                if FileSystem.exists(path) { return path }
            }
        }
        return nil
    }

    /// Where NVIDIA's GPU driver puts `load` (per mille) when the devfreq device's own
    /// `device/load` is not there: Orin on JetPack 6 and 5, Xavier and Nano.
    static let gpuLoadDirectories = [
        "devices/platform/bus@0/17000000.gpu", "devices/platform/17000000.ga10b",
        "devices/17000000.ga10b", "devices/gpu.0", "devices/platform/gpu.0",
    ]

    /// The chip's device (its bus address, such as `1-0040`): stable across boots where the
    /// `hwmonN` number is not. `nil` where there is no `device` link.
    private static func deviceName(of directory: String) -> String? {
        FileSystem.linkTarget("\(directory)/device").map(FileSystem.name(of:))
    }

    /// A current monitor's channel `n` as a rail, `nil` when the channel has no current input
    /// or is disabled (`inN_enable` 0).
    private static func railChannel(
        _ n: Int, of name: String, _ device: String, _ directory: String
    )
        -> Rail?
    {
        let prefix = "\(directory)/"
        guard FileSystem.exists(prefix + "curr\(n)_input"),
            (try? SysfsValueFile.readInteger(at: prefix + "in\(n)_enable")) ?? 1 != 0
        else { return nil }
        let label =
            (try? SysfsValueFile.readText(at: prefix + "in\(n)_label"))
            ?? (try? SysfsValueFile.readText(at: prefix + "curr\(n)_label"))
            ?? "\(name) channel \(n)"
        func limit(_ attribute: String, scale: Double) -> Double? {
            (try? SysfsValueFile.readInteger(at: prefix + attribute)).map { Double($0) / scale }
        }
        let template = PowerRail(
            id: SensorID("\(name)-\(device)/in\(n)"), label: label,
            warningAmperes: limit("curr\(n)_max", scale: 1000),
            criticalAmperes: limit("curr\(n)_crit", scale: 1000),
            warningWatts: limit("power\(n)_max", scale: 1_000_000))
        return Rail(
            template: template, millivolts: openIfPresent(prefix + "in\(n)_input"),
            milliamperes: open(prefix + "curr\(n)_input"),
            microwatts: openIfPresent(prefix + "power\(n)_input"),
            warningAlarm: openIfPresent(prefix + "curr\(n)_max_alarm")
                ?? openIfPresent(prefix + "power\(n)_max_alarm"),
            criticalAlarm: openIfPresent(prefix + "curr\(n)_crit_alarm"))
    }

    /// Whether a devfreq device is a GPU: it has the GPU driver's `device/load`, or its name is
    /// one of NVIDIA's integrated GPUs (gp10b, gv11b, ga10b) or says `gpu`.
    private static func isGPU(_ device: String, in devfreq: String) -> Bool {
        let name = device.lowercased()
        return FileSystem.exists("\(devfreq)/\(device)/device/load")
            || ["gp10b", "gv11b", "ga10b", "gpu"].contains { name.includes($0) }
    }

    private static func open(_ path: String) -> File {
        Result { () throws(SensorFault) in try SysfsValueFile(path: path) }
    }

    private static func openIfPresent(_ path: String) -> File? {
        FileSystem.exists(path) ? open(path) : nil
    }

    /// Every file a read reads that is open (files that could not be opened are not read).
    var openFiles: [SysfsValueFile] {
        let files: [File?] =
            [firmware] + voltages.flatMap { [$0.millivolts, $0.alarm] }
            + rails.flatMap {
                [$0.millivolts, $0.milliamperes, $0.microwatts, $0.warningAlarm, $0.criticalAlarm]
            } + gpus.flatMap { [$0.load, $0.hertz, $0.maximumHertz] }
        return files.compactMap { try? $0?.get() }
    }

    /// Sets ``needsRediscovery`` when any open file's path now names another file or none.
    mutating func checkForReplacedFiles() {
        needsRediscovery = needsRediscovery || openFiles.contains { $0.isReplaced }
    }

    /// Reads every open file into signals; a failed required file makes its item stale.
    mutating func read() -> BoardSignals {
        var signals = BoardSignals()
        if let firmware {
            do throws(SensorFault) {
                signals.firmware = try firmware.get().withContents(capacity: 64) {
                    bytes throws(SensorFault) in try FirmwareThrottling(bytes: bytes)
                }
            } catch {
                if error == .vanished { needsRediscovery = true }
                signals.firmwareFault = error
            }
        }
        for voltage in voltages {
            var value = voltage.template
            do throws(SensorFault) {
                value.volts = try number(voltage.millivolts, per: 1000)
                value.underVoltageAlarm = try flag(voltage.alarm)
            } catch {
                value.fault = error
            }
            signals.voltages.append(value)
        }
        for rail in rails {
            var value = rail.template
            do throws(SensorFault) {
                value.volts = try number(rail.millivolts, per: 1000)
                value.amperes = try number(rail.milliamperes, per: 1000)
                value.watts = try number(rail.microwatts, per: 1_000_000)
                if value.watts == nil, let volts = value.volts, let amperes = value.amperes {
                    value.watts = volts * amperes
                }
                value.warningAlarm = try flag(rail.warningAlarm)
                value.criticalAlarm = try flag(rail.criticalAlarm)
            } catch {
                value = PowerRail(id: value.id, label: value.label, fault: error)
            }
            signals.rails.append(value)
        }
        for gpu in gpus {
            var value = GPUActivity(device: gpu.device)
            do throws(SensorFault) {
                value.load = try number(gpu.load, per: 1000).map { Share(fraction: $0).clamped }
                value.hertz = try number(gpu.hertz, per: 1)
                value.maximumHertz = try number(gpu.maximumHertz, per: 1)
            } catch {
                value = GPUActivity(device: gpu.device, fault: error)
            }
            signals.gpus.append(value)
        }
        return signals
    }

    /// The integer in `file` divided by `divisor` (millivolts to volts: 1000); `nil` when the
    /// chip has no such file.
    private mutating func number(_ file: File?, per divisor: Double) throws(SensorFault)
        -> Double?
    {
        guard let file else { return nil }
        return Double(try readInteger(file)) / divisor
    }

    /// A 0/1 alarm file as a flag; `nil` when the chip has no such file.
    private mutating func flag(_ file: File?) throws(SensorFault) -> Bool? {
        guard let file else { return nil }
        return try readInteger(file) != 0
    }

    /// Reads an open file; a file that vanished under its descriptor (ENODEV on sysfs) makes
    /// the next sample discover again. Files that could not be opened fail with their fault
    /// and trigger nothing: they are known to be gone.
    private mutating func readInteger(_ file: File) throws(SensorFault) -> Int {
        let open = try file.get()
        do throws(SensorFault) {
            return try open.readInteger()
        } catch {
            if error == .vanished { needsRediscovery = true }
            throw error
        }
    }
}
