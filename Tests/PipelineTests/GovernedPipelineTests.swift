import Capture
import Governor
import HostService
import Pipeline
import Pressure
import TestSupport
import Testing
import Tracking
import Units

/// Headroom's own pipeline governed as a client of the host service: the policy's table, its
/// hysteresis, lateness, shutdown and the budget-driven step-down.
struct GovernedPipelineTests {
    /// A light 1080p30 session on the desktop profile: its hardware cost is far below 1.
    static let session = SessionConfiguration(
        cameras: [
            CameraConfiguration(
                id: "cam", format: CameraFormat(width: 1920, height: 1080, maxFrameRate: 30))
        ],
        outputs: [CaptureOutput(kind: .videoData)])

    /// The session's pipeline, registered at time 0 with a host service of its own.
    static func governor(
        policy: GovernorPolicy = GovernorPolicy(), table: QualityTable = QualityTable(rows: []),
        session: SessionConfiguration = session
    ) throws -> GovernedRun {
        try GovernedRun(policy: policy, table: table, session: session)
    }

    @Test(
        "the default policy table",
        arguments: [
            (PressureLevel.nominal, 30.0, 1, true),
            (.fair, 30, 1, true),
            (.serious, 20, 3, true),
            (.critical, 15, 5, true),
            (.shutdown, 15, 5, false),
        ])
    func policyTable(level: PressureLevel, frameRate: FrameRate, stride: Int, capturing: Bool)
        throws
    {
        let governor = try Self.governor()
        governor.update(level: level, sustainableShare: 1, at: instant(0))
        let target = governor.settings
        #expect(target.isCapturing == capturing)
        if capturing {
            #expect(target.frameRate == frameRate)
            #expect(target.inference.stride == stride)
        }
    }

    @Test("the quality table picks the cheapest setting within the allowed loss")
    func qualityTable() throws {
        let rows: [QualityTable.Row] = [
            .init(frameRate: 20, stride: 1, scale: 1, idf1: 0.5, mota: 0.90),
            .init(frameRate: 20, stride: 2, scale: 1, idf1: 0.5, mota: 0.89),
            .init(frameRate: 20, stride: 3, scale: 1, idf1: 0.5, mota: 0.86),
            .init(frameRate: 20, stride: 5, scale: 0.5, idf1: 0.5, mota: 0.70),
        ]
        let table = QualityTable(rows: rows)
        #expect(
            table.cheapestSetting(at: 20, allowedLoss: 0.02)
                == InferenceSetting(stride: 2, scale: 1))
        #expect(
            table.cheapestSetting(at: 21, allowedLoss: 0.05)
                == InferenceSetting(stride: 3, scale: 1))
        #expect(
            table.cheapestSetting(at: 20, allowedLoss: 0) == InferenceSetting(stride: 1, scale: 1))
        let governor = try Self.governor(table: table)
        #expect(governor.ladder.count == 4)
        let change = governor.update(level: .serious, sustainableShare: 1, at: instant(0))
        #expect(change?.to.inference == InferenceSetting(stride: 3, scale: 1))
    }

    @Test(
        "with the quality measured at each rung, serious takes the rung that loses least for what it saves; without, the middle one"
    )
    func measuredRungQuality() throws {
        let policy = GovernorPolicy(inferenceLadder: SSDPersonDetector.inferenceLadder)
        let measured = try GovernedRun(
            policy: policy, table: QualityTable(rows: []), session: Self.session,
            rungQuality: SSDPersonDetector.rungQuality)
        #expect(measured.registration.ladder.allSatisfy { $0.quality != nil })
        measured.update(level: .serious, sustainableShare: 1, at: instant(0))
        // Halving the regions gives up 0.042 of HOTA for 3/8 of the work; the whole frame
        // 0.234 for half of it.
        #expect(measured.settings.inference == InferenceSetting(stride: 2, scale: 1, regions: 3))
        measured.update(level: .critical, sustainableShare: 1, at: instant(1))
        #expect(measured.settings.inference == SSDPersonDetector.inferenceLadder.last)

        // Priced as calibrate measured the rungs on this host, relative to the heaviest.
        let cpu = [71.0, 35.5, 29.1, 24.1, 12.1, 8.0]
        #expect(
            measured.registration.ladder.map(\.cost)
                != zip(policy.inferenceLadder, cpu).map { $0.1 / 71 })
        var profile = DeviceProfile.genericDesktop
        profile.rungCosts = zip(policy.inferenceLadder, cpu).map {
            RungCost(setting: $0.0, cpuMillisecondsPerFrame: $0.1)
        }
        let calibrated = try GovernedRun(
            policy: policy, table: QualityTable(rows: []), session: Self.session,
            rungQuality: SSDPersonDetector.rungQuality, profile: profile)
        #expect(calibrated.registration.ladder.map(\.cost) == cpu.map { $0 / 71 })
        calibrated.update(level: .serious, sustainableShare: 1, at: instant(0))
        #expect(calibrated.settings.inference == InferenceSetting(stride: 2, scale: 1, regions: 3))

        let unmeasured = try GovernedRun(
            policy: policy, table: QualityTable(rows: []), session: Self.session)
        unmeasured.update(level: .serious, sustainableShare: 1, at: instant(0))
        #expect(unmeasured.settings.inference == SSDPersonDetector.inferenceLadder[3])
    }

    @Test("a noisy trace around a threshold gives at most one change per dwell period")
    func hysteresis() throws {
        let policy = GovernorPolicy(stepDownDwell: .seconds(2), restoreDwell: .seconds(10))
        let governor = try Self.governor(policy: policy)
        var changes: [MonotonicInstant] = []
        // Flip between fair and serious every 0.5 s for two minutes.
        for tick in 0..<240 {
            let time = Double(tick) * 0.5
            let level: PressureLevel = tick % 2 == 0 ? .serious : .fair
            if let change = governor.update(level: level, sustainableShare: 1, at: instant(time)) {
                changes.append(change.instant)
            }
        }
        #expect(!changes.isEmpty)
        for (earlier, later) in zip(changes, changes.dropFirst()) {
            #expect(later.duration(since: earlier) >= policy.stepDownDwell)
        }
        // It steps down once and never restores, because pressure never eases for 10 s.
        #expect(changes.count == 1)
    }

    @Test("settings are restored only after pressure has eased for the restore dwell")
    func restores() throws {
        let governor = try Self.governor(
            policy: GovernorPolicy(stepDownDwell: .seconds(2), restoreDwell: .seconds(10)))
        #expect(governor.update(level: .serious, sustainableShare: 1, at: instant(0)) != nil)
        #expect(governor.settings.frameRate == 20)
        for time in stride(from: 1.0, through: 10.5, by: 0.5) {
            #expect(
                governor.update(level: .nominal, sustainableShare: 1, at: instant(time)) == nil,
                "at \(time)"
            )
        }
        let restored = governor.update(level: .nominal, sustainableShare: 1, at: instant(11))
        #expect(restored?.to.frameRate == 30)
        #expect(restored?.reason.contains("nominal settings") == true)
    }

    @Test("a late pipeline sheds load at nominal pressure, and more when it is later")
    func latenessShedsLoad() throws {
        let governor = try Self.governor(
            policy: GovernorPolicy(stepDownDwell: .seconds(2), restoreDwell: .seconds(10)))
        // Busy, not hot: nominal pressure, but a quarter of the frames missed their deadline.
        #expect(
            governor.update(level: .nominal, sustainableShare: 1, lateShare: 0.1, at: instant(0))
                == nil)
        let shed = governor.update(
            level: .nominal, sustainableShare: 1, lateShare: 0.25, at: instant(1))
        #expect(shed?.to.frameRate == 20)
        #expect(shed?.level == .nominal)
        #expect(
            shed?.reason.hasPrefix("pipeline late: 25% of frames missed their deadline") == true)
        // Still later at 20 fps: critical's settings, after the step-down dwell.
        #expect(
            governor.update(level: .nominal, sustainableShare: 1, lateShare: 0.5, at: instant(2))
                == nil)
        #expect(
            governor.update(level: .nominal, sustainableShare: 1, lateShare: 0.5, at: instant(3.5))?
                .to
                .frameRate == 15)
        // On time again: restored after the restore dwell, like eased pressure, one shedding
        // step per dwell (the steps lateness took are given back one at a time).
        #expect(
            governor.update(level: .nominal, sustainableShare: 1, lateShare: 0, at: instant(4))
                == nil)
        let eased = governor.update(
            level: .nominal, sustainableShare: 1, lateShare: 0, at: instant(14))
        #expect(eased.map { $0.to.frameRate > 15 } == true)
        for time in stride(from: 15.0, through: 60, by: 1) {
            governor.update(level: .nominal, sustainableShare: 1, lateShare: 0, at: instant(time))
        }
        #expect(governor.settings.frameRate == 30)
        #expect(governor.settings.inference == InferenceSetting(stride: 1, scale: 1))
    }

    @Test("shutdown stops capture at once and capture resumes when pressure eases")
    func shutdownAndResume() throws {
        let governor = try Self.governor(
            policy: GovernorPolicy(stepDownDwell: .seconds(2), restoreDwell: .seconds(5)))
        _ = governor.update(level: .serious, sustainableShare: 1, at: instant(0))
        let stop = governor.update(level: .shutdown, sustainableShare: 0, at: instant(0.5))
        #expect(stop?.to.isCapturing == false)
        _ = governor.update(level: .critical, sustainableShare: 0.3, at: instant(1))
        #expect(!governor.settings.isCapturing)
        let resumed = governor.update(level: .critical, sustainableShare: 0.3, at: instant(6))
        #expect(resumed?.to.isCapturing == true)
        #expect(resumed?.to.frameRate == 15)
    }

    @Test("a system pressure cost over 1 steps down before the level forces it")
    func costDrivenStepDown() throws {
        let heavy = SessionConfiguration(
            cameras: [
                CameraConfiguration(
                    id: "cam", format: CameraFormat(width: 3840, height: 2160, maxFrameRate: 30))
            ],
            outputs: [CaptureOutput(kind: .videoData), CaptureOutput(kind: .preview)])
        let governor = try Self.governor(session: heavy)
        let full = governor.costModel.hardwareCost(atFrameRate: 30)
        #expect(full < 1)
        #expect(governor.registration.share == full)
        let share = full * 0.8  // the configuration is 25 % over what is sustainable now
        let change = try #require(
            governor.update(level: .nominal, sustainableShare: share, at: instant(0)))
        #expect(change.to.load(relativeTo: 30) < change.from.load(relativeTo: 30))
        let demand = try #require(governor.service.clients.first).demand
        #expect(demand <= share)
        #expect(
            change.reason.contains("the host sustains \(share.fraction.trimmed(2)) of its budget"),
            "\(change.reason)")
    }

    @Test("changes come with their reasons")
    func reasons() throws {
        let governor = try Self.governor()
        let change = governor.update(level: .critical, sustainableShare: 0.3, at: instant(0))
        #expect(change?.to.frameRate == 15)
        // Numbers read as numbers: "critical: cap 15 fps, …".
        #expect(change?.reason.hasPrefix("critical: cap 15 fps") == true, "\(change?.reason ?? "")")
        #expect(change?.to.description.hasPrefix("15 fps, stride") == true)
    }

    @Test("another pipeline on the host shares the budget: the lower priority sheds first")
    func sharesTheHost() throws {
        let governor = try Self.governor()
        let share = try #require(governor.registration.share)
        let other = try governor.service.register(
            ClientRegistration(
                name: "people-detector", priority: 10, nominalFrameRate: 15, minFrameRate: 2,
                ladder: [LadderStep(name: "full", cost: 1), LadderStep(name: "half", cost: 0.3)],
                share: 0.5))
        // Both fit at nominal; with less budget than both need, the detector gives up first,
        // and the run keeps its settings while the detector can still shed.
        let budget = Share(fraction: share.fraction + 0.2)
        #expect(governor.update(level: .fair, sustainableShare: budget, at: instant(1)) == nil)
        #expect(governor.settings.frameRate == 30)
        let advice = try #require(governor.service.advice(for: other.id))
        #expect(advice.frameRate < 15 || advice.ladderStep > 0)
        #expect(governor.service.clients.reduce(Share.zero) { $0 + $1.demand } <= budget)
        // Once the detector leaves, nothing changes for the run: it was never short.
        governor.clock.advance(to: instant(2))
        governor.service.leave(other.id)
        #expect(governor.update(level: .fair, sustainableShare: budget, at: instant(3)) == nil)
    }
}

/// The session's pipeline on a host service of its own, on a manual clock: each update moves
/// the clock to its instant and feeds a reading there.
@dynamicMemberLookup
struct GovernedRun {
    let clock = ManualRunClock()
    let pipeline: GovernedPipeline

    init(
        policy: GovernorPolicy, table: QualityTable, session: SessionConfiguration,
        rungQuality: [InferenceSetting: Double] = [:], profile: DeviceProfile = .genericDesktop
    ) throws {
        pipeline = try GovernedPipeline(
            service: HostService(
                configuration: HostGovernorConfiguration(policy: policy, processorCount: 2),
                clock: clock, catalog: ProfileCatalog(calibratedDirectory: nil)),
            costModel: SystemPressureCost(
                estimator: HardwareCostEstimator(profile: profile), configuration: session),
            qualityTable: table, rungQuality: rungQuality)
    }

    subscript<Value>(dynamicMember field: KeyPath<GovernedPipeline, Value>) -> Value {
        pipeline[keyPath: field]
    }

    /// Feeds a reading at `level` with `sustainableShare`, and `lateShare`, at `instant`.
    @discardableResult
    func update(
        level: PressureLevel, sustainableShare: Share, lateShare: Share = .zero,
        at instant: MonotonicInstant
    ) -> GovernorChange? {
        clock.advance(to: instant)
        return pipeline.update(
            with: PressureReading(
                time: instant, level: level, factors: [],
                headroom: HeadroomEstimate(current: .nan, forecast: .nan, forecastSeconds: 10),
                sustainableShare: sustainableShare, simulated: true, thermal: .none, sensors: [],
                notes: []),
            lateShare: lateShare)
    }
}
