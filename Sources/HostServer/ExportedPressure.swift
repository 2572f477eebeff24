import Locking
import Pressure
import Telemetry

/// An observer's readings as the metrics exporter serves them, made into a status only when
/// it is read.
///
/// Each reading is only kept (``offer(_:)``: one lock, one store). The first read after it —
/// a scrape of `/metrics`, a `/status` request, a textfile write, through ``current()`` —
/// makes the newest reading's status, publishes it into the metrics and counts the readings
/// taken since the last read. Without a textfile (written after every sample), a 10 Hz
/// observer scraped every 15 s makes one status instead of 150, and a sample pays for none.
public final class ExportedPressure: Sendable {
    private let metrics: HeadroomMetrics
    private struct State {
        var newest: PressureReading?
        /// The status of `newest`, once made.
        var status: PressureStatus?
        /// Readings offered, and how many of them the metrics have counted.
        var offered = 0
        var counted = 0
    }
    private let state = LockedState(State())

    /// Exports into `metrics`; nothing is current before the first reading.
    public init(metrics: HeadroomMetrics) {
        self.metrics = metrics
    }

    /// Keeps `reading` as the newest; its status is made when it is first read.
    public func offer(_ reading: PressureReading) {
        state.withLock { state in
            state.newest = reading
            state.status = nil
            state.offered += 1
        }
    }

    /// The newest reading's status, made and published into ``metrics`` at the first call after
    /// the reading was offered; nil before the first reading.
    public func current() -> PressureStatus? {
        state.withLock { state in
            guard let newest = state.newest else { return nil }
            if state.offered > state.counted {
                metrics.countPressureReadings(state.offered - state.counted)
                state.counted = state.offered
            }
            if let status = state.status { return status }
            let status = PressureStatus(newest)
            metrics.publish(status)
            state.status = status
            return status
        }
    }
}
