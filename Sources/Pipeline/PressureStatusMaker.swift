import Locking
import Pressure
import Telemetry

/// Makes the exported status of each reading of one observer in turn. A reading that says what
/// the last one said (the classifier gives an unchanged sample's reading again, at 10 Hz most
/// of them) gets the last status again with a document of its own, instead of one built anew.
public final class PressureStatusMaker: Sendable {
    private let last = LockedState<(reading: PressureReading, status: PressureStatus)?>(nil)

    /// A maker that has seen no reading yet.
    public init() {}

    /// The exported status of `reading`, as ``PressureStatus/init(_:)`` makes it.
    public func status(for reading: PressureReading) -> PressureStatus {
        last.withLock { last in
            var status: PressureStatus
            if let last, last.reading.hasSameValues(as: reading) {
                status = last.status
                status.document = PressureStatus.document(reading)
            } else {
                status = PressureStatus(reading)
            }
            last = (reading, status)
            return status
        }
    }
}
