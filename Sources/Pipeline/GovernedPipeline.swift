import Capture
import Governor
import HostService
import Locking
import Pressure
import Tracking
import Units

/// Headroom's own pipeline as one client of the host service (`HostService`, the one door into
/// its governor): the governor that shares the host between every pipeline on it decides for
/// this one too, in the same way — there is no second governor. `headroom run` registers its
/// pipeline (with `run --serve`, on the same service the v1 API serves) and `headroom replay`
/// replays a trace through one.
///
/// The pipeline registers its inference settings as its ladder (a quality table's best
/// settings with their measured quality, or else the policy's ladder with the quality measured
/// at its rungs on real footage where known; each step costing what `calibrate` measured it
/// to cost on this host, relative to the heaviest (the profile's ``DeviceProfile/rungCosts``),
/// or else its share of the pipeline's work at full rate, ``PipelineSettings/load(relativeTo:)``), its requested frame rate down to
/// the policy's minimum, the session's hardware cost as its share of the host, and that it
/// follows the levels (``ClientRegistration/followsLevels``). Its advice comes back as
/// ``PipelineSettings``; each change of them as a ``GovernorChange``.
///
/// It holds the pipeline's settings as decided: the progress samples and the thermal model
/// read them here (``RunSettings``); the knobs' owners, the capture session and the frame
/// loop, are given each change by the run's governance. Readings go to the service and lateness
/// to ``reportLateness(_:)``, as a remote client's do; ``follow(sustainableShare:)`` takes the
/// advice that comes out.
///
/// Thread-safe; quick and never blocking (it is fed on the pressure observer's thread).
public final class GovernedPipeline: Sendable {
    /// The host service whose governor decides for the pipeline.
    public let service: HostService
    /// The pipeline's id with it.
    public let id: ClientID
    /// What the pipeline registered.
    public let registration: ClientRegistration
    /// Prices the session at a frame rate against the sustainable share.
    public let costModel: SystemPressureCost
    /// The inference setting of each ladder step.
    public let ladder: [InferenceSetting]
    private let state: LockedState<PipelineSettings>

    /// The name the pipeline registers under.
    public static let defaultName = "headroom run"

    /// Registers the pipeline with `service`, at full settings: `requestedFrameRate` (the
    /// session's fastest camera's by default) and the heaviest inference. It is not leased: it
    /// stays registered until ``leave()``, and nobody else can let it go.
    ///
    /// - Throws: ``HostGovernorError/clientLimitReached(_:)`` when the host is full.
    public init(
        service: HostService, costModel: SystemPressureCost,
        qualityTable: QualityTable = QualityTable(rows: []),
        rungQuality: [InferenceSetting: Double] = [:], requestedFrameRate: FrameRate? = nil,
        name: String = defaultName, priority: Int = 50
    ) throws(HostGovernorError) {
        let policy = service.configuration.policy
        let requested =
            requestedFrameRate ?? costModel.configuration.cameras.map(\.frameRate).max() ?? 30
        let steps = Self.ladder(
            policy: policy, qualityTable: qualityTable, rungQuality: rungQuality, at: requested)
        let share = costModel.hardwareCost(atFrameRate: requested).fraction
        let measuredCosts = costModel.estimator.profile.measuredCosts(of: steps.map(\.setting))
        let registration = ClientRegistration(
            name: name, priority: priority, nominalFrameRate: requested,
            minFrameRate: min(policy.minimumFrameRate, requested),
            ladder: steps.enumerated().map { index, step in
                LadderStep(
                    name: step.setting.description,
                    cost: measuredCosts?[index]
                        ?? PipelineSettings(frameRate: requested, inference: step.setting)
                        .load(relativeTo: requested),
                    quality: step.quality)
            },
            share: Share(fraction: min(1, max(0.001, share))), followsLevels: true)
        self.service = service
        self.costModel = costModel
        self.registration = registration
        ladder = steps.map(\.setting)
        let (id, advice) = try service.register(registration, leased: false)
        self.id = id
        state = LockedState(
            PipelineSettings(frameRate: advice.frameRate, inference: ladder[advice.ladderStep]))
    }

    /// The settings in force.
    public var settings: PipelineSettings { state.withLock { $0 } }

    /// The settings a pipeline may step through, heaviest first, with their measured quality:
    /// the policy ladder's heaviest (where every run starts), then the quality table's cheaper
    /// settings at its frame rate nearest `frameRate` that no cheaper one matches in quality
    /// (MOTA); without a table, the policy's ladder, each rung with its quality in
    /// `rungQuality` (nil where unmeasured).
    static func ladder(
        policy: GovernorPolicy, qualityTable: QualityTable,
        rungQuality: [InferenceSetting: Double] = [:], at frameRate: FrameRate
    ) -> [(setting: InferenceSetting, quality: Double?)] {
        let heaviest = policy.inferenceLadder.first ?? InferenceSetting(stride: 1, scale: 1)
        let fps = frameRate.framesPerSecond
        guard
            let nearest = qualityTable.rows.min(by: {
                abs($0.frameRate.framesPerSecond - fps) < abs($1.frameRate.framesPerSecond - fps)
            })
        else {
            return ([heaviest] + policy.inferenceLadder.dropFirst()).map { ($0, rungQuality[$0]) }
        }
        let rows = qualityTable.rows.filter { $0.frameRate == nearest.frameRate }
        let cheapestFirst = rows.filter { $0.setting.relativeCost < heaviest.relativeCost }
            .sorted { ($0.setting.relativeCost, -$0.mota) < ($1.setting.relativeCost, -$1.mota) }
        var front: [(setting: InferenceSetting, quality: Double?)] = []
        var best = -Double.infinity
        for row in cheapestFirst where row.mota > best {
            best = row.mota
            front.append((row.setting, row.mota))
        }
        // The heaviest's quality as measured; unmeasured, as good as the best cheaper one.
        let top = rows.first { $0.setting == heaviest }?.mota ?? best
        return [(heaviest, top.isFinite ? top : nil)] + front.reversed()
    }

    /// Feeds one pressure reading, and the share of frames that missed their deadline since
    /// the last one, to the service; returns the change of settings they caused, if any.
    @discardableResult
    public func update(with reading: PressureReading, lateShare: Share = .zero) -> GovernorChange? {
        reportLateness(lateShare)
        service.consume(reading)
        return follow(sustainableShare: reading.sustainableShare)
    }

    /// Tells the service the pipeline's lateness (before the reading that goes with it).
    public func reportLateness(_ lateShare: Share) {
        service.reportLateness(lateShare, for: id)
    }

    /// Takes the pipeline's advice after the service was fed a reading with
    /// `sustainableShare`; returns the change of settings, if the advice asks for new ones.
    public func follow(sustainableShare: Share) -> GovernorChange? {
        let instant = service.clock.now
        guard let advice = service.advice(for: id) else { return nil }
        let isCapturing = advice.frameRate > 0
        let target = PipelineSettings(
            frameRate: isCapturing ? advice.frameRate : registration.minFrameRate,
            inference: ladder[advice.ladderStep], isCapturing: isCapturing)
        let change = state.withLock { settings -> GovernorChange? in
            let current = settings
            guard target != current else { return nil }
            settings = target
            return GovernorChange(
                instant: instant,
                decision: GovernorDecision(
                    from: current, to: target, level: advice.level,
                    systemPressureCost: costModel.cost(
                        atFrameRate: target.frameRate, sustainableShare: sustainableShare),
                    reason: advice.reason))
        }
        // A stopped pipeline misses no deadline: its lateness no longer holds the level up.
        if let change, change.from.isCapturing, !change.to.isCapturing {
            reportLateness(.zero)
        }
        return change
    }

    /// Records that capture is stopped although the advice is to capture (a restart failed):
    /// the next advice to capture is a change again, and the restart is tried again.
    public func markCaptureStopped() {
        state.withLock { $0.isCapturing = false }
    }

    /// Leaves the service's governor (the others take the budget back).
    public func leave() {
        service.leave(id)
    }
}
