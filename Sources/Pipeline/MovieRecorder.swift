import Capture
import Foundation
import Locking
import Storage
import Telemetry
import Units

/// What a run's movie output recorded, for the run report.
public struct RecordingReport: Hashable, Codable, Sendable {
    /// Where the recording is (its destination, once finished).
    public var path: String
    /// Whether it went through the pro video storage reserve.
    public var usesProVideoStorage: Bool
    /// Whole frames in the file.
    public var frames: Int64
    /// Bytes in the file.
    public var bytes: ByteCount
    /// Frames the writer's queue had no room for.
    public var framesDropped: Int64
    /// Why it ended: `finished`, `notEnoughSpace` (the reserve filled; the file holds every
    /// whole frame up to then) or `failed`.
    public var endReason: RecordingWriter.EndReason
    /// What went wrong, if anything did.
    public var problem: String?
    /// Bytes recreated in the reserve after the recording (replenished in the background).
    public var replenishedBytes: ByteCount
    /// The data rate of the recording at the camera's frame rate.
    public var dataRate: DataRate
}

/// The run's movie output: every frame the pipeline sees, in colour when it has it, recorded
/// as Y4M by a ``RecordingWriter`` — into the reserve when the output `usesProVideoStorage`,
/// else into a file growing beside the destination. The frame loop only enqueues; when the
/// recording ends (the run ends, or the reserve fills), the reserve is replenished on a thread
/// of its own.
final class MovieRecorder: Sendable {
    private let writer: RecordingWriter
    private let reserve: StorageReserve?
    private let format: MovieFormat
    /// The colour written after a grey frame's luma, made once.
    private let neutralChroma: [UInt8]
    private let metrics: HeadroomMetrics
    /// Dropped frames already published, and the replenishment once it is done.
    private let state = LockedState<(published: Int64, replenished: ByteCount?, problem: String?)>(
        (0, nil, nil))
    private let replenished = DispatchSemaphore(value: 0)

    /// Starts recording `camera`'s frames to `destination`, through the reserve in
    /// `storageDirectory` when the output uses pro video storage.
    ///
    /// - Throws: ``StorageError`` when the reserve is busy being resized, has no free segment,
    ///   is not supported here (or not given), or the destination cannot be written.
    init(
        output: CaptureOutput, camera: CameraConfiguration, destination: String,
        storageDirectory: String?, metrics: HeadroomMetrics
    ) throws(StorageError) {
        format = MovieFormat(camera: camera)
        neutralChroma = format.neutralChroma
        self.metrics = metrics
        let target: any RecordingTarget
        if output.usesProVideoStorage {
            guard let storageDirectory else {
                throw .notSupported("no pro video storage reserve was given (--storage DIR)")
            }
            let reserve = try StorageReserve(directory: storageDirectory)
            if let problem = reserve.supportProblem() { throw .notSupported(problem) }
            target = try ReserveRecording(
                reserve: reserve, destination: destination, layout: format.layout)
            self.reserve = reserve
        } else {
            target = try GrowingFileTarget(destination: destination)
            reserve = nil
        }
        let reserve = reserve
        let state = state
        let replenished = replenished
        writer = try RecordingWriter(
            target: target, layout: format.layout, header: format.header,
            unitPrefix: MovieFormat.framePrefix, unitSuffix: [],
            onWrite: { metrics.recordStorageWrite(seconds: $0) },
            onEnd: { _ in
                guard let reserve else {
                    replenished.signal()
                    return
                }
                Thread.detachNewThread {
                    do {
                        let added = try reserve.replenish()
                        state.withLock { $0.replenished = added }
                    } catch {
                        state.withLock { $0.problem = "the reserve was not replenished: \(error)" }
                    }
                    replenished.signal()
                }
            }, clock: ContinuousRunClock())
        publish()
    }

    /// Queues `frame` for the writer — its luma, then its colour (``Frame/chroma``), or
    /// neutral colour for a grey frame; never waits for the disk.
    func record(_ frame: Frame) {
        let colour = frame.chroma.map { [$0.blue, $0.red] } ?? [neutralChroma]
        _ = writer.enqueue(parts: [frame.luma] + colour)
    }

    /// Publishes the remaining capacity and newly dropped frames.
    func publish() {
        let summary = writer.summary
        let newlyDropped = state.withLock { state in
            defer { state.published = summary.framesDropped }
            return summary.framesDropped - state.published
        }
        metrics.publishRecording(
            remainingBytes: summary.remainingBytes?.bytes, newlyDropped: newlyDropped)
    }

    /// Ends the recording (the queued frames are written, the file finished and moved), waits
    /// for the reserve's replenishment, and reports.
    func finish() async -> RecordingReport {
        let summary = await writer.finish()
        let replenished = replenished
        await BlockingWork.run { replenished.wait() }
        publish()
        if let reserve {
            do {
                metrics.publishRecording(
                    remainingBytes: try reserve.status().remainingBytes.bytes, newlyDropped: 0)
            } catch {
                state.withLock { state in
                    state.problem = [
                        state.problem, "the reserve's remaining space is unknown: \(error)",
                    ]
                    .compactMap { $0 }.joined(separator: "; ")
                }
            }
        }
        let (added, problem) = state.withLock { ($0.replenished ?? .zero, $0.problem) }
        return RecordingReport(
            path: summary.path, usesProVideoStorage: reserve != nil, frames: summary.frames,
            bytes: summary.bytes, framesDropped: summary.framesDropped,
            endReason: summary.endReason ?? .finished,
            problem: [summary.problem, problem].compactMap { $0 }.joined(separator: "; ")
                .nilIfEmpty,
            replenishedBytes: added, dataRate: format.dataRate)
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
