import Files
import LaunchTiming
import Locking
import Storage
import Units

/// Photos: the moment asked for, from the camera's ring, once the photo output is ready.
extension CaptureSession {
    /// Captures a photo of the moment `instant` (by default now): the newest frame captured at
    /// or before it (within one frame interval), delivered when the photo output is ready.
    ///
    /// Before the photo output is ready this waits (its start is under way: the session is
    /// starting, deferred start is automatic, or it was requested) — the photo still shows the
    /// requested moment as long as the ring holds it; a request older than the ring gets the
    /// oldest frame kept.
    ///
    /// - Throws: ``CaptureSessionError/notRunning``, ``CaptureSessionError/noOutput(_:)``,
    ///   ``CaptureSessionError/deferredStartNotRequested(index:kind:)`` (manual mode, not yet
    ///   requested), or ``CaptureSessionError/stopped`` when the session stops while waiting.
    public func capturePhoto(at instant: MonotonicInstant? = nil) async throws(CaptureSessionError)
        -> CapturedPhoto
    {
        let requestedAt = instant ?? clock.now
        let (index, camera) = try state.withLock { state throws(CaptureSessionError) in
            guard state.phase.isStarted, let committed = state.committed else {
                throw .notRunning
            }
            guard let index = committed.outputs.firstIndex(where: { $0.kind == .photo }) else {
                throw .noOutput(.photo)
            }
            let output = state.outputs[index]
            if !output.isReady && output.isDeferred && !state.automaticallyRunsDeferredStart
                && !state.isDeferredStartRequested
            {
                throw .deferredStartNotRequested(index: index, kind: .photo)
            }
            return (index, committed.cameraID(of: committed.outputs[index]) ?? "")
        }
        let frame = try await frame(of: camera, at: requestedAt)
        try await waitUntilReady(index)
        return CapturedPhoto.process(frame, requestedAt: requestedAt, deliveredAt: clock.now)
    }

    private func frame(of camera: String, at instant: MonotonicInstant)
        async throws(CaptureSessionError) -> Frame
    {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if let frame = state.rings[camera]?.frame(at: instant) {
                        continuation.resume(returning: frame)
                    } else if !state.phase.isStarted {
                        continuation.resume(throwing: CaptureSessionError.stopped)
                    } else {
                        state.frameWaiters.append((camera, continuation))
                    }
                }
            }
        } catch {
            throw (error as? CaptureSessionError) ?? .stopped
        }
    }

    private func waitUntilReady(_ index: Int) async throws(CaptureSessionError) {
        do {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if state.outputs[index].isReady {
                        continuation.resume()
                    } else if !state.phase.isStarted {
                        continuation.resume(throwing: CaptureSessionError.stopped)
                    } else {
                        state.readinessWaiters.append((index, continuation))
                    }
                }
            }
        } catch {
            throw (error as? CaptureSessionError) ?? .stopped
        }
    }
}
