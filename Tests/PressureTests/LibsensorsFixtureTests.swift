import Foundation
import TestSupport
import Testing

@testable import Pressure

/// A fake hwmon tree under the real `/sys/class/hwmon`, which scripts/sensors-fixture-test.sh
/// has replaced with a tmpfs inside a private mount namespace (needs root and `unshare`).
struct FakeHwmon {
    static let root = "/sys/class/hwmon"
    static let isAvailable = ProcessInfo.processInfo.environment["HEADROOM_FAKE_HWMON"] == "1"

    /// Empties the tree.
    init() throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: Self.root, withIntermediateDirectories: true)
        for entry in try manager.contentsOfDirectory(atPath: Self.root) {
            try manager.removeItem(atPath: "\(Self.root)/\(entry)")
        }
    }

    func write(_ path: String, _ text: String) throws {
        let full = "\(Self.root)/\(path)"
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: full))
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(atPath: "\(Self.root)/\(path)")
    }

    /// A chip `hwmonN` named `name` with temperature inputs `(index, °C, label, max, crit)`.
    func addChip(
        _ number: Int, name: String, temperatures: [(Int, Double, String?, Double?, Double?)]
    ) throws {
        try write("hwmon\(number)/name", name)
        for (index, celsius, label, high, critical) in temperatures {
            try setTemperature(number, index, celsius)
            if let label { try write("hwmon\(number)/temp\(index)_label", label) }
            if let high { try write("hwmon\(number)/temp\(index)_max", String(Int(high * 1000))) }
            if let critical {
                try write("hwmon\(number)/temp\(index)_crit", String(Int(critical * 1000)))
            }
        }
    }

    /// Heats or cools one input; written in place so open descriptors see it.
    func setTemperature(_ chip: Int, _ index: Int, _ celsius: Double) throws {
        try setRaw(chip, index, String(Int((celsius * 1000).rounded())))
    }

    func setRaw(_ chip: Int, _ index: Int, _ text: String) throws {
        let path = "\(Self.root)/hwmon\(chip)/temp\(index)_input"
        if let handle = FileHandle(forWritingAtPath: path) {
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data((text + "\n").utf8))
            try handle.close()
        } else {
            try write("hwmon\(chip)/temp\(index)_input", text)
        }
    }
}

@Suite(
    .serialized,
    .enabled(
        if: FakeHwmon.isAvailable,
        "needs root and a tmpfs /sys/class in a mount namespace: scripts/sensors-fixture-test.sh"))
struct LibsensorsFixtureTests {
    private func standardTree() throws -> FakeHwmon {
        let hwmon = try FakeHwmon()
        try hwmon.addChip(
            0, name: "coretemp",
            temperatures: [(1, 45, "Package id 0", 80, 100), (2, 44, nil, nil, 105)])
        try hwmon.addChip(1, name: "imx415", temperatures: [(1, 38.5, "Camera sensor", 70, 85)])
        return hwmon
    }

    @Test func discoversChipsLabelsAndLimits() throws {
        _ = try standardTree()
        let sensors = try Libsensors.shared.discover()
        #expect(
            sensors.map(\.id) == [
                "coretemp-virtual-0/temp1", "coretemp-virtual-0/temp2", "imx415-virtual-0/temp1",
            ])
        #expect(sensors.map(\.label) == ["Package id 0", "temp2", "Camera sensor"])
        #expect(sensors[0].high == Celsius(80))
        #expect(sensors[0].critical == Celsius(100))
        #expect(sensors[1].high == nil)
        #expect(sensors[1].critical == Celsius(105))
        #expect(sensors[0].inputPath == "/sys/class/hwmon/hwmon0/temp1_input")
        #expect(sensors.allSatisfy { !$0.isComputed })
    }

    @Test func preadSamplingAgreesWithSensorsGetValue() throws {
        let hwmon = try standardTree()
        try hwmon.setTemperature(0, 1, 61.25)
        let source = LibsensorsSource(rescanInterval: .seconds(1000))
        let fast = try source.readTemperatures(at: instant(0)).map(\.celsius)
        let slow = try Libsensors.shared.readValues(Libsensors.shared.discover()).map {
            try $0.get()
        }
        #expect(fast == slow)
        #expect(fast.first == Celsius(61.25))
    }

    @Test func everyLevelBoundaryAndHysteresisOnTheWayDown() throws {
        let hwmon = try standardTree()
        let source = LibsensorsSource(rescanInterval: .seconds(1000))
        var classifier = PressureClassifier()
        // H = 80, C = 100: fair 70, serious 80, critical 95, shutdown 100; hysteresis 3.
        let path: [(Double, PressureLevel)] = [
            (69.9, .nominal), (70, .fair), (80, .serious), (95, .critical), (100, .shutdown),
            (97.1, .shutdown), (97, .critical), (92.1, .critical), (92, .serious), (77, .fair),
            (67.1, .fair), (67, .nominal),
        ]
        for (step, (celsius, expected)) in path.enumerated() {
            try hwmon.setTemperature(0, 1, celsius)
            let sample = PressureSample(
                time: instant(Double(step)),
                sensors: try source.readTemperatures(at: instant(Double(step))))
            let reading = classifier.classify(sample)
            #expect(reading.level == expected, "at \(celsius) °C")
            #expect(reading.thermal == .measured)
            #expect(!reading.simulated)
        }
    }

    @Test func theCameraSensorIsItsOwnFactor() throws {
        let hwmon = try standardTree()
        try hwmon.setTemperature(1, 1, 71)
        var classifier = PressureClassifier()
        let reading = classifier.classify(
            PressureSample(
                time: .origin, sensors: try LibsensorsSource().readTemperatures(at: instant(0))))
        #expect(reading.level == .serious)
        #expect(reading.factors.first?.kind == .cameraTemperature)
        #expect(reading.factors.first?.sensor == "imx415-virtual-0/temp1")
    }

    @Test func aSensorThatFailsMidRunIsStaleAndTheOthersKeepWorking() throws {
        let hwmon = try standardTree()
        let source = LibsensorsSource(rescanInterval: .seconds(1000))
        #expect(try source.readTemperatures(at: instant(0)).allSatisfy { !$0.isStale })
        for (text, reason) in [
            ("garbage", "not a number"), ("501000", "out of range"), ("-101000", "not available"),
        ] {
            try hwmon.setRaw(0, 1, text)
            let readings = try source.readTemperatures(at: instant(1))
            #expect(readings[0].celsius == nil)
            #expect(readings[0].fault?.description.contains(reason) == true)
            #expect(readings[1].celsius == Celsius(44))
            #expect(readings[2].celsius == Celsius(38.5))
        }
    }

    @Test func aSensorThatVanishesTurnsStaleAndAChipThatAppearsIsPickedUp() throws {
        let hwmon = try standardTree()
        let source = LibsensorsSource(rescanInterval: .seconds(1))
        #expect(try source.readTemperatures(at: instant(0)).count == 3)

        try hwmon.remove("hwmon1")
        try hwmon.addChip(2, name: "nvme", temperatures: [(1, 50, "Composite", 82, 85)])
        let readings = try source.readTemperatures(at: instant(1))

        #expect(
            readings.map(\.id.rawValue) == [
                "coretemp-virtual-0/temp1", "coretemp-virtual-0/temp2", "imx415-virtual-0/temp1",
                "nvme-virtual-0/temp1",
            ])
        #expect(readings[2].fault == .vanished)
        #expect(readings[2].celsius == nil)
        #expect(readings[3].celsius == Celsius(50))
        #expect(readings[3].label == "Composite")
    }

    @Test func chipsSharingANameGetDistinctIdentifiers() throws {
        let hwmon = try FakeHwmon()
        try hwmon.addChip(0, name: "nvme", temperatures: [(1, 40, "Composite", nil, 85)])
        try hwmon.addChip(1, name: "nvme", temperatures: [(1, 50, "Composite", nil, 85)])
        let readings = try LibsensorsSource().readTemperatures(at: instant(0))
        #expect(
            readings.map(\.id.rawValue) == ["nvme-virtual-0/temp1", "nvme-virtual-0@hwmon1/temp1"])
        #expect(readings.map(\.celsius) == [Celsius(40), Celsius(50)])
    }

    @Test func anEmptyTreeIsNoThermalSensors() throws {
        _ = try FakeHwmon()
        var classifier = PressureClassifier()
        let reading = classifier.classify(
            PressureSample(
                time: .origin, sensors: try LibsensorsSource().readTemperatures(at: instant(0))))
        #expect(reading.thermal == .none)
        #expect(reading.level == .nominal)
        #expect(reading.factors.isEmpty)
    }

    /// A Raspberry Pi 5's hwmon chips, copied from `Tests/Boards`, through real libsensors:
    /// the SoC (`cpu_thermal`) and the RP1 I/O chip's die temperature (`rp1_adc`), while
    /// the board source reads the same tree's voltages and under-voltage alarm.
    @Test func aRaspberryPi5sTemperaturesComeThroughLibsensors() throws {
        _ = try FakeHwmon()
        let board = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Boards/raspberry-pi-5/sys/class/hwmon")
        let manager = FileManager.default
        for chip in try manager.contentsOfDirectory(atPath: board.path) {
            try manager.copyItem(
                atPath: board.appendingPathComponent(chip).path,
                toPath: "\(FakeHwmon.root)/\(chip)")
        }
        let readings = try LibsensorsSource().readTemperatures(at: instant(0))
        let chips = Set(readings.map { $0.id.rawValue.split(separator: "-")[0] })
        #expect(chips.isSuperset(of: ["cpu_thermal", "rp1_adc"]))
        #expect(readings.allSatisfy { !$0.isStale && ($0.celsius?.value ?? 0) > 20 })
        let signals = BoardSignalSource(roots: SystemRoots(sysfs: "/sys")).readBoard(at: instant(0))
        #expect(
            signals.voltages.contains { $0.id == "rpi_volt/in0" && $0.underVoltageAlarm == false })
        #expect(signals.voltages.filter { $0.id.rawValue.hasPrefix("rp1_adc/") }.count == 4)
    }
}
