import Locking
import Units

/// A backend that reads a board's power and GPU signals; tests use fixture trees.
public protocol BoardSource: Sendable {
    /// Reads every signal the board has at `time` seconds; empty on a board with none.
    func readBoard(at time: Double) -> BoardSignals
}

/// Board signals from sysfs under ``SystemRoots``: the Raspberry Pi firmware throttling word
/// and `rpi_volt` under-voltage alarm, supply voltages of the Pi 5's `rp1_adc`, INA3221 and
/// INA2xx/INA238 power rails from hwmon, and GPU load and clock from devfreq (Jetson).
///
/// Attributes are found at discovery (every ``rescanInterval`` seconds, and at the next sample
/// after a file vanished), kept open and re-read with `pread`; limits are read at discovery.
/// On a host with none of these, discovery finds nothing and a sample costs nothing. See
/// `Tests/Boards/README.md` for the attributes, their units and the sources they come from.
public final class BoardSignalSource: BoardSource {
    /// Where `/sys` is.
    public let roots: SystemRoots
    /// Seconds between discoveries.
    public let rescanInterval: Duration
    private struct State {
        var layout = BoardLayout()
        var lastDiscovery: Double?
        var lastReplacementCheck: Double?
    }
    private let state = LockedState(State())

    /// A source under `roots`, rediscovering every `rescanInterval`.
    public init(roots: SystemRoots = SystemRoots(), rescanInterval: Duration = .seconds(60)) {
        self.roots = roots
        self.rescanInterval = rescanInterval
    }

    /// Reads every signal, rediscovering when due.
    public func readBoard(at time: Double) -> BoardSignals {
        let roots = self.roots
        let interval = rescanInterval.seconds
        return state.withLock { state in
            let isDue = state.lastDiscovery.map { time - $0 >= interval || time < $0 } ?? true
            // Files removed and recreated under their descriptors (a driver reload) are
            // looked for once a second, as the other sources do.
            if state.lastReplacementCheck.map({ abs(time - $0) >= 1 }) ?? true {
                state.lastReplacementCheck = time
                state.layout.checkForReplacedFiles()
            }
            if isDue || state.layout.needsRediscovery {
                state.layout = BoardLayout.discover(under: roots, keepingVanished: state.layout)
                state.lastDiscovery = time
            }
            return state.layout.read()
        }
    }
}
