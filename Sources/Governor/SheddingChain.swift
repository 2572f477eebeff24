import Pressure
import Units

/// One client's settings from nominal to minimum, in the order the governor sheds them: each
/// position is one step lighter than the one before, either down the inference ladder or down
/// to the next lower frame rate — whichever gives up less (the cheapest shedding first), or the
/// knob the client asked to turn first (``ClientRegistration/shedFirst``).
///
/// Position 0 is the nominal frame rate at the heaviest step; the last is the minimum frame
/// rate at the lightest step.
public struct SheddingChain: Hashable, Sendable {
    /// One position: a frame rate, a ladder step, and the demand relative to nominal (0…1].
    public struct Position: Hashable, Sendable {
        /// The frame rate.
        public var frameRate: FrameRate
        /// The index into the client's ladder.
        public var ladderStep: Int
        /// Demand relative to the nominal settings: `frameRate / nominal × cost / cost₀`.
        public var relativeDemand: Double
    }

    /// Every position, heaviest first.
    public let positions: [Position]

    /// The chain of `registration`: its frame rates are the nominal one, the usual camera rates
    /// between it and the minimum, and the minimum. For a client that follows the levels the
    /// chain passes through the policy's settings at each level (``LevelFloor``; its caps are
    /// among the rates), so that each level's settings are one position of it.
    public init(_ registration: ClientRegistration, policy: GovernorPolicy = GovernorPolicy()) {
        let nominal = registration.nominalFrameRate
        let minimum = registration.minFrameRate
        let caps =
            registration.followsLevels
            ? [PressureLevel.fair, .serious, .critical].compactMap { policy.frameRateCap[$0] } : []
        let rates = Set([nominal, minimum] + FrameRate.usualCameraRates + caps)
            .filter { $0 <= nominal && $0 >= minimum }.sorted(by: >)
        let costs = registration.ladder.map(\.cost)
        func demand(_ rate: Int, _ step: Int) -> Double {
            rates[rate] / nominal * costs[step] / costs[0]
        }
        // Where the chain must pass, in order: each level's floor (never lighter than the one
        // before), then the lightest settings.
        var waypoints: [(rate: Int, step: Int)] = []
        if registration.followsLevels {
            for level in [PressureLevel.fair, .serious, .critical] {
                let floor = LevelFloor(registration, at: level, policy: policy)
                let rate = floor.frameRateCap.flatMap { cap in rates.firstIndex { $0 <= cap } } ?? 0
                let previous = waypoints.last ?? (0, 0)
                waypoints.append((max(rate, previous.rate), max(floor.ladderStep, previous.step)))
            }
        }
        waypoints.append((rates.count - 1, costs.count - 1))
        var rate = 0
        var step = 0
        var positions = [Position(frameRate: nominal, ladderStep: 0, relativeDemand: 1)]
        for waypoint in waypoints {
            while rate < waypoint.rate || step < waypoint.step {
                let canStep = step < waypoint.step
                let canSlow = rate < waypoint.rate
                // With both knobs free, the order decides; the cheapest keeps more demand (on
                // a tie the ladder goes first).
                func stepsFirst() -> Bool {
                    switch registration.shedFirst {
                    case .cheapest: demand(rate, step + 1) >= demand(rate + 1, step)
                    case .ladder: true
                    case .frameRate: false
                    }
                }
                if canStep && (!canSlow || stepsFirst()) {
                    step += 1
                } else {
                    rate += 1
                }
                positions.append(
                    Position(
                        frameRate: rates[rate], ladderStep: step,
                        relativeDemand: demand(rate, step)))
            }
        }
        self.positions = positions
    }

    /// The lightest position's index.
    public var last: Int { positions.count - 1 }
}
