import Foundation
import Synchronization

/// Waits on PSI triggers on a dedicated thread (poll blocks) and turns their firings into an
/// `AsyncSequence`, so an observer can sample at once instead of at its next interval.
public final class PSITriggerMonitor: Sendable {
    /// The armed triggers.
    public let triggers: [PSITrigger]
    private let isStopped = Atomic<Bool>(false)

    /// A monitor over `triggers`.
    public init(triggers: [PSITrigger]) {
        self.triggers = triggers
    }

    /// Arms one trigger per resource at the classifier's `fair` thresholds of `configuration`
    /// (percent of a 2 s window: unprivileged processes may only use multiples of 2 s), or
    /// returns the reason triggers are unavailable (said once by
    /// the caller, which then relies on sampling alone).
    public static func arm(
        for configuration: PressureConfiguration, roots: SystemRoots = SystemRoots()
    ) -> Result<PSITriggerMonitor, SourceUnavailable> {
        let window = 2_000_000
        let thresholds: [(PSIReading.Resource, Double)] = [
            (.cpu, configuration.cpuPressure.fair), (.memory, configuration.memoryPressure.fair),
            (.io, configuration.ioPressure.fair),
        ]
        var triggers: [PSITrigger] = []
        for (resource, percent) in thresholds {
            let stall = max(1, min(window, Int(percent / 100 * Double(window))))
            do throws(SourceUnavailable) {
                triggers.append(
                    try PSITrigger(
                        resource: resource, stallMicroseconds: stall, windowMicroseconds: window,
                        roots: roots))
            } catch {
                return .failure(error)
            }
        }
        return .success(PSITriggerMonitor(triggers: triggers))
    }

    /// The resources whose trigger fired, as they fire; waiting runs on its own thread until
    /// the stream's consumer goes away or ``stop()`` is called.
    public func events() -> AsyncStream<PSIReading.Resource> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PSIReading.Resource.self, bufferingPolicy: .bufferingNewest(8))
        let triggers = self.triggers
        continuation.onTermination = { [weak self] _ in self?.stop() }
        let thread = Thread { [weak self] in
            while let self, !self.isStopped.load(ordering: .acquiring) {
                // A short timeout so stop() is noticed.
                for resource in PSITrigger.wait(for: triggers, timeoutMilliseconds: 100) {
                    continuation.yield(resource)
                }
            }
            continuation.finish()
        }
        thread.name = "headroom-psi-triggers"
        thread.start()
        return stream
    }

    /// Ends the waiting thread (within about 100 ms).
    public func stop() {
        isStopped.store(true, ordering: .releasing)
    }
}
