import Foundation
import Testing

@testable import Pressure

@Suite struct PSITriggerTests {
    static let canArm =
        getuid() == 0 && FileManager.default.fileExists(atPath: "/proc/pressure/cpu")

    @Test func withoutPSITriggersAreUnavailableWithTheReason() throws {
        let tree = try FixtureTree()
        let result = PSITriggerMonitor.arm(
            for: PressureConfiguration(), roots: SystemRoots(procfs: tree.root))
        guard case .failure(let reason) = result else {
            Issue.record("armed triggers without PSI files")
            return
        }
        #expect(reason.source == .psi)
        #expect(reason.description.contains("no such file"))
    }

    @Test(.enabled(if: canArm, "needs root and a kernel with PSI (/proc/pressure)"))
    func armsRealTriggersAndWaitsWithoutBlockingForever() throws {
        let monitor = try PSITriggerMonitor.arm(for: PressureConfiguration()).get()
        #expect(monitor.triggers.map(\.resource) == [.cpu, .memory, .io])
        // Whether a trigger fires depends on the machine; waiting must return either way.
        let fired = PSITrigger.wait(for: monitor.triggers, timeoutMilliseconds: 0)
        #expect(Set(fired).isSubset(of: [.cpu, .memory, .io]))
    }

    @Test(.enabled(if: canArm, "needs root and a kernel with PSI (/proc/pressure)"))
    func aWindowTheKernelRejectsIsUnavailable() {
        #expect(throws: SourceUnavailable.self) {
            try PSITrigger(
                resource: .cpu, stallMicroseconds: 2_000_000, windowMicroseconds: 1_000_000)
        }
    }
}
