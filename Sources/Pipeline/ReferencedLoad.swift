import Locking
import Pressure

/// This process's measured CPU use, relative to what the pipeline uses at full settings: the
/// load that drives the thermal model in `headroom run`, so a scenario heats a fast and a slow
/// machine alike, and lighter settings really cool it.
///
/// For the first ``warmUpSeconds`` (full settings, before any adaptation) it reports 1 and
/// measures the reference; afterwards `min(1, measured / reference)`. A run compared with
/// another passes the first run's reference on, so both heat by the same rule.
public final class ReferencedLoad: LoadSource {
    /// Seconds spent measuring the reference.
    public let warmUpSeconds: Double
    private let measured = ProcessCPULoad()
    private let state: LockedState<(reference: Double?, samples: [Double], start: Double?)>

    /// A load measuring its reference over `warmUpSeconds`, unless `reference` (a share of all
    /// CPUs, 0…1) is given.
    public init(warmUpSeconds: Double = 3, reference: Double? = nil) {
        self.warmUpSeconds = warmUpSeconds
        state = LockedState((reference.map { max($0, 0.01) }, [], nil))
    }

    /// The reference share of all CPUs at full settings, once known.
    public var reference: Double? { state.withLock { $0.reference } }

    /// The load since the previous call, 0…1.
    public func load(at time: Double) -> Double {
        let raw = measured.load(at: time)
        return state.withLock { state in
            if let reference = state.reference { return min(1, raw / reference) }
            let start = state.start ?? time
            state.start = start
            if time - start > 0 { state.samples.append(raw) }
            if time - start >= warmUpSeconds, !state.samples.isEmpty {
                state.reference = max(
                    0.01, state.samples.reduce(0, +) / Double(state.samples.count))
            }
            return 1
        }
    }
}
