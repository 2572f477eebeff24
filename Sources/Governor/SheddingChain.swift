import Capture
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
    /// between it and the minimum, and the minimum.
    public init(_ registration: ClientRegistration) {
        let nominal = registration.nominalFrameRate
        let minimum = registration.minFrameRate
        var rates = [nominal]
        for rate in CapturePlanner.frameRateSteps + [minimum]
        where rate < nominal && rate >= minimum && !rates.contains(rate) {
            rates.append(rate)
        }
        let costs = registration.ladder.map(\.cost)
        func demand(_ rate: Int, _ step: Int) -> Double {
            rates[rate] / nominal * costs[step] / costs[0]
        }
        var rate = 0
        var step = 0
        var positions = [Position(frameRate: nominal, ladderStep: 0, relativeDemand: 1)]
        while rate < rates.count - 1 || step < costs.count - 1 {
            let canStep = step < costs.count - 1
            let canSlow = rate < rates.count - 1
            // With both knobs free, the order decides; the cheapest keeps more demand (on a
            // tie the ladder goes first).
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
                    frameRate: rates[rate], ladderStep: step, relativeDemand: demand(rate, step)))
        }
        self.positions = positions
    }

    /// The lightest position's index.
    public var last: Int { positions.count - 1 }
}
