import Units

/// A running configuration's cost against what the machine can sustain right now, like
/// `AVCaptureMultiCamSession.systemPressureCost`: its hardware cost (``HardwareCostEstimator``) over
/// the budget share `Pressure` says is sustainable at the current headroom. Over 1: not
/// sustainable; the governor steps down before the pressure level forces it.
public struct SystemPressureCost: Sendable {
    /// Prices the configuration.
    public var estimator: HardwareCostEstimator
    /// The session as committed (frame rates as requested).
    public var configuration: SessionConfiguration

    /// A cost model for `configuration` on `estimator`'s profile.
    public init(estimator: HardwareCostEstimator, configuration: SessionConfiguration) {
        self.estimator = estimator
        self.configuration = configuration
    }

    /// The hardware cost with every camera capped at `frameRate` (within its format's range).
    public func hardwareCost(atFrameRate frameRate: FrameRate) -> Share {
        estimator.hardwareCost(of: configuration(atFrameRate: frameRate))
    }

    /// The hardware cost at `frameRate` over `sustainableShare`: over 1 is more than the
    /// machine sustains now; infinite when nothing is sustainable.
    public func cost(atFrameRate frameRate: FrameRate, sustainableShare: Share) -> Double {
        let cost = hardwareCost(atFrameRate: frameRate)
        return sustainableShare > .zero ? cost / sustainableShare : .infinity
    }

    /// The configuration with every camera's frame-rate override capped at `frameRate`.
    public func configuration(atFrameRate frameRate: FrameRate) -> SessionConfiguration {
        var capped = configuration
        for index in capped.cameras.indices {
            let camera = capped.cameras[index]
            let rate = min(max(frameRate, camera.format.minFrameRate), camera.frameRate)
            capped.cameras[index].frameRateOverride =
                rate == camera.format.maxFrameRate ? nil : rate
        }
        return capped
    }
}
