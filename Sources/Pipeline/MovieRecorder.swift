import Capture
import FoundationEssentials
import Lifecycle
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
    /// Whether it was written past the page cache (`O_DIRECT`, as the reserve records where
    /// the filesystem allows it); `nil` in reports written before Headroom 0.6.
    public var uncached: Bool?
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
/// else into a file growing beside the destination. The frame loop only enqueues; the writer's
/// loop is a service of the run's group (``service``), stopped once the rest of the run has
/// returned, and when the recording ends the reserve is replenished on the same thread.
final class MovieRecorder: Sendable {
    private let writer: RecordingWriter
    private let reserve: StorageReserve?
    private let format: MovieFormat
    /// The colour written after a grey frame's luma, made once.
    private let neutralChroma: [UInt8]
    private let metrics: HeadroomMetrics
    /// Dropped frames already published.
    private let published = LockedState<Int64>(0)
    /// The writer's loop, then the replenishment.
    private let writing: ThreadedWork<Ending>

    /// How the writer's thread ended: the recording's summary, the bytes put back into the
    /// reserve, and what went wrong there.
    private struct Ending: Sendable {
        var summary: RecordingWriter.Summary
        var replenished = ByteCount.zero
        var problem: String?
    }

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
        let writer = try RecordingWriter(
            target: target, layout: format.layout, header: format.header,
            unitPrefix: MovieFormat.framePrefix, unitSuffix: [],
            onWrite: { metrics.recordStorageWrite(seconds: $0) }, clock: ContinuousRunClock())
        self.writer = writer
        let reserve = reserve
        writing = ThreadedWork(
            "recording",
            work: {
                var ending = Ending(summary: writer.writeQueued())
                guard let reserve else { return ending }
                do {
                    ending.replenished = try reserve.replenish()
                } catch {
                    ending.problem = "the reserve was not replenished: \(error)"
                }
                return ending
            }, stop: writer.endWriting)
        publish()
    }

    /// The writer's loop as a service of the run's group, stopped after the others.
    var service: Service { writing.service }

    /// Queues `frame` for the writer — its luma, then its colour (``Frame/chroma``), or
    /// neutral colour for a grey frame; never waits for the disk.
    func record(_ frame: Frame) {
        let colour = frame.chroma.map { [$0.blue, $0.red] } ?? [neutralChroma]
        _ = writer.enqueue(parts: [frame.luma] + colour)
    }

    /// Publishes the remaining capacity and newly dropped frames.
    func publish() {
        let summary = writer.summary
        let newlyDropped = published.withLock { published in
            defer { published = summary.framesDropped }
            return summary.framesDropped - published
        }
        metrics.publishRecording(
            remainingBytes: summary.remainingBytes?.bytes, newlyDropped: newlyDropped)
    }

    /// Ends the recording (the queued frames are written, the file finished and moved, the
    /// reserve replenished) — at once when the service has run — and reports.
    func finish() async -> RecordingReport {
        let ending = await writing.finish()
        let summary = ending.summary
        var problems = [summary.problem, ending.problem]
        publish()
        if let reserve {
            do {
                metrics.publishRecording(
                    remainingBytes: try reserve.status().remainingBytes.bytes, newlyDropped: 0)
            } catch {
                problems.append("the reserve's remaining space is unknown: \(error)")
            }
        }
        return RecordingReport(
            path: summary.path, usesProVideoStorage: reserve != nil, uncached: summary.uncached,
            frames: summary.frames,
            bytes: summary.bytes, framesDropped: summary.framesDropped,
            endReason: summary.endReason ?? .finished,
            problem: problems.compactMap { $0 }.joined(separator: "; ").nilIfEmpty,
            replenishedBytes: ending.replenished, dataRate: format.dataRate)
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
