#if canImport(Glibc)
    import Glibc
#endif

/// A first-order RC thermal model: the temperature approaches `ambient + riseAtFullLoad × load`
/// exponentially with time constant ``timeConstant``.
///
/// For hosts without sensors and for tests; everything it produces is labelled simulated.
public struct ThermalModel: Hashable, Sendable {
    /// The temperature at zero load, °C.
    public var ambient: Double
    /// The steady-state rise above ambient at full load (load 1), °C.
    public var riseAtFullLoad: Double
    /// Seconds to cover 63 % of a step (R × C).
    public var timeConstant: Double
    /// The model's current temperature, °C.
    public private(set) var temperature: Double

    /// A model starting at `ambient`.
    public init(ambient: Double = 30, riseAtFullLoad: Double = 60, timeConstant: Double = 60) {
        self.ambient = ambient
        self.riseAtFullLoad = riseAtFullLoad
        self.timeConstant = max(timeConstant, 1e-6)
        self.temperature = ambient
    }

    /// Advances the model by `seconds` at a constant `load` (0…1, clamped); exact for a
    /// constant load, so the step size does not change the result.
    public mutating func advance(by seconds: Double, load: Double) {
        guard seconds > 0 else { return }
        let target = ambient + riseAtFullLoad * min(1, max(0, load))
        temperature = target + (temperature - target) * exp(-seconds / timeConstant)
    }
}
