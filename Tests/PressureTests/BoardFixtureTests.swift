import TestSupport
import Testing

@testable import Pressure

/// The boards of `Tests/Boards` (copies of real boards' sysfs, sources in each `SOURCES.md`)
/// read through a fixture root, as `HEADROOM_SYSFS_ROOT` would point the CLI at them.
@Suite struct BoardFixtureTests {
    /// A board's sources under its tree: zones, cpufreq and board signals (no host PSI, which
    /// a busy test machine would make flaky); `pressure` adds a PSI tree.
    private func sampler(_ tree: FixtureTree, pressure: FixtureTree? = nil) -> PressureSampler {
        let roots = SystemRoots(sysfs: tree.root, procfs: pressure?.root ?? tree.root + "/none")
        return PressureSampler(
            temperatureSources: [ThermalZoneSource(roots: roots)],
            throttlingSource: CPUFrequencySource(roots: roots),
            stallSource: pressure.map { _ in PSISource(roots: roots) },
            boardSource: BoardSignalSource(roots: roots))
    }

    private func factor(_ kind: PressureFactor.Kind, in reading: PressureReading)
        -> PressureFactor?
    {
        reading.factors.first { $0.kind == kind }
    }

    @Test func aRaspberryPi4AtRestIsNominalWithItsSupplySignals() throws {
        let pi = try FixtureTree(board: "raspberry-pi-4")
        var classifier = PressureClassifier()
        let reading = classifier.classify(try #require(sampler(pi).sample(at: instant(0))))
        #expect(reading.level == .nominal)
        #expect(reading.board?.firmware == FirmwareThrottling(word: 0))
        #expect(reading.board?.voltages.map(\.id) == ["rpi_volt/in0"])
        #expect(factor(.powerSupply, in: reading)?.detail == "supply voltage normal")
        #expect(reading.sensors.contains { $0.id == "firmware/get_throttled" && $0.value == 0 })
        #expect(reading.sensors.contains { $0.label == "cpu-thermal" && $0.critical?.value == 90 })
    }

    @Test func aPiUnderVoltageEpisodeIsSeriousNowAndOnlyReportedAfterwards() throws {
        let pi = try FixtureTree(board: "raspberry-pi-4")
        let source = sampler(pi)
        var classifier = PressureClassifier()
        // The supply sags: the firmware says under-voltage and throttled, now and since boot.
        try pi.write("devices/platform/soc/soc:firmware/get_throttled", "50005")
        try pi.write("class/hwmon/hwmon1/in0_lcrit_alarm", "1")
        let during = classifier.classify(try #require(source.sample(at: instant(0))))
        #expect(during.level == .serious)
        let supply = try #require(factor(.powerSupply, in: during))
        #expect(supply.level == .serious)
        #expect(supply.detail.contains("under-voltage now"))
        #expect(supply.detail.contains("0x50005"))
        #expect(factor(.cpuThrottling, in: during)?.level == .fair)
        #expect(factor(.cpuThrottling, in: during)?.detail.contains("throttled now") == true)
        #expect(during.isWithinReach)

        // Supply restored: only the "has occurred" bits stay; reported, not escalated.
        try pi.write("devices/platform/soc/soc:firmware/get_throttled", "50000")
        try pi.write("class/hwmon/hwmon1/in0_lcrit_alarm", "0")
        let after = classifier.classify(try #require(source.sample(at: instant(1))))
        #expect(after.level == .nominal)
        #expect(factor(.powerSupply, in: after)?.level == .nominal)
        #expect(factor(.powerSupply, in: after)?.detail.contains("has occurred since boot") == true)
        #expect(after.board?.firmware?.hasOccurred(.underVoltage) == true)
        #expect(after.board?.firmware?.isActive(.underVoltage) == false)
    }

    @Test func theRPAlarmAloneIsEnoughAndAGarbledWordIsStaleNotNormal() throws {
        let pi = try FixtureTree(board: "raspberry-pi-4")
        try pi.write("class/hwmon/hwmon1/in0_lcrit_alarm", "1")
        try pi.write("devices/platform/soc/soc:firmware/get_throttled", "not hex")
        var classifier = PressureClassifier()
        let reading = classifier.classify(try #require(sampler(pi).sample(at: instant(0))))
        #expect(factor(.powerSupply, in: reading)?.level == .serious)
        let word = try #require(reading.sensors.first { $0.id == "firmware/get_throttled" })
        #expect(word.isStale && word.value == nil)
    }

    @Test func aPi5ListsItsRP1VoltagesAndFan() throws {
        let pi = try FixtureTree(board: "raspberry-pi-5")
        var classifier = PressureClassifier()
        let reading = classifier.classify(try #require(sampler(pi).sample(at: instant(0))))
        let rp1 = reading.board?.voltages.filter { $0.id.rawValue.hasPrefix("rp1_adc/") } ?? []
        #expect(rp1.count == 4)
        #expect(rp1.allSatisfy { ($0.volts ?? 0) > 0 && ($0.volts ?? 0) < 4 })
        #expect(reading.sensors.contains { $0.label == "cooling: pwm-fan" })
        #expect(reading.level == .nominal)
    }

    @Test func anIdleJetsonGPUAtMinus256IsNotAvailableNotAReading() throws {
        let orin = try FixtureTree(board: "jetson-orin-nano")
        var classifier = PressureClassifier()
        let reading = classifier.classify(try #require(sampler(orin).sample(at: instant(0))))
        let gpu = try #require(reading.sensors.first { $0.label == "gpu-thermal" })
        #expect(gpu.celsius == nil)
        #expect(gpu.fault == .notAvailable(-256))
        #expect(reading.thermal == .measured)
        #expect(reading.level == .nominal)
        #expect(reading.notes.contains { $0.contains("gpu-thermal") && !$0.contains("stale") })
        #expect(!reading.headroom.current.isNaN)
        // When the GPU wakes, its zone is a reading like any other.
        try orin.write("class/thermal/thermal_zone1/temp", "52500")
        let awake = classifier.classify(try #require(sampler(orin).sample(at: instant(1))))
        #expect(awake.sensors.first { $0.label == "gpu-thermal" }?.celsius?.value == 52.5)
    }

    @Test func jetsonRailsAndGPUAreRead() throws {
        let orin = try FixtureTree(board: "jetson-orin-nano")
        var classifier = PressureClassifier()
        let reading = classifier.classify(try #require(sampler(orin).sample(at: instant(0))))
        let board = try #require(reading.board)
        #expect(board.rails.map(\.label) == ["VDD_IN", "VDD_CPU_GPU_CV", "VDD_SOC"])
        let input = board.rails[0]
        let volts = try #require(input.volts)
        let amperes = try #require(input.amperes)
        #expect(abs(try #require(input.watts) - volts * amperes) < 1e-12)
        #expect(input.warningAmperes != nil && input.criticalAmperes != nil)
        #expect(board.gpus.map(\.device) == ["17000000.gpu"])
        #expect(board.gpus[0].load != nil && (board.gpus[0].hertz ?? 0) > 0)
        #expect(factor(.peakPower, in: reading)?.level == .nominal)
    }

    @Test func anINA3221CriticalAlarmIsCriticalAndAWarningIsSerious() throws {
        let orin = try FixtureTree(board: "jetson-orin-nano")
        let source = sampler(orin)
        var classifier = PressureClassifier()
        try orin.write("class/hwmon/hwmon1/curr1_max_alarm", "1")
        let warning = classifier.classify(try #require(source.sample(at: instant(0))))
        #expect(factor(.peakPower, in: warning)?.level == .serious)
        #expect(warning.level == .serious)
        try orin.write("class/hwmon/hwmon1/curr1_crit_alarm", "1")
        let critical = classifier.classify(try #require(source.sample(at: instant(1))))
        let peak = try #require(factor(.peakPower, in: critical))
        #expect(peak.level == .critical)
        #expect(peak.detail.contains("VDD_IN") && peak.detail.contains("critical current alarm"))
        #expect(critical.level == .critical)
        #expect(critical.factors.first?.kind == .peakPower)
    }

    @Test func aRailWhoseFileVanishesIsStaleNeverZeroWatts() throws {
        let orin = try FixtureTree(board: "jetson-orin-nano")
        let source = sampler(orin)
        _ = source.sample(at: instant(0))
        try orin.remove("class/hwmon/hwmon1/curr2_input")
        let sample = try #require(
            source.sample(at: instant(DiscoverySchedule.checkInterval.seconds)))
        let rail = try #require(sample.board?.rails.first { $0.label == "VDD_CPU_GPU_CV" })
        #expect(rail.fault != nil)
        #expect(rail.watts == nil && rail.amperes == nil)
    }

    @Test func aXavierHasTwoMonitorsAndItsFixedPMICZoneIsIgnored() throws {
        let xavier = try FixtureTree(board: "jetson-agx-xavier")
        var classifier = PressureClassifier()
        let reading = classifier.classify(try #require(sampler(xavier).sample(at: instant(0))))
        #expect(reading.board?.rails.count == 6)
        #expect(reading.board?.gpus.first?.device == "17000000.gv11b")
        #expect(reading.board?.gpus.first?.load != nil)
        // PMIC-Die reads a fixed 100 °C: listed, not classified (it would say shutdown).
        #expect(reading.sensors.contains { $0.label == "PMIC-Die" && $0.celsius?.value == 100 })
        #expect(reading.level == .nominal)
    }

    @Test func aBusyCPUWithCoolSensorsStaysFair() throws {
        let pi = try FixtureTree(board: "raspberry-pi-4")
        let proc = try FixtureTree()
        try proc.write(
            "pressure/cpu",
            "some avg10=98.00 avg60=97.00 avg300=90.00 total=123456789\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0"
        )
        try proc.write(
            "pressure/io",
            "some avg10=99.00 avg60=97.00 avg300=90.00 total=1\nfull avg10=50.00 avg60=40.00 avg300=30.00 total=1"
        )
        try proc.write(
            "pressure/memory",
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0"
        )
        var classifier = PressureClassifier()
        let reading = classifier.classify(
            try #require(sampler(pi, pressure: proc).sample(at: instant(0))))
        let cpu = try #require(factor(.cpuPressure, in: reading))
        #expect(cpu.level == .fair)
        #expect(cpu.value == 98)
        #expect(cpu.detail.contains("contention"))
        #expect(factor(.ioPressure, in: reading)?.level == .serious)
        #expect(reading.level == .serious)
        #expect(factor(.systemTemperature, in: reading)?.level == .nominal)

        // Memory full-stall is not contention: it may reach critical.
        try proc.write(
            "pressure/memory",
            "some avg10=60.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=35.00 avg60=0.00 avg300=0.00 total=1"
        )
        let stalled = classifier.classify(
            try #require(sampler(pi, pressure: proc).sample(at: instant(1))))
        #expect(stalled.level == .critical)
        #expect(stalled.factors.first?.kind == .memoryPressure)
    }

    @Test func boardSignalsSurviveATraceRoundTrip() throws {
        let orin = try FixtureTree(board: "jetson-orin-nano")
        try orin.write("class/hwmon/hwmon1/curr1_crit_alarm", "1")
        let sample = try #require(sampler(orin).sample(at: instant(3)))
        let file = try FixtureTree()
        try PressureTrace(samples: [sample]).write(to: file.root + "/trace.jsonl")
        let decoded = try PressureTrace.read(from: file.root + "/trace.jsonl")
        #expect(decoded.samples[0].board == sample.board)
    }
}

/// An INA238 as its driver presents it (kernel `Documentation/hwmon/ina238.rst`: `in1_input`
/// bus voltage in mV, `curr1_input` in mA, `power1_input` in µW, `power1_max` and
/// `power1_max_alarm`); no public board dump has one, so the tree is built from the
/// documentation.
@Suite struct INA238Tests {
    @Test func anINA238RailUsesTheChipsOwnPowerAndItsPowerAlarm() throws {
        let tree = try FixtureTree()
        try tree.write("class/hwmon/hwmon0/name", "ina238")
        try tree.write("class/hwmon/hwmon0/in1_input", "12000")
        try tree.write("class/hwmon/hwmon0/curr1_input", "1500")
        try tree.write("class/hwmon/hwmon0/power1_input", "18100000")
        try tree.write("class/hwmon/hwmon0/power1_max", "30000000")
        try tree.write("class/hwmon/hwmon0/power1_max_alarm", "0")
        let source = BoardSignalSource(roots: SystemRoots(sysfs: tree.root))
        let rail = try #require(source.readBoard(at: instant(0)).rails.first)
        #expect(rail.label == "ina238 channel 1")
        #expect(rail.volts == 12 && rail.amperes == 1.5)
        #expect(rail.watts == 18.1, "the chip's own power, not volts × amperes")
        #expect(rail.warningWatts == 30)
        #expect(BoardSignals(rails: [rail]).peakPowerFactor?.level == .nominal)
        try tree.write("class/hwmon/hwmon0/power1_max_alarm", "1")
        let alarmed = try #require(source.readBoard(at: instant(1)).rails.first)
        #expect(BoardSignals(rails: [alarmed]).peakPowerFactor?.level == .serious)
    }
}
