import Pressure
import Units

/// The lightest a client that follows the levels (``ClientRegistration/followsLevels``) must
/// run at a pressure level, however much budget is left: the policy's frame-rate cap and the
/// level's inference step.
public struct LevelFloor: Hashable, Sendable {
    /// The highest frame rate allowed (never below the client's minimum); nil: as registered.
    public var frameRateCap: FrameRate?
    /// The lightest ladder step the level asks for (0 = the heaviest).
    public var ladderStep: Int

    /// The floor of `registration` at `level` under `policy`: no floor for a client that does
    /// not follow the levels; otherwise the level's cap, and, when every step has a quality,
    /// the cheapest step whose quality is within the level's allowed loss of the best — at
    /// `serious`, where every lighter step loses more than that, the one that loses least for
    /// the work it saves (``leastLossPerSaving(_:)``): the level asks for a cut. Without
    /// qualities: the heaviest step up to `fair`, the middle one at `serious`, the lightest at
    /// `critical`.
    public init(_ registration: ClientRegistration, at level: PressureLevel, policy: GovernorPolicy)
    {
        let ladder = registration.ladder
        guard registration.followsLevels, level > .nominal else {
            self.init(frameRateCap: nil, ladderStep: 0)
            return
        }
        let cap = policy.frameRateCap[level].map { max($0, registration.minFrameRate) }
        let qualities = ladder.compactMap(\.quality)
        if qualities.count == ladder.count, let best = qualities.max() {
            let allowed = best - policy.allowedQualityLoss[level]
            var step = qualities.lastIndex { $0 >= allowed } ?? 0
            if level == .serious && step == 0 { step = Self.leastLossPerSaving(ladder) }
            self.init(frameRateCap: cap, ladderStep: step)
            return
        }
        let step =
            switch level {
            case .nominal, .fair: 0
            case .serious: ladder.count / 2
            case .critical, .shutdown: ladder.count - 1
            }
        self.init(frameRateCap: cap, ladderStep: step)
    }

    /// The lighter step of `ladder` (every step with a quality) that gives up the least
    /// quality for each unit of work it saves against the heaviest step — the cut that keeps
    /// most for what it saves; 0 when no step is lighter.
    static func leastLossPerSaving(_ ladder: [LadderStep]) -> Int {
        guard let heaviest = ladder.first, let top = heaviest.quality else { return 0 }
        let lighter = ladder.indices.dropFirst().filter { ladder[$0].cost < heaviest.cost }
        return lighter.min { first, second in
            func lossPerSaving(_ index: Int) -> Double {
                (top - (ladder[index].quality ?? 0)) / (heaviest.cost - ladder[index].cost)
            }
            return lossPerSaving(first) < lossPerSaving(second)
        } ?? 0
    }

    /// A floor with both parts given.
    public init(frameRateCap: FrameRate?, ladderStep: Int) {
        self.frameRateCap = frameRateCap
        self.ladderStep = ladderStep
    }
}

extension SheddingChain {
    /// The heaviest position within `floor`: at most its frame rate, at least its step.
    public func firstPosition(within floor: LevelFloor) -> Int {
        positions.firstIndex { position in
            position.ladderStep >= floor.ladderStep
                && floor.frameRateCap.map { position.frameRate <= $0 } ?? true
        } ?? last
    }
}
