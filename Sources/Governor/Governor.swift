import Capture
import Locking
import Pressure
import Tracking
import Units

/// One change of pipeline settings, with why it happened.
public struct GovernorChange: Hashable, Sendable {
    /// When it happened, on the clock the governor is fed by (a run's clock); reports give it
    /// as the time since their start.
    public var instant: MonotonicInstant
    /// The settings before.
    public var from: PipelineSettings
    /// The settings after.
    public var to: PipelineSettings
    /// The pressure level that drove it.
    public var level: PressureLevel
    /// The system pressure cost at the time (hardware cost over the sustainable share).
    public var systemPressureCost: Double
    /// Why, in words: `serious: cap 20 fps, inference within 0.05 IDF1`.
    public var reason: String
}

/// Adapts frame rate and inference load to system pressure, with hysteresis: it steps down at
/// most once per ``GovernorPolicy/stepDownDwell`` (at once for `critical` and `shutdown`), and
/// restores only after pressure has eased for ``GovernorPolicy/restoreDwell``. Every change is
/// published on ``changes()``.
///
/// Thread-safe; ``update(with:lateShare:at:)`` is normally called from one pressure loop, with
/// the instant of its clock the reading was taken at.
public final class Governor: Sendable {
    /// The policy in force.
    public let policy: GovernorPolicy
    /// The frame rate the session asked for.
    public let requestedFrameRate: FrameRate
    /// Measured tracking quality per setting; empty falls back to the policy's inference ladder.
    public let qualityTable: QualityTable
    /// Prices the configuration at a frame rate against the sustainable share.
    public let costModel: SystemPressureCost

    private struct State {
        var settings: PipelineSettings
        var lastChange: MonotonicInstant?
        var easedSince: MonotonicInstant?
    }

    private let state: LockedState<State>
    private let broadcast = Broadcast<GovernorChange>()

    /// A governor starting at full settings: the requested frame rate and the heaviest
    /// inference. `requestedFrameRate` is the frame rate the pipeline asks for (a run's tracked
    /// camera's, computed once by the run); by default the session's fastest camera's.
    public init(
        policy: GovernorPolicy = GovernorPolicy(), costModel: SystemPressureCost,
        qualityTable: QualityTable = QualityTable(rows: []), requestedFrameRate: FrameRate? = nil
    ) {
        self.policy = policy
        self.costModel = costModel
        self.qualityTable = qualityTable
        let requested =
            requestedFrameRate ?? costModel.configuration.cameras.map(\.frameRate).max() ?? 30
        self.requestedFrameRate = requested
        let heaviest = policy.inferenceLadder.first ?? InferenceSetting(stride: 1, scale: 1)
        state = LockedState(
            State(settings: PipelineSettings(frameRate: requested, inference: heaviest)))
    }

    /// The settings in force.
    public var settings: PipelineSettings { state.withLock { $0.settings } }

    /// A stream of every change from now on (the newest 64 kept for a slow reader); it ends
    /// when the governor is deallocated.
    public func changes() -> AsyncStream<GovernorChange> {
        broadcast.subscribe(bufferingPolicy: .bufferingNewest(64))
    }

    deinit {
        broadcast.finish()
    }

    /// The level the governor acts at: the pressure level, raised by the pipeline's lateness
    /// (``GovernorPolicy/actingLevel(pressure:lateShare:)``); with why.
    public func actingLevel(pressure level: PressureLevel, lateShare: Share) -> (
        level: PressureLevel, lateness: String?
    ) {
        policy.actingLevel(pressure: level, lateShare: lateShare)
    }

    /// What the policy asks for at `level` with `sustainableShare` of the budget, and why.
    public func target(level: PressureLevel, sustainableShare: Share) -> (
        settings: PipelineSettings, reason: String
    ) {
        let lightest =
            qualityTable.lightestSetting ?? policy.inferenceLadder.last
            ?? InferenceSetting(stride: 1, scale: 1)
        guard level < .shutdown else {
            return (
                PipelineSettings(
                    frameRate: policy.minimumFrameRate, inference: lightest, isCapturing: false),
                "shutdown: capture stopped until pressure eases"
            )
        }
        let floor = min(policy.minimumFrameRate, requestedFrameRate)
        var frameRate = max(
            floor, min(requestedFrameRate, policy.frameRateCap[level] ?? requestedFrameRate))
        var reason = "\(level)"
        if frameRate < requestedFrameRate {
            reason += ": cap \(frameRate.framesPerSecond.trimmed()) fps"
        }
        var effectiveLevel = level
        var cost = costModel.cost(atFrameRate: frameRate, sustainableShare: sustainableShare)
        if cost > 1 {
            let before = cost
            for step in CapturePlanner.frameRateSteps where step < frameRate && step >= floor {
                frameRate = step
                cost = costModel.cost(atFrameRate: frameRate, sustainableShare: sustainableShare)
                if cost <= 1 { break }
            }
            effectiveLevel =
                PressureLevel(rawValue: min(level.rawValue + 1, PressureLevel.critical.rawValue))
                ?? level
            reason +=
                "; system pressure cost \(before.trimmed(2)) > 1:"
                + " \(frameRate.framesPerSecond.trimmed()) fps"
        }
        let inference = inferenceSetting(at: frameRate, level: effectiveLevel)
        if inference != policy.inferenceLadder.first {
            reason += ", inference \(inference)"
        }
        return (PipelineSettings(frameRate: frameRate, inference: inference), reason)
    }

    /// The inference setting for `level`: the ladder's heaviest at `nominal` (nothing to save);
    /// above it, the cheapest setting the level's allowed quality loss permits in the quality
    /// table. Without a quality table: the heaviest at `fair`, the ladder's middle at `serious`,
    /// its lightest at `critical`.
    private func inferenceSetting(at frameRate: FrameRate, level: PressureLevel) -> InferenceSetting
    {
        let ladder = policy.inferenceLadder
        guard level > .nominal else { return ladder[0] }
        let loss = policy.allowedQualityLoss[level]
        if let setting = qualityTable.cheapestSetting(at: frameRate, allowedLoss: loss) {
            return setting
        }
        switch level {
        case .nominal, .fair: return ladder[0]
        case .serious: return ladder[ladder.count / 2]
        case .critical, .shutdown: return ladder[ladder.count - 1]
        }
    }

    /// Feeds one pressure reading taken at `instant` and the share of frames that missed their
    /// deadline since the last one; returns the change they caused, if any (also published).
    @discardableResult
    public func update(
        with reading: PressureReading, lateShare: Share = .zero, at instant: MonotonicInstant
    ) -> GovernorChange? {
        update(
            level: reading.level, sustainableShare: reading.sustainableShare, lateShare: lateShare,
            at: instant)
    }

    /// Feeds a level, sustainable share and late share observed at `instant`.
    @discardableResult
    public func update(
        level pressure: PressureLevel, sustainableShare: Share, lateShare: Share = .zero,
        at instant: MonotonicInstant
    ) -> GovernorChange? {
        let (level, lateness) = actingLevel(pressure: pressure, lateShare: lateShare)
        var (target, reason) = target(level: level, sustainableShare: sustainableShare)
        if let lateness { reason = "\(lateness); \(reason)" }
        let cost = costModel.cost(atFrameRate: target.frameRate, sustainableShare: sustainableShare)
        let change: GovernorChange? = state.withLock { state in
            let current = state.settings
            guard target != current else {
                state.easedSince = nil
                return nil
            }
            let lighter =
                target.load(relativeTo: requestedFrameRate)
                < current.load(relativeTo: requestedFrameRate)
            if lighter {
                state.easedSince = nil
                // Only real pressure is urgent; lateness waits out the dwell like any step.
                let urgent = pressure >= .critical
                guard urgent || instant.isAtLeast(policy.stepDownDwell, after: state.lastChange)
                else { return nil }
            } else {
                let since = state.easedSince ?? instant
                state.easedSince = since
                guard instant.duration(since: since) >= policy.restoreDwell,
                    instant.isAtLeast(policy.restoreDwell, after: state.lastChange)
                else { return nil }
                state.easedSince = nil
            }
            state.settings = target
            state.lastChange = instant
            let change = GovernorChange(
                instant: instant, from: current, to: target, level: pressure,
                systemPressureCost: cost,
                reason: lighter ? reason : "eased to \(reason)")
            broadcast.yield(change)
            return change
        }
        return change
    }
}
