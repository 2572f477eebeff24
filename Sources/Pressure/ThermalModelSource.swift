import Locking
import Units

/// A simulated temperature sensor driven by a ``ThermalModel`` and a ``LoadSource``.
///
/// Its reading has source `model` and a label saying it is simulated, so no output can
/// mistake it for a measurement.
public final class ThermalModelSource: TemperatureSource {
    /// The simulated sensor's identifier.
    public static let sensorID: SensorID = "model/cpu"
    private let loadSource: any LoadSource
    private let ambient: (@Sendable (Double) -> Double)?
    private let high: Celsius
    private let critical: Celsius
    private let state: LockedState<(model: ThermalModel, lastTime: MonotonicInstant?)>

    /// A source simulating `model` under `load`, with limits `high` and `critical`; `ambient`,
    /// when given, sets the room temperature (°C) at each reading's time, for scenarios where
    /// the room heats up.
    public init(
        model: ThermalModel = ThermalModel(), load: any LoadSource = ProcessCPULoad(),
        high: Celsius = Celsius(80), critical: Celsius = Celsius(100),
        ambient: (@Sendable (Double) -> Double)? = nil
    ) {
        self.loadSource = load
        self.ambient = ambient
        self.high = high
        self.critical = critical
        self.state = LockedState((model, nil))
    }

    /// Advances the model to `time` and reads it.
    public func readTemperatures(at time: MonotonicInstant) -> [SensorReading] {
        let load = loadSource.load(at: time)
        let celsius = state.withLock { state in
            if let ambient { state.model.ambient = ambient(time.secondsSinceOrigin) }
            if let last = state.lastTime {
                state.model.advance(by: time.seconds(since: last), load: load)
            }
            state.lastTime = time
            return state.model.temperature
        }
        return [
            SensorReading(
                id: Self.sensorID, source: .model, label: "simulated CPU (thermal model)",
                celsius: Celsius(celsius), high: high, critical: critical)
        ]
    }
}
