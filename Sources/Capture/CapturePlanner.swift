import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Finds the configuration closest to a requested session that fits the device's budget.
///
/// The search goes in the order a user would accept losses, stopping at the first stage that
/// fits:
/// 1. lower frame-rate overrides, in standard steps, never below ``minimumFrameRate``;
/// 2. binned or smaller formats from the camera's sensor (with the highest frame rate that fits);
/// 3. drop outputs marked optional, most expensive first, and search again.
///
/// Within a stage it descends greedily, each step taking the option with the largest cost
/// saved per quality lost (quality is log₂ of delivered pixels per second), then climbs back
/// wherever the budget allows. Ties go to the earlier camera: the result is deterministic.
public struct CapturePlanner: Sendable {
    /// Prices each candidate.
    public var estimator: HardwareCostEstimator
    /// The lowest frame rate the planner lowers a camera to, in frames per second (default 15);
    /// a camera requested below it is left as requested.
    public var minimumFrameRate: FrameRate

    /// The frame rates the planner steps through, highest first: the usual camera rates.
    public static let frameRateSteps = FrameRate.usualCameraRates

    /// A planner using `estimator`, never going below `minimumFrameRate` frames per second.
    public init(estimator: HardwareCostEstimator, minimumFrameRate: FrameRate = 15) {
        self.estimator = estimator
        self.minimumFrameRate = minimumFrameRate
    }

    /// The best configuration that fits, or the cheapest one found when none does.
    public func plan(for configuration: SessionConfiguration) -> CapturePlan {
        let original = estimator.cost(of: configuration)
        if original.fits {
            return makePlan(
                configuration, original: original, planned: configuration, strategy: .unchanged)
        }
        if let fitting = search(configuration, formats: false) {
            return makePlan(
                configuration, original: original, planned: fitting, strategy: .frameRate)
        }
        if let fitting = search(configuration, formats: true) {
            return makePlan(configuration, original: original, planned: fitting, strategy: .format)
        }
        var reduced = configuration
        while let dropped = mostExpensiveOptionalOutput(in: reduced) {
            reduced.outputs.remove(at: dropped)
            if estimator.hardwareCost(of: reduced) <= 1 {
                return makePlan(
                    configuration, original: original, planned: reduced, strategy: .droppedOutputs)
            }
            if let fitting = search(reduced, formats: false) ?? search(reduced, formats: true) {
                return makePlan(
                    configuration, original: original, planned: fitting, strategy: .droppedOutputs)
            }
        }
        let cheapest = descend(reduced, options: options(for: reduced, formats: true)).configuration
        return makePlan(configuration, original: original, planned: cheapest, strategy: .impossible)
    }

    // MARK: - Options

    /// One way to run a camera, with its quality (log₂ delivered pixels per second).
    private struct Option {
        var format: CameraFormat
        var frameRate: FrameRate
        var quality: Double
    }

    /// The frame rates a camera may run `format` at, highest first: what was requested
    /// (capped by the format), then the standard steps down to the floor.
    public func frameRates(for format: CameraFormat, requested: FrameRate) -> [FrameRate] {
        let top = min(requested, format.maxFrameRate)
        var rates = [top]
        let floor = minimumFrameRate
        for step in Self.frameRateSteps + [floor]
        where step < top && step >= floor && format.supports(frameRate: step) {
            if !rates.contains(step) { rates.append(step) }
        }
        return rates.sorted(by: >)
    }

    /// Each camera's options, best quality first, with dominated ones (no cheaper than a
    /// better option) removed, so every step down saves something.
    private func options(for configuration: SessionConfiguration, formats: Bool) -> [[Option]] {
        let counts = estimator.outputCounts(in: configuration)
        return zip(configuration.cameras, counts).map { camera, outputs in
            var formatsToTry = [camera.format]
            if formats {
                let floor = min(minimumFrameRate, camera.frameRate)
                formatsToTry += estimator.profile.candidateFormats(for: camera).filter {
                    $0 != camera.format && $0.pixelCount <= camera.format.pixelCount
                        && $0.maxFrameRate >= floor
                }
            }
            var candidates: [(option: Option, share: Share)] = []
            for format in formatsToTry {
                for rate in frameRates(for: format, requested: camera.frameRate) {
                    var trial = camera
                    trial.format = format
                    trial.frameRateOverride = rate
                    let option = Option(
                        format: format, frameRate: rate,
                        quality: log2(format.pixelsPerSecond(at: rate)))
                    candidates.append(
                        (option, estimator.dominantShare(of: trial, outputs: outputs)))
                }
            }
            candidates.sort {
                ($0.option.quality, -$0.share.fraction) > ($1.option.quality, -$1.share.fraction)
            }
            var frontier: [Option] = []
            var cheapest = Share(fraction: .infinity)
            for candidate in candidates where candidate.share < cheapest {
                frontier.append(candidate.option)
                cheapest = candidate.share
            }
            return frontier
        }
    }

    // MARK: - Search

    /// A fitting configuration using frame-rate options only, or formats too; `nil` if none fits.
    private func search(_ configuration: SessionConfiguration, formats: Bool)
        -> SessionConfiguration?
    {
        let options = options(for: configuration, formats: formats)
        var state = descend(configuration, options: options)
        guard estimator.hardwareCost(of: state.configuration) <= 1 else { return nil }
        climb(&state, options: options)
        return state.configuration
    }

    /// The configuration at one option index per camera.
    private struct State {
        var configuration: SessionConfiguration
        var choice: [Int]
    }

    /// Steps down, one camera at a time, taking the largest cost saved per quality lost, until
    /// the session fits or no camera can step further.
    private func descend(_ configuration: SessionConfiguration, options: [[Option]]) -> State {
        var state = State(
            configuration: configuration, choice: Array(repeating: 0, count: options.count))
        for index in options.indices {
            apply(options[index][0], to: &state.configuration, camera: index)
        }
        // Trials change formats and frame rates, never outputs: count them once.
        let counts = estimator.outputCounts(in: configuration)
        var cost = estimator.hardwareCost(of: state.configuration, outputCounts: counts)
        while cost > 1 {
            var best: (camera: Int, score: Double, cost: Share)?
            for index in options.indices where state.choice[index] + 1 < options[index].count {
                let current = options[index][state.choice[index]]
                let next = options[index][state.choice[index] + 1]
                apply(next, to: &state.configuration, camera: index)
                let nextCost = estimator.hardwareCost(of: state.configuration, outputCounts: counts)
                apply(current, to: &state.configuration, camera: index)
                let score = (cost - nextCost).fraction / max(current.quality - next.quality, 1e-9)
                if best == nil || score > best!.score { best = (index, score, nextCost) }
            }
            guard let step = best else { break }
            state.choice[step.camera] += 1
            apply(
                options[step.camera][state.choice[step.camera]], to: &state.configuration,
                camera: step.camera)
            cost = step.cost
        }
        return state
    }

    /// Gives back quality where the budget allows: each camera in turn takes the best option
    /// that still fits, until nothing changes.
    private func climb(_ state: inout State, options: [[Option]]) {
        let counts = estimator.outputCounts(in: state.configuration)
        var changed = true
        while changed {
            changed = false
            for index in options.indices where state.choice[index] > 0 {
                let current = options[index][state.choice[index]]
                for better in 0..<state.choice[index] {
                    apply(options[index][better], to: &state.configuration, camera: index)
                    if estimator.hardwareCost(of: state.configuration, outputCounts: counts) <= 1 {
                        state.choice[index] = better
                        changed = true
                        break
                    }
                    apply(current, to: &state.configuration, camera: index)
                }
            }
        }
    }

    private func apply(
        _ option: Option, to configuration: inout SessionConfiguration, camera index: Int
    ) {
        configuration.cameras[index].format = option.format
        configuration.cameras[index].frameRateOverride =
            option.frameRate == option.format.maxFrameRate ? nil : option.frameRate
    }

    /// The optional output whose removal saves the most, or `nil` when none is optional.
    private func mostExpensiveOptionalOutput(in configuration: SessionConfiguration) -> Int? {
        var best: (index: Int, cost: Share)?
        // Identical outputs cost the same to drop: each is priced once, which keeps a session
        // with a thousand outputs from costing a thousand estimates per drop.
        var priced = Set<CaptureOutput>()
        for index in configuration.outputs.indices where configuration.outputs[index].isOptional {
            guard priced.insert(configuration.outputs[index]).inserted else { continue }
            var trial = configuration
            trial.outputs.remove(at: index)
            let cost = estimator.hardwareCost(of: trial)
            if best == nil || cost < best!.cost { best = (index, cost) }
        }
        return best?.index
    }

    // MARK: - Result

    private func makePlan(
        _ requested: SessionConfiguration, original: HardwareCostEstimate,
        planned: SessionConfiguration,
        strategy: CapturePlan.Strategy
    ) -> CapturePlan {
        let estimate = estimator.cost(of: planned)
        var trades: [Trade] = []
        var requestedRate = 0.0
        var deliveredRate = 0.0
        for (before, after) in zip(requested.cameras, planned.cameras) {
            requestedRate += before.format.pixelsPerSecond(at: before.frameRate)
            deliveredRate += after.format.pixelsPerSecond(at: after.frameRate)
            if before.format != after.format {
                trades.append(
                    Trade(
                        kind: .format, camera: before.id, from: before.format.description,
                        to: after.format.description))
            }
            if before.frameRate != after.frameRate {
                trades.append(
                    Trade(
                        kind: .frameRate, camera: before.id,
                        from: "\(formattedFrameRate(before.frameRate)) fps",
                        to: "\(formattedFrameRate(after.frameRate)) fps"))
            }
        }
        var remaining = planned.outputs
        for output in requested.outputs {
            if let kept = remaining.firstIndex(of: output) {
                remaining.remove(at: kept)
            } else {
                trades.append(
                    Trade(
                        kind: .droppedOutput, camera: requested.cameraID(of: output) ?? "",
                        from: output.kind.rawValue, to: "dropped"))
            }
        }
        return CapturePlan(
            fits: estimate.fits, strategy: estimate.fits ? strategy : .impossible,
            original: original,
            planned: estimate, configuration: planned, trades: trades,
            retainedPixelRate: requestedRate > 0 ? deliveredRate / requestedRate : 1)
    }
}
