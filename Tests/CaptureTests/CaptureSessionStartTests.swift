import Capture
import Foundation
import LaunchTiming
import Testing
import Units

/// A small, fast session: 64×48 at 200 fps, so tests see many frames quickly.
func smallSession(
    _ outputs: [CaptureOutput], automatic: Bool = true, ringCapacity: Int = 64
) throws -> CaptureSession {
    let format = CameraFormat(width: 64, height: 48, maxFrameRate: 200, pixelFormat: .nv12)
    let configuration = SessionConfiguration(
        cameras: [CameraConfiguration(id: "back", format: format)], outputs: outputs)
    let profile = try ProfileCatalog(calibratedDirectory: nil).profile("generic-x86_64")
    let session = CaptureSession(
        configuration: configuration, estimator: HardwareCostEstimator(profile: profile),
        ringCapacity: ringCapacity, clock: ContinuousRunClock())
    session.automaticallyRunsDeferredStart = automatic
    session.beginConfiguration()
    try session.commitConfiguration()
    return session
}

/// Collects events until `last` (included) arrives.
func collect(
    _ events: AsyncStream<CaptureSessionEvent>, until last: CaptureSessionEvent
) async -> [CaptureSessionEvent] {
    var seen: [CaptureSessionEvent] = []
    for await event in events {
        seen.append(event)
        if event == last { break }
    }
    return seen
}

let deferredPhotoAndMovie = [
    CaptureOutput(kind: .preview),
    CaptureOutput(kind: .photo, isDeferredStartEnabled: true),
    CaptureOutput(kind: .movie, isDeferredStartEnabled: true),
]

@Test func automaticDeferredStartInitializesDeferredOutputsAfterTheFirstPreviewFrame() async throws
{
    let session = try smallSession(deferredPhotoAndMovie)
    let events = session.events()
    try await session.whileRunning {
        let seen = await collect(events, until: .didRunDeferredStart)
        #expect(
            seen == [
                .outputReady(index: 0, kind: .preview), .didStartRunning,
                .firstPreviewFrame(frame: 0, camera: "back"), .willRunDeferredStart,
                .outputReady(index: 1, kind: .photo), .outputReady(index: 2, kind: .movie),
                .didRunDeferredStart,
            ])
        #expect(session.isOutputReady(at: 1) && session.isOutputReady(at: 2))
    }
    #expect(!session.isRunning)

    let report = session.timeline.report()
    let first = try #require(report.timeToFirstPreviewFrame)
    let photo = try #require(report.phase(named: "outputInitialization.photo"))
    let movie = try #require(report.phase(named: "outputInitialization.movie"))
    let preview = try #require(report.phase(named: "outputInitialization.preview"))
    #expect(photo.start >= first && movie.start >= first, "deferred outputs wait for the frame")
    #expect(preview.end <= first)
    #expect(photo.parent == "deferredStart" && movie.parent == "deferredStart")
    #expect(preview.parent == "sessionStart")
    #expect(try #require(report.time(of: "firstCaptureReady")) >= photo.end)
}

@Test func withoutDeferredStartEveryOutputIsReadyBeforeTheFirstFrame() async throws {
    let outputs = deferredPhotoAndMovie.map { output in
        var output = output
        output.isDeferredStartEnabled = false
        return output
    }
    let session = try smallSession(outputs)
    let events = session.events()
    try await session.whileRunning {
        let seen = await collect(events, until: .firstPreviewFrame(frame: 0, camera: "back"))
        #expect(
            seen == [
                .outputReady(index: 0, kind: .preview), .outputReady(index: 1, kind: .photo),
                .outputReady(index: 2, kind: .movie), .didStartRunning,
                .firstPreviewFrame(frame: 0, camera: "back"),
            ])
    }
    let report = session.timeline.report()
    #expect(report.phase(named: "deferredStart") == nil)
    let first = try #require(report.timeToFirstPreviewFrame)
    #expect(try #require(report.phase(named: "outputInitialization.movie")).end <= first)
}

@Test func manualDeferredStartWaitsForTheRequest() async throws {
    let session = try smallSession(
        [CaptureOutput(kind: .preview), CaptureOutput(kind: .videoData)]
            + deferredPhotoAndMovie.dropFirst(), automatic: false)
    let events = session.events()
    let frames = session.videoFrames(bufferLimit: 64)
    #expect(session.phase == .stopped)
    try await session.whileRunning {
        var iterator = frames.makeAsyncIterator()
        for _ in 0..<10 { _ = await iterator.next() }
        // Ten frames later, nothing deferred has started and using it fails clearly.
        #expect(session.phase == .previewing)
        #expect(!session.isOutputReady(at: 2) && !session.isOutputReady(at: 3))
        await #expect(throws: CaptureSessionError.deferredStartNotRequested(index: 2, kind: .photo))
        {
            _ = try await session.capturePhoto()
        }
        session.runDeferredStartWhenNeeded()
        let seen = await collect(events, until: .didRunDeferredStart)
        #expect(
            seen == [
                .outputReady(index: 0, kind: .preview), .outputReady(index: 1, kind: .videoData),
                .didStartRunning, .firstPreviewFrame(frame: 0, camera: "back"),
                .willRunDeferredStart, .outputReady(index: 2, kind: .photo),
                .outputReady(index: 3, kind: .movie), .didRunDeferredStart,
            ])
        #expect(session.phase == .running)
    }
    #expect(session.phase == .stopped && !session.isRunning)
    let report = session.timeline.report()
    let photo = try #require(report.phase(named: "outputInitialization.photo"))
    #expect(photo.start > (try #require(report.timeToFirstPreviewFrame)))
}

@Test func manualRequestBeforeTheFirstFrameRunsRightAfterIt() async throws {
    let session = try smallSession(deferredPhotoAndMovie, automatic: false)
    let events = session.events()
    session.runDeferredStartWhenNeeded()  // before start: applies to the next run
    try await session.whileRunning {
        session.runDeferredStartWhenNeeded()
        let seen = await collect(events, until: .didRunDeferredStart)
        #expect(
            seen.firstIndex(of: .willRunDeferredStart)! > seen.firstIndex(of: .didStartRunning)!)
    }
}

@Test func sessionMisuseFailsWithErrorsThatSayWhatToDo() async throws {
    let format = CameraFormat(width: 64, height: 48, maxFrameRate: 30)
    let profile = try ProfileCatalog(calibratedDirectory: nil).profile("generic-x86_64")
    let uncommitted = CaptureSession(
        configuration: SessionConfiguration(
            cameras: [CameraConfiguration(id: "a", format: format)], outputs: []),
        estimator: HardwareCostEstimator(profile: profile), clock: ContinuousRunClock())
    await #expect(throws: CaptureSessionError.notCommitted) {
        try await uncommitted.whileRunning {}
    }
    await #expect(throws: CaptureSessionError.notRunning) {
        _ = try await uncommitted.capturePhoto()
    }

    let session = try smallSession([CaptureOutput(kind: .preview)])
    try await session.whileRunning {
        #expect(throws: CaptureSessionError.alreadyRunning) { try session.prepareRun() }
        await #expect(throws: CaptureSessionError.noOutput(.photo)) {
            _ = try await session.capturePhoto()
        }
        #expect(throws: CaptureSessionError.alreadyRunning) {
            session.beginConfiguration()
            try session.commitConfiguration()
        }
    }
    #expect(
        CaptureSessionError.deferredStartNotRequested(index: 2, kind: .photo).description
            .contains("runDeferredStartWhenNeeded()"))
}

@Test func aStoppedSessionEndsItsStreamsAndCanStartAgain() async throws {
    let session = try smallSession(deferredPhotoAndMovie)
    for _ in 0..<2 {
        let events = session.events()
        try await session.whileRunning {
            _ = await collect(events, until: .didRunDeferredStart)
        }
        var rest: [CaptureSessionEvent] = []
        for await event in events { rest.append(event) }
        #expect(rest.last == .didStopRunning)
    }
}

@Test func runEndsCleanlyWhenItsTaskIsCancelled() async throws {
    let session = try smallSession([CaptureOutput(kind: .preview)])
    let events = session.events()
    let task = Task { try await session.run() }
    _ = await collect(events, until: .firstPreviewFrame(frame: 0, camera: "back"))
    task.cancel()
    try await task.value
    #expect(!session.isRunning)
}
