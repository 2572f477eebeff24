import Capture
import LaunchTiming
import TestSupport
import Testing
import Units

@testable import Pipeline

/// Capture as a service of the run: in the service's task, stopped and restarted by its caller,
/// and a failure that ends it with its reason.
@Suite(.serialized)
struct CaptureServiceTests {
    /// A committed 64×48 session at 100 fps on `clock`, its movie output (if any) stored in
    /// `storage`.
    static func session(
        movie: Bool = false, deferred: Bool = false, storage: String = "/tmp",
        clock: any RunClock = ContinuousRunClock()
    ) throws -> CaptureSession {
        let format = CameraFormat(width: 64, height: 48, maxFrameRate: 100)
        var outputs = [CaptureOutput(kind: .preview)]
        if movie { outputs.append(CaptureOutput(kind: .movie, isDeferredStartEnabled: deferred)) }
        let session = CaptureSession(
            configuration: SessionConfiguration(
                cameras: [CameraConfiguration(id: "cam", format: format)], outputs: outputs),
            estimator: HardwareCostEstimator(
                profile: try ProfileCatalog(calibratedDirectory: nil).profile("generic-x86_64")),
            storageDirectory: storage, clock: clock)
        session.beginConfiguration()
        try session.commitConfiguration()
        return session
    }

    @Test("stop returns once the session has stopped; start runs it again in the same service")
    func stopsAndRestarts() async throws {
        let session = try Self.session()
        let capture = CaptureService(session: session)
        try capture.start()
        let service = Task { try await capture.run() }
        #expect(await waitUntil { session.previewFrameCount > 3 })
        await capture.stop()
        #expect(!session.isRunning)
        // A second stop waits for nothing.
        await capture.stop()
        try capture.start()
        #expect(await waitUntil { session.isRunning && session.previewFrameCount > 3 })
        service.cancel()
        try await service.value
        #expect(!session.isRunning)
    }

    @Test("a session that fails ends the service with its reason")
    func failureEndsTheService() async throws {
        let session = try Self.session(movie: true, storage: "/nonexistent/headroom")
        let capture = CaptureService(session: session)
        try capture.start()
        await #expect {
            try await capture.run()
        } throws: { error in
            "\(error)".contains("movie output: cannot create a file in /nonexistent/headroom")
        }
        #expect(!session.isRunning)
    }

    @Test("on a virtual clock a failure ends time at its instant")
    func failureHaltsVirtualTime() async throws {
        let clock = VirtualRunClock()
        let start = clock.now
        let session = try Self.session(movie: true, storage: "/nonexistent/headroom", clock: clock)
        let capture = CaptureService(session: session)
        try capture.start()
        let waiter = clock.enroll()
        let waited = Task {
            try await waiter.run { try await clock.sleep(until: start.advanced(by: .seconds(60))) }
        }
        await #expect(throws: OutputInitializationError.self) { try await capture.run() }
        // Halted: the waiter is never woken by time, only by cancellation.
        waited.cancel()
        await #expect(throws: CancellationError.self) { try await waited.value }
        #expect(clock.now == start)
    }

    @Test(
        "a deferred output that fails ends capture at once, time halted at the failure",
        .timeLimit(.minutes(10)))
    func deferredFailure() async throws {
        let clock = VirtualRunClock()
        let session = try Self.session(
            movie: true, deferred: true, storage: "/nonexistent/headroom", clock: clock)
        let capture = CaptureService(session: session)
        try capture.start()
        // The camera runs on while the deferred output fails: the failure must stop it rather
        // than wait for it (which on a virtual clock would be forever).
        await #expect(throws: OutputInitializationError.self) { try await capture.run() }
        #expect(!session.isRunning)
        // Halted where it failed (the deferred start works off the clock, so where that is
        // depends on the machine): a waiter is woken only by cancellation.
        let halted = clock.now
        let waiter = clock.enroll()
        let waited = Task {
            try await waiter.run { try await clock.sleep(until: halted.advanced(by: .seconds(1))) }
        }
        waited.cancel()
        await #expect(throws: CancellationError.self) { try await waited.value }
        #expect(clock.now == halted)
    }

    @Test("a start taken back by a stop before the service ran it leaves the service waiting")
    func startThenStopBeforeItRuns() async throws {
        let session = try Self.session()
        let capture = CaptureService(session: session)
        try capture.start()
        await capture.stop()
        let service = Task { try await capture.run() }
        try capture.start()
        #expect(await waitUntil { session.previewFrameCount > 3 })
        service.cancel()
        try await service.value
    }

    @Test("a start after the service ended is refused and given back: its cameras leave the clock")
    func startAfterTheEnd() async throws {
        let clock = VirtualRunClock()
        let session = try Self.session(clock: clock)
        let capture = CaptureService(session: session)
        let service = Task { try await capture.run() }
        service.cancel()
        try await service.value
        #expect(throws: CaptureSessionError.stopped) { try capture.start() }
        #expect(!session.isRunning)
        // Nothing holds the clock: a sleep on it returns.
        let participant = clock.enroll()
        try await participant.run { try await clock.sleep(for: .seconds(1)) }
    }
}
