import Capture
import Foundation
import LaunchTiming
import Testing
import Units

@Test func aPhotoRequestedBeforeItsOutputIsReadyShowsTheMomentOfTheRequest() async throws {
    let session = try smallSession(
        [CaptureOutput(kind: .preview), CaptureOutput(kind: .videoData)]
            + deferredPhotoAndMovie.dropFirst(), automatic: false)
    let frames = session.videoFrames(bufferLimit: 64)
    try await session.whileRunning {
        var iterator = frames.makeAsyncIterator()
        var seen: Frame?
        for _ in 0..<6 { seen = await iterator.next() }
        let requested = try #require(seen)
        // Ask for the moment of frame `requested`, then let the photo output start.
        session.runDeferredStartWhenNeeded()
        let photo = try await session.capturePhoto(at: requested.timestamp)
        #expect(!(photo.deliveredAt < photo.requestedAt))
        #expect(abs(photo.frame.number - requested.number) <= 1)
        #expect(photo.frame.number == requested.number, "the ring still holds that exact frame")
        // Its pixels are that frame's, smoothed by the photo pipeline.
        let pattern = PatternFrameSource()
        #expect(photo.frame.luma[5 * 64 + 7] == pattern.value(x: 7, y: 5, frame: requested.number))
        #expect(photo.processedLuma.count == 64 * 48)
        let report = session.timeline.report()
        let ready = try #require(report.time(of: "firstCaptureReady"))
        #expect(photo.frame.timestamp.duration(since: session.timeline.origin) < ready)
    }
}

@Test func aPhotoRequestedNowIsWithinOneFrameOfNow() async throws {
    let session = try smallSession(deferredPhotoAndMovie)
    let events = session.events()
    try await session.whileRunning {
        _ = await collect(events, until: .didStartRunning)
        let before = MonotonicClock.now()
        let photo = try await session.capturePhoto()
        // Newest frame at or before the request, or the first one after it when none existed.
        #expect(photo.frame.timestamp <= photo.requestedAt || photo.frame.number == 0)
        #expect(photo.requestedAt >= before)
    }
}

@Test func aWaitingPhotoFailsWhenTheSessionStops() async throws {
    let session = try smallSession(
        [CaptureOutput(kind: .preview), CaptureOutput(kind: .photo, isDeferredStartEnabled: true)],
        automatic: false)
    let events = session.events()
    try await session.whileRunning {
        _ = await collect(events, until: .firstPreviewFrame(frame: 0, camera: "back"))
        let capture = Task { try await session.capturePhoto() }
        // Not requested yet: the capture fails right away in manual mode.
        await #expect(throws: CaptureSessionError.deferredStartNotRequested(index: 1, kind: .photo))
        {
            try await capture.value
        }
    }
}

@Test func theRingKeepsTheNewestFramesAndFindsTheFrameOfAnInstant() {
    var ring = FrameRing(capacity: 3)
    for number in 0..<5 {
        var frame = Frame(camera: "a", number: number, width: 1, height: 1)
        frame.timestamp = MonotonicInstant(nanoseconds: UInt64(100 * (number + 1)))
        let evicted = ring.append(frame)
        #expect(evicted?.number == (number >= 3 ? number - 3 : nil))
    }
    #expect(ring.count == 3)
    #expect(ring.newest?.number == 4)
    #expect(ring.frame(at: MonotonicInstant(nanoseconds: 450))?.number == 3)
    #expect(ring.frame(at: MonotonicInstant(nanoseconds: 400))?.number == 3)
    #expect(ring.frame(at: MonotonicInstant(nanoseconds: 10_000))?.number == 4)
    #expect(ring.frame(at: MonotonicInstant(nanoseconds: 5))?.number == 2, "oldest kept")
    #expect(FrameRing(capacity: 2).frame(at: MonotonicInstant(nanoseconds: 5)) == nil)
}
