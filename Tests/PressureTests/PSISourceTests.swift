import TestSupport
import Testing

@testable import Pressure

@Suite struct PSISourceTests {
    @Test func parsesTheKernelFormat() throws {
        let reading = try PSIReading(
            resource: .memory,
            parsing: """
                some avg10=4.76 avg60=1.15 avg300=0.81 total=6451825
                full avg10=2.50 avg60=0.00 avg300=0.00 total=12

                """)
        #expect(reading.some.avg10 == 4.76)
        #expect(reading.some.totalMicroseconds == 6_451_825)
        #expect(reading.full?.avg10 == 2.5)
        #expect(reading.stallPercent == 2.5)
        #expect(reading.sensorEntry.id == "psi/memory")
    }

    @Test(arguments: [
        "", "some avg10=x avg60=1 avg300=1 total=1", "most avg10=1 avg60=1 avg300=1 total=1",
    ])
    func rejectsGarbage(text: String) {
        #expect(throws: SensorFault.self) { try PSIReading(resource: .cpu, parsing: text) }
    }

    /// The byte parser the source uses agrees with the text parser wherever it answers, and
    /// leaves everything that is not the kernel's exact layout to it.
    @Test(arguments: [
        "some avg10=4.76 avg60=1.15 avg300=0.81 total=6451825\n",
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.10 avg60=99.99 avg300=100.00 total=18446744073709551615\n",
        "some avg10=0.33 avg60=0.07 avg300=0.01 total=123",
        "some avg10=12.345678901234 avg60=1 avg300=7.5 total=9",
    ])
    func byteParserMatchesTheTextParser(text: String) throws {
        let expected = try PSIReading(resource: .memory, parsing: text)
        let fast = Array(text.utf8).withUnsafeBufferPointer {
            PSIReading.parseCanonical(resource: .memory, $0)
        }
        #expect(fast == expected)
    }

    @Test(arguments: [
        "", "some avg10=x avg60=1 avg300=1 total=1", "most avg10=1 avg60=1 avg300=1 total=1",
        "some  avg10=1.00 avg60=1.00 avg300=1.00 total=1", "some avg10=1. avg60=1 avg300=1 total=1",
        "full avg10=1.00 avg60=1.00 avg300=1.00 total=1",
        "some avg10=1.00 avg60=1.00 avg300=1.00 total=18446744073709551616",
        "some avg10=1.00 avg60=1.00 avg300=1.00 total=1 extra=2",
    ])
    func byteParserLeavesOtherLayoutsToTheTextParser(text: String) {
        let fast = Array(text.utf8).withUnsafeBufferPointer {
            PSIReading.parseCanonical(resource: .cpu, $0)
        }
        #expect(fast == nil)
    }

    @Test func readsTheFixtureTree() throws {
        let tree = try FixtureTree()
        try tree.write("pressure/cpu", "some avg10=30.00 avg60=1.00 avg300=0.50 total=100")
        try tree.write(
            "pressure/io",
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0"
        )
        let readings = try PSISource(roots: SystemRoots(procfs: tree.root)).readPressure(
            at: instant(0))
        #expect(readings.map(\.resource) == [.cpu, .io])
        var classifier = PressureClassifier()
        let reading = classifier.classify(PressureSample(time: .origin, pressure: readings))
        #expect(reading.level == .fair)
    }

    @Test func withARefreshIntervalTheFilesAreReadAtMostThatOften() throws {
        let tree = try FixtureTree()
        let source = PSISource(
            roots: SystemRoots(procfs: tree.root), refreshInterval: .seconds(0.5))
        // A failed read is not remembered: the file is looked for again at once.
        #expect(throws: SourceUnavailable.self) { try source.readPressure(at: instant(100)) }
        try tree.write("pressure/cpu", "some avg10=30.00 avg60=1.00 avg300=0.50 total=100")
        #expect(try source.readPressure(at: instant(100)).first?.some.avg10 == 30)

        try tree.write("pressure/cpu", "some avg10=2.00 avg60=1.00 avg300=0.50 total=900")
        #expect(try source.readPressure(at: instant(100.4)).first?.some.avg10 == 30)
        #expect(try source.readPressure(at: instant(100.5)).first?.some.avg10 == 2)
        // Without one, every call reads the files.
        try tree.write("pressure/cpu", "some avg10=7.00 avg60=1.00 avg300=0.50 total=950")
        #expect(
            try PSISource(roots: SystemRoots(procfs: tree.root)).readPressure(at: instant(0)).first?
                .some
                .avg10
                == 7)
    }

    @Test func missingPSIIsUnavailableWithTheReason() throws {
        let tree = try FixtureTree()
        #expect {
            try PSISource(roots: SystemRoots(procfs: tree.root)).readPressure(at: instant(0))
        } throws: { error in
            "\(error)".hasPrefix("psi unavailable: no \(tree.root)/pressure/cpu")
        }
    }

    @Test func theSamplerNotesUnavailableSourcesAndKeepsTheOthers() throws {
        let tree = try FixtureTree()
        try tree.write("pressure/cpu", "some avg10=1.00 avg60=1.00 avg300=0.50 total=100")
        let roots = SystemRoots(sysfs: tree.root, procfs: tree.root)
        let sampler = PressureSampler(
            temperatureSources: [ThermalZoneSource(roots: roots)],
            throttlingSource: CPUFrequencySource(roots: roots), stallSource: PSISource(roots: roots)
        )
        let sample = try #require(sampler.sample(at: instant(0)))
        #expect(sample.unavailable.map(\.source) == [.thermalZone, .cpufreq])
        #expect(sample.pressure.count == 1)
        var classifier = PressureClassifier()
        let reading = classifier.classify(sample)
        #expect(reading.thermal == .none)
        #expect(reading.notes.contains { $0.hasPrefix("thermal_zone unavailable") })
    }

    /// The unavailable sources are the same sample after sample while nothing changes (the
    /// PSI refreshed between), and a source found at its next discovery leaves the list.
    @Test func theUnavailableSourcesFollowTheSourcesAcrossRefreshesAndDiscoveries() throws {
        let tree = try FixtureTree()
        try tree.write("pressure/cpu", "some avg10=1.00 avg60=1.00 avg300=0.50 total=100")
        let roots = SystemRoots(sysfs: tree.root, procfs: tree.root)
        let sampler = PressureSampler(
            temperatureSources: [ThermalZoneSource(roots: roots)],
            throttlingSource: CPUFrequencySource(roots: roots),
            stallSource: PSISource(roots: roots, refreshInterval: .milliseconds(500)))
        var seconds = 0.0
        func unavailable() throws -> [SensorSourceKind] {
            defer { seconds += 0.2 }
            return try #require(sampler.sample(at: instant(seconds))).unavailable.map(\.source)
        }
        for _ in 0..<5 {
            try tree.write(
                "pressure/cpu", "some avg10=1.00 avg60=1.00 avg300=0.50 total=\(Int(seconds * 10))")
            #expect(try unavailable() == [.thermalZone, .cpufreq])
        }
        try tree.addZone(0, type: "cpu-thermal", celsius: 50, trips: [])
        // Found at the next look for zones (at most 5 s apart while there are none).
        while seconds < 5.2 { _ = try unavailable() }
        #expect(try unavailable() == [.cpufreq])
        try tree.write("pressure/cpu", "garbage")
        seconds += 0.6
        #expect(try unavailable() == [.cpufreq, .psi])
    }
}
