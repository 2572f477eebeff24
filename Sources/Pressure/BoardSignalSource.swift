import Locking
import Units

/// A backend that reads a board's power and GPU signals; tests use fixture trees.
public protocol BoardSource: Sendable {
    /// Reads every signal the board has at `time`, on the sampler's clock; empty on a board
    /// with none.
    func readBoard(at time: MonotonicInstant) -> BoardSignals
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
        var schedule: DiscoverySchedule
    }
    private let state: LockedState<State>

    /// A source under `roots`, rediscovering every `rescanInterval`.
    public init(roots: SystemRoots = SystemRoots(), rescanInterval: Duration = .seconds(60)) {
        self.roots = roots
        self.rescanInterval = rescanInterval
        self.state = LockedState(State(schedule: DiscoverySchedule(rescanInterval: rescanInterval)))
    }

    /// Reads every signal, rediscovering when due.
    public func readBoard(at time: MonotonicInstant) -> BoardSignals {
        let roots = self.roots
        return state.withLock { state in
            let isDue = state.schedule.isDiscoveryDue(at: time)
            // Files removed and recreated under their descriptors (a driver reload) are
            // looked for now and then, as the other sources do.
            if state.schedule.takeCheck(at: time) {
                state.layout.checkForReplacedFiles()
            }
            if isDue || state.layout.needsRediscovery {
                state.layout = BoardLayout.discover(under: roots, keepingVanished: state.layout)
                state.schedule.discovered(at: time)
            }
            return state.layout.read()
        }
    }
}

extension BoardSignalSource: QuietWatchable {
    /// Every open signal file, until the next check for replaced files.
    func quietWatch(after time: MonotonicInstant) -> QuietWatch? {
        state.withLock { state in
            guard !state.layout.needsRediscovery, let until = state.schedule.nextDue else {
                return nil
            }
            return QuietWatch(files: state.layout.openFiles, until: until)
        }
    }
}
