import Files

/// A session that cannot be committed because it costs more than the device can run.
public struct SessionOverBudgetError: Error, CustomStringConvertible, Sendable {
    /// The estimate that refused it, with the per-camera and per-budget breakdown.
    public var estimate: HardwareCostEstimate

    /// Creates the error from the refusing estimate.
    public init(estimate: HardwareCostEstimate) {
        self.estimate = estimate
    }

    /// `hardware cost 1.66 exceeds 1 on jetson-orin-nx (limited by pixelRate; back 0.83, front 0.83)`.
    public var description: String {
        let cameras = estimate.cameras.map { "\($0.id) \(String(format2: $0.cost.fraction))" }
            .joined(separator: ", ")
        return
            "hardware cost \(String(format2: estimate.hardwareCost.fraction)) exceeds 1 on \(estimate.profile)"
            + " (limited by \(estimate.limitingBudget.rawValue); \(cameras))"
    }
}
