import Files
import LaunchTiming
import Locking
import Storage
import Units

/// A run's work: outputs initialized (some deferred until the first preview frame), one
/// frame loop per camera on the session's clock, frames delivered to the rings, the consumer
/// and the subscribers, and the stop.
extension CaptureSession {
    func runClaimed(
        _ plan: RunPlan, _ participants: [ClockParticipant],
        onFailure: @escaping @Sendable (any Error) -> Void
    ) async throws {
        timeline.begin(.sessionStart)
        do {
            for index in plan.configuration.outputs.indices where !plan.isDeferred[index] {
                try initializeOutput(index, plan)
            }
        } catch {
            timeline.end(.sessionStart)
            onFailure(error)
            for participant in participants { participant.leave() }
            throw error
        }
        timeline.end(.sessionStart)
        emit(.didStartRunning)
        // A failure is heard where it happens: a camera's before it leaves the clock, so a run
        // on virtual time can end at the failure's instant.
        let failing: @Sendable (any Error) -> Void = { error in
            if !(error is CancellationError) { onFailure(error) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (camera, participant) in zip(plan.configuration.cameras, participants) {
                group.addTask {
                    try await participant.run {
                        do {
                            try await self.frameLoop(camera, plan)
                        } catch {
                            failing(error)
                            throw error
                        }
                    }
                }
            }
            if plan.isDeferred.contains(true) {
                group.addTask {
                    do {
                        try await self.deferredStart(plan)
                    } catch {
                        failing(error)
                        throw error
                    }
                }
            }
            // The first failure cancels the others (waitForAll would wait for them all).
            while try await group.next() != nil {}
        }
    }

    func initializeOutput(_ index: Int, _ plan: RunPlan) throws {
        let output = plan.configuration.outputs[index]
        let cameraID = plan.configuration.cameraID(of: output)
        guard let camera = plan.configuration.cameras.first(where: { $0.id == cameraID }) else {
            return
        }
        let resources = try timeline.measure(plan.phases[index]) {
            () throws(OutputInitializationError) in
            try OutputResources.initialize(
                output.kind, camera: camera, storageDirectory: storageDirectory)
        }
        state.withLock { state in
            state.outputs[index].resources = resources
            state.outputs[index].isReady = true
            if output.kind == .photo && !state.hasMarkedCaptureReady {
                state.hasMarkedCaptureReady = true
                timeline.mark(.firstCaptureReady)
            }
            emit(.outputReady(index: index, kind: output.kind))
            let waiting = state.readinessWaiters.filter { $0.index == index }
            state.readinessWaiters.removeAll { $0.index == index }
            for waiter in waiting { waiter.continuation.resume() }
        }
    }

    func deferredStart(_ plan: RunPlan) async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.phase == .running || state.phase == .stopping {
                        continuation.resume()
                    } else {
                        state.deferredTrigger = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                state.phase = .stopping
                state.deferredTrigger?.resume()
                state.deferredTrigger = nil
            }
        }
        try Task.checkCancellation()
        emit(.willRunDeferredStart)
        try timeline.measure(.deferredStart) {
            for index in plan.configuration.outputs.indices where plan.isDeferred[index] {
                try initializeOutput(index, plan)
            }
        }
        emit(.didRunDeferredStart)
    }

    func frameLoop(_ camera: CameraConfiguration, _ plan: RunPlan) async throws {
        let isPreviewCamera = camera.id == plan.previewCamera
        let previewIndex = plan.configuration.outputs.firstIndex {
            $0.kind == .preview && plan.configuration.cameraID(of: $0) == camera.id
        }
        var preview = previewIndex.flatMap { index in
            state.withLock { $0.outputs[index].resources }
        }.map(PreviewScaler.init)
        let width = camera.format.width
        let height = camera.format.height
        var due = clock.now
        var recycled: [UInt8] = []
        var number = 0
        while true {
            // Read each frame, so a new target frame rate takes effect at the next frame.
            let frameRate =
                state.withLock { $0.frameRateLimit.map { min($0, camera.frameRate) } }
                ?? camera.frameRate
            let interval = max(frameRate, 0.1).frameInterval
            try Task.checkCancellation()
            var frame = Frame(
                camera: camera.id, number: number, width: width, height: height,
                reusing: &recycled)
            // The moment the frame shows: a source that draws a moving scene draws it then.
            frame.timestamp = clock.now
            await frameSource.render(&frame)
            preview?.draw(frame)
            let (evicted, consumer) = deliver(frame, isPreviewCamera: isPreviewCamera)
            if let evicted { recycled = evicted.luma }
            await consumer?(frame)
            number += 1
            if frameSource.isSelfPaced, consumer != nil {
                // The source waits for its consumer itself; nothing is late, nothing skipped.
                // With no consumer (its output not ready yet) the camera's clock paces the
                // source, so the loop never spins on a frame nobody takes.
                due = clock.now
                await Task.yield()
                continue
            }
            // More than a frame late (a slow source, a busy machine): like a sensor, skip the
            // frames whose time has passed instead of delivering a burst of stale ones.
            due = due.advanced(by: interval)
            let late = Int((clock.now.duration(since: due) / interval).rounded(.down))
            if late > 0 {
                state.withLock { $0.droppedFrames += late }
                number += late
                due = due.advanced(by: interval * late)
            }
            try await clock.sleep(until: due)
        }
    }

    /// Puts `frame` into its camera's ring and to the outputs that are ready; returns the frame
    /// the ring evicted (its pixels are reused) and the frame consumer, when a ready video-data
    /// output takes this frame.
    func deliver(_ frame: Frame, isPreviewCamera: Bool) -> (Frame?, FrameConsumer?) {
        state.withLock { state in
            let evicted = state.rings[frame.camera]?.append(frame)
            var consumer: FrameConsumer?
            let waiting = state.frameWaiters.filter { $0.camera == frame.camera }
            state.frameWaiters.removeAll { $0.camera == frame.camera }
            for waiter in waiting { waiter.continuation.resume(returning: frame) }
            if isPreviewCamera {
                state.previewFrames += 1
                if state.phase == .starting {
                    state.phase = .previewing
                    timeline.mark(.firstPreviewFrame)
                    emit(.firstPreviewFrame(frame: frame.number, camera: frame.camera))
                    if state.automaticallyRunsDeferredStart || state.isDeferredStartRequested {
                        state.releaseDeferredStart()
                    }
                }
            }
            if let plan = state.plan {
                for (index, output) in plan.configuration.outputs.enumerated()
                where state.outputs[index].isReady
                    && plan.configuration.cameraID(of: output) == frame.camera
                {
                    switch output.kind {
                    case .movie: state.encodedMovieFrames += 1
                    case .videoData:
                        frameBroadcast.yield(frame)
                        consumer = state.videoFrameConsumer
                    case .preview, .photo: break
                    }
                }
            }
            return (evicted, consumer)
        }
    }

    /// Sends `event` to the observers; called under the state lock wherever the event goes
    /// with a state change, so observers see events in the order of the changes.
    func emit(_ event: CaptureSessionEvent) {
        eventBroadcast.yield(event)
    }

    func finish(error: (any Error)?) {
        state.withLock { state in
            if let error { emit(.runtimeError(String(describing: error))) }
            for output in state.outputs { output.resources?.release() }
            for waiter in state.frameWaiters {
                waiter.continuation.resume(throwing: CaptureSessionError.stopped)
            }
            for waiter in state.readinessWaiters {
                waiter.continuation.resume(throwing: CaptureSessionError.stopped)
            }
            emit(.didStopRunning)
            state.reset()
        }
        eventBroadcast.finish()
        frameBroadcast.finish()
    }
}
