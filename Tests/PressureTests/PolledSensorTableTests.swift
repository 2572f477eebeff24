import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Pressure

/// A sensor file whose next reads are scripted: a value, or a fault.
final class ScriptedAttribute: SensorAttribute {
    let next = Mutex<Result<Int, SensorFault>>(.success(50_000))
    func readInteger() throws(SensorFault) -> Int { try next.withLock { $0 }.get() }
    var isReplaced: Bool { false }
}

@Suite struct PolledSensorTableTests {
    /// Readings are updated in place between samples; a sensor going stale, changing its
    /// fault and coming back keeps its limits, and an array a caller still holds never changes.
    @Test func samplesGoStaleAndRecoverWithTheirLimitsAndHeldArraysStayAsTheyWere() throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu", celsius: 50, trips: [("passive", 80, 2)])
        try tree.addZone(1, type: "gpu", celsius: 60, trips: [])
        let scripted = ScriptedAttribute()
        let scriptedPath = tree.root + "/class/thermal/thermal_zone0/temp"
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(1000),
            open: { path throws(SensorFault) in
                if path == scriptedPath { return scripted }
                return try SysfsValueFile(path: path)
            })

        let first = try source.readTemperatures(at: instant(0))
        scripted.next.withLock { $0 = .success(70_000) }
        let second = try source.readTemperatures(at: instant(0.1))
        scripted.next.withLock { $0 = .failure(.noData) }
        let third = try source.readTemperatures(at: instant(0.2))
        scripted.next.withLock { $0 = .failure(.ioError) }
        let fourth = try source.readTemperatures(at: instant(0.3))
        scripted.next.withLock { $0 = .success(600_000) }
        let fifth = try source.readTemperatures(at: instant(0.4))
        scripted.next.withLock { $0 = .success(65_000) }
        let sixth = try source.readTemperatures(at: instant(0.5))

        #expect(first[0].celsius == Celsius(50))
        #expect(second[0].celsius == Celsius(70))
        #expect(third[0].fault == .noData)
        #expect(third[0].celsius == nil)
        #expect(fourth[0].fault == .ioError)
        #expect(fifth[0].fault == .outOfRange(600))
        #expect(sixth[0].fault == nil)
        #expect(sixth[0].celsius == Celsius(65))
        for reading in [first[0], second[0], third[0], fourth[0], fifth[0], sixth[0]] {
            #expect(reading.high == Celsius(80))
            #expect(reading.hysteresis == Celsius(2))
            #expect(reading.label == "cpu")
        }
        #expect(
            [first, second, third, fourth, fifth, sixth].allSatisfy { $0[1].celsius == Celsius(60) }
        )
    }

    /// An offline zone (EAGAIN, as a Jetson Orin Nano's zones for accelerators it lacks
    /// answer) and an idle GPU (−256 °C) are not available: listed without a value, noted
    /// without the word "stale", and the reading rests on the other zones.
    @Test func offlineAndIdleZonesAreNotAvailableRatherThanStale() throws {
        let tree = try FixtureTree()
        try tree.addZone(0, type: "cpu-thermal", celsius: 50, trips: [])
        try tree.addZone(1, type: "gpu-thermal", celsius: -256, trips: [])
        try tree.addZone(2, type: "cv0-thermal", celsius: 40, trips: [])
        let offline = ScriptedAttribute()
        offline.next.withLock { $0 = .failure(SensorFault(errno: EAGAIN)) }
        let offlinePath = tree.root + "/class/thermal/thermal_zone2/temp"
        let source = ThermalZoneSource(
            roots: SystemRoots(sysfs: tree.root), rescanInterval: .seconds(1000),
            open: { path throws(SensorFault) in
                if path == offlinePath { return offline }
                return try SysfsValueFile(path: path)
            })
        let readings = try source.readTemperatures(at: instant(0))
        #expect(readings[1].fault == .notAvailable(-256))
        #expect(readings[2].fault == .offline)
        #expect(readings.allSatisfy { $0.fault?.isNotAvailable ?? true })
        var classifier = PressureClassifier()
        let reading = classifier.classify(PressureSample(time: .origin, sensors: readings))
        #expect(reading.thermal == .measured)
        #expect(reading.notes.count == 2)
        #expect(reading.notes.allSatisfy { !$0.contains("stale") })
    }
}
