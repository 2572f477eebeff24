import Files

/// A capture session: configured between ``beginConfiguration()`` and
/// ``commitConfiguration()``, and only committed when the hardware can run it.
///
/// Not thread-safe; one owner configures it.
public final class CaptureSession {
    /// Prices configurations before they are committed.
    public let estimator: HardwareCostEstimator
    /// The configuration being edited, or the committed one.
    public var configuration: SessionConfiguration
    /// The estimate of the last committed configuration; `nil` before the first commit.
    public private(set) var committedEstimate: HardwareCostEstimate?
    /// Whether a configuration block is open.
    public private(set) var isConfiguring = false

    /// A session for `configuration`, priced by `estimator`; nothing is committed yet.
    public init(configuration: SessionConfiguration, estimator: HardwareCostEstimator) {
        self.configuration = configuration
        self.estimator = estimator
    }

    /// Opens a configuration block; changes to ``configuration`` take effect at commit.
    public func beginConfiguration() {
        isConfiguring = true
    }

    /// Validates and prices the configuration and commits it.
    ///
    /// - Throws: ``ConfigurationError`` for an invalid configuration, or
    ///   ``SessionOverBudgetError`` (carrying the breakdown) when its hardware cost is over 1;
    ///   either way the previously committed configuration stays in force.
    @discardableResult
    public func commitConfiguration() throws -> HardwareCostEstimate {
        defer { isConfiguring = false }
        try configuration.validate()
        let estimate = estimator.cost(of: configuration)
        guard estimate.fits else { throw SessionOverBudgetError(estimate: estimate) }
        committedEstimate = estimate
        return estimate
    }
}
