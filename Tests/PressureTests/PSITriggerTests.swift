import Foundation
import Testing

@testable import Pressure

@Suite struct PSITriggerTests {
    static let canArm =
        getuid() == 0 && FileManager.default.fileExists(atPath: "/proc/pressure/cpu")

    @Test func withoutPSITriggersAreUnavailableWithTheReason() throws {
        let tree = try FixtureTree()
        let result = PSITrigger.arm(
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
        let triggers = try PSITrigger.arm(for: PressureConfiguration()).get()
        #expect(triggers.map(\.resource) == [.cpu, .memory, .io])
        // Whether a trigger fires depends on the machine; waiting must return either way.
        switch WaitSet(triggers: triggers).wait(timeout: 0) {
        case nil: break
        case .triggered(let fired): #expect(Set(fired).isSubset(of: [.cpu, .memory, .io]))
        case let other: Issue.record("unexpected \(String(describing: other))")
        }
    }

    @Test(.enabled(if: canArm, "needs root and a kernel with PSI (/proc/pressure)"))
    func aWindowTheKernelRejectsIsUnavailable() {
        #expect(throws: SourceUnavailable.self) {
            try PSITrigger(
                resource: .cpu, stallMicroseconds: 2_000_000, windowMicroseconds: 1_000_000)
        }
    }
}
