import Foundation
import TestSupport
import Testing
import Units

@testable import Pressure

/// A source reading one file, counting its reads, that says it reads only that file until
/// `until` seconds.
private final class CountingSource: QuietWatchable, @unchecked Sendable {
    let file: SysfsValueFile
    var reads = 0
    var until = 60.0

    init(path: String) throws { file = try SysfsValueFile(path: path) }

    func read() -> Int {
        reads += 1
        return (try? file.readInteger()) ?? -1
    }

    func quietWatch(after time: MonotonicInstant) -> QuietWatch? {
        QuietWatch(files: [file], until: instant(until))
    }
}

@Suite struct SourceMemoTests {
    /// A memo over a source of `tree`'s file `value`, holding `text`.
    private func memo(in tree: FixtureTree, holding text: String) throws -> (
        SourceMemo<Int>, CountingSource
    ) {
        try tree.write("value", text)
        let source = try CountingSource(path: tree.root + "/value")
        return (SourceMemo<Int>(for: source), source)
    }

    @Test func aSourceWhoseFilesAreUnchangedIsNotReadAgain() throws {
        let tree = try FixtureTree()
        let (memo, source) = try memo(in: tree, holding: "42")
        // The first read finds the files to watch, the second their bytes before it.
        #expect(memo.value(at: instant(0), read: source.read) == 42)
        #expect(memo.value(at: instant(0.1), read: source.read) == 42)
        #expect(source.reads == 2)
        for step in 2..<20 {
            #expect(memo.value(at: instant(Double(step) / 10), read: source.read) == 42)
            #expect(memo.wasReused)
        }
        #expect(source.reads == 2)
    }

    @Test func aFileChangedInPlaceIsReadAtTheNextSample() throws {
        let tree = try FixtureTree()
        let (memo, source) = try memo(in: tree, holding: "42")
        for step in 0..<3 { _ = memo.value(at: instant(Double(step)), read: source.read) }
        try tree.write("value", "43")
        #expect(memo.value(at: instant(3), read: source.read) == 43)
        #expect(!memo.wasReused)
        // Same length, other bytes.
        try tree.write("value", "44")
        #expect(memo.value(at: instant(4), read: source.read) == 44)
        #expect(memo.value(at: instant(5), read: source.read) == 44)
        #expect(memo.wasReused)
    }

    @Test func whenTheWatchEndsOrTheClockGoesBackTheSourceIsReadAgain() throws {
        let tree = try FixtureTree()
        let (memo, source) = try memo(in: tree, holding: "42")
        source.until = 5
        for step in 0..<3 { _ = memo.value(at: instant(Double(step)), read: source.read) }
        #expect(source.reads == 2)
        // Its discovery (say) falls due at 5 s.
        _ = memo.value(at: instant(5), read: source.read)
        #expect(source.reads == 3)
        source.until = 60
        _ = memo.value(at: instant(6), read: source.read)
        _ = memo.value(at: instant(7), read: source.read)
        #expect(source.reads == 4)
        // A clock that went back (a new trace) is no time to trust what was kept.
        _ = memo.value(at: instant(6.5), read: source.read)
        #expect(source.reads == 5)
    }

    @Test func aContentTooLongToCompareWholeIsAlwaysReadAgain() throws {
        let tree = try FixtureTree()
        let digits = String(repeating: "7", count: SourceMemo<Int>.slot + 10)
        let (memo, source) = try memo(in: tree, holding: digits)
        for step in 0..<5 { _ = memo.value(at: instant(Double(step)), read: source.read) }
        #expect(source.reads == 5)
    }

    @Test func aSourceThatCannotSayWhatItReadsIsReadEveryTime() {
        final class Plain: @unchecked Sendable { var reads = 0 }
        let plain = Plain()
        let memo = SourceMemo<Int>(for: plain)
        for step in 0..<5 {
            _ = memo.value(at: instant(Double(step))) {
                plain.reads += 1
                return 1
            }
        }
        #expect(plain.reads == 5)
    }

    @Test func aCheckedMemoTakesItsCheckAtTheSameTimeAndChecksAgainAtAnother() throws {
        let tree = try FixtureTree()
        let (memo, source) = try memo(in: tree, holding: "42")
        for step in 0..<2 { _ = memo.value(at: instant(Double(step)), read: source.read) }
        #expect(memo.check(at: instant(2)))
        // Changed after the check: the value at the check's time is the kept one...
        try tree.write("value", "43")
        #expect(memo.value(at: instant(2), read: source.read) == 42)
        #expect(memo.wasReused)
        // ...and the next time checks the files again.
        #expect(!memo.check(at: instant(3)))
        #expect(memo.value(at: instant(3), read: source.read) == 43)
        #expect(source.reads == 3)
    }

    /// A sampler whose every source's result holds gives its last sample again, at the new
    /// time; a source that cannot say what it reads is read at every sample all the same.
    @Test func aSamplerWhoseSourcesAllHoldGivesItsLastSampleAtTheNewTime() throws {
        final class Rising: TemperatureSource, @unchecked Sendable {
            var celsius = 40.0
            func readTemperatures(at time: MonotonicInstant) -> [SensorReading] {
                celsius += 1
                return [
                    SensorReading(
                        id: SensorID("test/rising"), source: .thermalZone, label: "rising",
                        celsius: Celsius(celsius))
                ]
            }
        }
        let tree = try FixtureTree(board: "raspberry-pi-4")
        let zones = ThermalZoneSource(roots: SystemRoots(sysfs: tree.root))
        let quiet = PressureSampler(
            temperatureSources: [zones],
            throttlingSource: CPUFrequencySource(roots: SystemRoots(sysfs: tree.root)))
        let first = try #require(quiet.sample(at: instant(0)))
        _ = quiet.sample(at: instant(0.1))
        var later = try #require(quiet.sample(at: instant(0.2)))
        #expect(later.time == instant(0.2))
        later.time = first.time
        #expect(later == first)

        let rising = Rising()
        let mixed = PressureSampler(temperatureSources: [zones, rising])
        let readings = try (0..<4).map {
            try #require(mixed.sample(at: instant(Double($0) / 10))).sensors.last?.celsius?.value
        }
        #expect(readings == [41, 42, 43, 44])
    }

    /// The sampler over a board's real sources: a temperature written in place (as a sensor
    /// changes) is in the very next sample, while the samples between take the kept results.
    @Test func theSystemSamplerSeesAChangedTemperatureAtTheNextSample() throws {
        let tree = try FixtureTree(board: "raspberry-pi-4")
        let sampler = PressureSampler(
            temperatureSources: [ThermalZoneSource(roots: SystemRoots(sysfs: tree.root))],
            throttlingSource: CPUFrequencySource(roots: SystemRoots(sysfs: tree.root)),
            boardSource: BoardSignalSource(roots: SystemRoots(sysfs: tree.root)))
        func celsius(at seconds: Double) throws -> Double? {
            try #require(sampler.sample(at: instant(seconds))).sensors.first?.celsius?.value
        }
        let first = try celsius(at: 0)
        for step in 1..<5 { #expect(try celsius(at: Double(step) / 10) == first) }
        try tree.setZone(0, celsius: 71.5)
        #expect(try celsius(at: 0.5) == 71.5)
        try tree.setZone(0, celsius: 71.6)
        #expect(try celsius(at: 0.6) == 71.6)
        #expect(try celsius(at: 0.7) == 71.6)
    }
}
