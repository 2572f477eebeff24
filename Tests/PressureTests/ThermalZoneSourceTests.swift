import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Pressure

@Suite struct ThermalZoneSourceTests {
    @Test func discoversZonesTripPointsAndCoolingDevices() throws {
        let tree = try FixtureTree()
        try tree.addZone(
            0, type: "x86_pkg_temp", celsius: 52.5,
            trips: [("passive", 85, 2), ("hot", 95, 0), ("critical", 105, 0)])
        try tree.addZone(1, type: "acpitz", celsius: 40, trips: [("critical", 110, 0)])
        try tree.addCoolingDevice(0, type: "Processor", state: 3, maximum: 10)
        let source = ThermalZoneSource(roots: SystemRoots(sysfs: tree.root))

        let readings = try source.readTemperatures(at: instant(0))

        let zone0 = try #require(readings.first { $0.id == "thermal_zone0" })
        #expect(zone0.label == "x86_pkg_temp")
        #expect(zone0.source == .thermalZone)
        #expect(zone0.celsius == Celsius(52.5))
        #expect(zone0.high == Celsius(85))
        #expect(zone0.hot == Celsius(95))
        #expect(zone0.critical == Celsius(105))
        #expect(zone0.hysteresis == Celsius(2))
        let zone1 = try #require(readings.first { $0.id == "thermal_zone1" })
        #expect(zone1.high == nil)
        #expect(zone1.critical == Celsius(110))
        let cooling = try #require(readings.first { $0.id == "cooling_device0" })
        #expect(cooling.value == 0.3)
        #expect(cooling.unit == "ratio")
        #expect(!cooling.isTemperature)
    }

    @Test func coolingDevicesAreReReadFromTheirOpenStateFile() throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 50, trips: [])
        try tree.addCoolingDevice(0, type: "Fan", state: 0, maximum: 4)
        try tree.addCoolingDevice(1, type: "Broken", state: 1, maximum: nil)
        try tree.addCoolingDevice(2, type: "Idle", state: 0, maximum: 0)
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(1000))

        var readings = try source.readTemperatures(at: instant(0))
        #expect(readings.first { $0.id == "cooling_device0" }?.value == 0)
        // No max_state: stale with the reason, never a made-up ratio.
        let broken = try #require(readings.first { $0.id == "cooling_device1" })
        #expect(broken.isStale)
        #expect(broken.value == nil)
        #expect(broken.fault == .vanished)
        #expect(readings.first { $0.id == "cooling_device2" }?.value == 0)

        // Within the same second (no rediscovery): the open file shows the fan speeding up.
        try tree.write("class/thermal/cooling_device0/cur_state", "3")
        readings = try source.readTemperatures(at: instant(0.1))
        #expect(readings.first { $0.id == "cooling_device0" }?.value == 0.75)
        #expect(readings.first { $0.id == "cooling_device0" }?.label == "cooling: Fan")
    }

    @Test func aCoolingDeviceThatGoesAwayTurnsStale() throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 50, trips: [])
        try tree.addCoolingDevice(0, type: "Fan", state: 2, maximum: 4)
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(1000))
        #expect(
            try source.readTemperatures(at: instant(0)).first { $0.id == "cooling_device0" }?.value
                == 0.5)

        try tree.remove("class/thermal/cooling_device0")
        // The directory's entries are looked at every few seconds.
        let readings = try source.readTemperatures(
            at: instant(DiscoverySchedule.checkInterval.seconds + 0.5))
        let gone = try #require(readings.first { $0.id == "cooling_device0" })
        #expect(gone.isStale)
        #expect(gone.fault == .vanished)
        #expect(readings.first { $0.id == "thermal_zone0" }?.celsius == Celsius(50))
    }

    @Test func aHostWithoutThermalClassIsUnavailable() throws {
        let tree = try FixtureTree()
        let source = ThermalZoneSource(roots: SystemRoots(sysfs: tree.root))
        #expect(throws: SourceUnavailable.self) { try source.readTemperatures(at: instant(0)) }
    }

    @Test(arguments: [
        ("garbage", "not a number"), ("500000", "out of range"), ("-256000", "not available"),
    ])
    func badValuesMakeOnlyThatZoneStale(text: String, reason: String) throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 50, trips: [])
        try tree.addZone(1, type: "gpu", celsius: 60, trips: [])
        let source = ThermalZoneSource(roots: SystemRoots(sysfs: tree.root))
        try tree.write("class/thermal/thermal_zone0/temp", text)

        let readings = try source.readTemperatures(at: instant(0))

        #expect(readings[0].isStale)
        #expect(readings[0].celsius == nil)
        #expect(readings[0].fault?.description.contains(reason) == true)
        #expect(readings[1].celsius == Celsius(60))
    }

    /// A driver reload unlinks and recreates the attribute: the descriptor held open would
    /// keep reading the old file (45 °C) while the sensor says 98 °C.
    @Test func aValueFileReplacedUnderItsOpenDescriptorIsReopenedAtTheNextCheck() throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 45, trips: [("critical", 105, 0)])
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(1000))
        #expect(try source.readTemperatures(at: instant(0))[0].celsius == Celsius(45))
        try tree.remove("class/thermal/thermal_zone0/temp")
        try tree.write("class/thermal/thermal_zone0/temp", "98000")
        let check = DiscoverySchedule.checkInterval.seconds
        #expect(try source.readTemperatures(at: instant(check + 0.5))[0].celsius == Celsius(98))
        #expect(try source.readTemperatures(at: instant(check + 0.6))[0].celsius == Celsius(98))
    }

    @Test func aReadingAboveTheCriticalLimitIsRealAndEscalatesToShutdown() throws {
        let tree = try FixtureTree()
        try tree.addZone(
            0, type: "cpu", celsius: 200, trips: [("passive", 85, 0), ("critical", 105, 0)])
        let source = ThermalZoneSource(roots: SystemRoots(sysfs: tree.root))
        let readings = try source.readTemperatures(at: instant(0))
        #expect(readings[0].celsius == Celsius(200))
        #expect(!readings[0].isStale)
        var classifier = PressureClassifier()
        #expect(
            classifier.classify(PressureSample(time: .origin, sensors: readings)).level == .shutdown
        )
    }

    @Test func aZoneThatVanishesTurnsStaleAndOneThatAppearsIsPickedUp() throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 50, trips: [])
        try tree.addZone(1, type: "gpu", celsius: 60, trips: [])
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(1))
        #expect(try source.readTemperatures(at: instant(0)).allSatisfy { !$0.isStale })

        try tree.remove("class/thermal/thermal_zone1")
        try tree.addZone(2, type: "camera", celsius: 45, trips: [])
        let after = try source.readTemperatures(at: instant(1))

        #expect(after.map(\.id) == ["thermal_zone0", "thermal_zone1", "thermal_zone2"])
        #expect(after[0].celsius == Celsius(50))
        #expect(after[1].fault == .vanished)
        #expect(after[1].celsius == nil)
        #expect(after[2].celsius == Celsius(45))
    }

    @Test(arguments: [SensorFault.noData, .ioError, .invalidArgument, .vanished])
    func driverErrorsMakeOnlyThatZoneStale(fault: SensorFault) throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 50, trips: [("passive", 80, 0)])
        try tree.addZone(1, type: "gpu", celsius: 60, trips: [])
        let failing = tree.root + "/class/thermal/thermal_zone0/temp"
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(5),
            open: { path throws(SensorFault) in
                if path == failing { return FailingAttribute(fault: fault) }
                return try SysfsValueFile(path: path)
            })

        let readings = try source.readTemperatures(at: instant(0))
        var classifier = PressureClassifier()
        let reading = classifier.classify(PressureSample(time: .origin, sensors: readings))

        #expect(readings[0].fault == fault)
        #expect(readings[0].high == Celsius(80))
        #expect(readings[1].celsius == Celsius(60))
        #expect(reading.factors.map { $0.sensor } == [SensorID("thermal_zone1")])
        #expect(
            reading.notes.contains {
                $0.contains("thermal_zone0") && $0.contains(fault.description)
            })
    }
}

/// A sensor file whose every read fails with one fault, as a misbehaving driver's.
final class FailingAttribute: SensorAttribute {
    let fault: SensorFault
    init(fault: SensorFault) { self.fault = fault }
    func readInteger() throws(SensorFault) -> Int { throw fault }
    var isReplaced: Bool { false }
}

@Suite struct RediscoveryCostTests {
    @Test func aSensorKnownToBeGoneDoesNotCauseARediscoveryEverySample() throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 50, trips: [])
        try tree.addZone(1, type: "gpu", celsius: 60, trips: [])
        let opens = Mutex(0)
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(1000),
            open: { path throws(SensorFault) in
                opens.withLock { $0 += 1 }
                return try SysfsValueFile(path: path)
            })
        _ = try source.readTemperatures(at: instant(0))
        try tree.remove("class/thermal/thermal_zone1")
        let check = DiscoverySchedule.checkInterval.seconds
        let afterVanishing = try source.readTemperatures(at: instant(check))
        let opensAfterRediscovery = opens.withLock { $0 }
        for step in 1..<10 {
            _ = try source.readTemperatures(at: instant(check * Double(1 + step)))
        }

        #expect(afterVanishing[1].fault == .vanished)
        #expect(opens.withLock { $0 } == opensAfterRediscovery)
    }
}
