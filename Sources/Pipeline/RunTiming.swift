import LaunchTiming
import Units

/// The time a run is played on.
public enum RunTiming: String, Sendable, CaseIterable, Codable {
    /// Real time: frames, motors and pressure follow the monotonic clock.
    case real
    /// Virtual time (``VirtualRunClock``): the run goes as fast as the machine allows, and a
    /// run of the scene with the same seed and pressure, or of a video file (played frame by
    /// frame at its own rate, ``VideoPacing/frameByFrame``), gives the same report on any
    /// machine.
    /// Pressure then comes from a trace or the scenario's thermal model, never from this host.
    case virtual

    /// A new clock of this kind.
    func makeClock() -> any RunClock {
        switch self {
        case .real: ContinuousRunClock()
        case .virtual: VirtualRunClock()
        }
    }
}
