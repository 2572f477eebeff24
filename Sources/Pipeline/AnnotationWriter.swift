import Capture
import Files
import FoundationEssentials
import Lifecycle
import Locking
import Units

/// What `--annotate` produced.
public struct AnnotationReport: Hashable, Codable, Sendable {
    /// The annotated video.
    public var path: String
    /// Frames written into it.
    public var frames: Int
    /// Frames the writer had no room for (the pipeline never waits for the encoder).
    public var framesDropped: Int
    /// A few annotated stills taken from the video (JPEG, beside the run's reports), for the
    /// HTML report.
    public var stills: [String]
    /// Why the video could not be written, when it could not.
    public var problem: String?
}

/// Writes the annotated frames of a run as a video: the frame loop hands each frame and its
/// annotation over without waiting (``offer(_:chroma:annotation:)``); a thread of its own,
/// run as a service of the run's group (``service``) and stopped once the rest of the run
/// has returned, draws them and feeds ffmpeg (``VideoEncoder``), then closes the video and
/// takes a few stills from it. ``finish()`` reports.
final class AnnotationWriter: Sendable {
    private struct Job: Sendable {
        var luma: [UInt8]
        var chroma: ChromaPlanes?
        var annotation: FrameAnnotation
    }

    private struct Progress {
        var frames = 0
        var dropped = 0
        var problem: String?
    }

    /// How many stills the report gets.
    static let stillCount = 4

    private let encoder: VideoEncoder
    private let queue = BoundedQueue<Job>(limit: 8)
    private let progress = LockedState(Progress())
    /// The drawing loop, then the video's end and its stills.
    private let writing: ThreadedWork<AnnotationReport>

    /// Starts encoding `width × height` frames at `frameRate` into `path`; its stills go into
    /// `stillsDirectory`.
    ///
    /// - Throws: `ConfigurationError` when ffmpeg cannot start.
    init(path: String, width: Int, height: Int, frameRate: FrameRate, stillsDirectory: String)
        throws
    {
        let encoder = try VideoEncoder(
            path: path, width: width, height: height, frameRate: frameRate, layout: .rgb24,
            field: "--annotate")
        self.encoder = encoder
        let (queue, progress) = (queue, progress)
        writing = ThreadedWork(
            "annotation",
            work: {
                Self.draw(queue: queue, into: encoder, progress: progress)
                return Self.end(
                    encoder, frameRate: frameRate, progress: progress, stillsInto: stillsDirectory)
            }, stop: queue.close)
    }

    /// The drawing loop as a service of the run's group, stopped after the others.
    var service: Service { writing.service }

    /// Queues a frame's pixels (its colour too, when it has colour) and annotation; never
    /// blocks (a full queue drops the frame).
    func offer(_ luma: [UInt8], chroma: ChromaPlanes?, annotation: FrameAnnotation) {
        guard luma.count == encoder.width * encoder.height,
            queue.offer(Job(luma: luma, chroma: chroma, annotation: annotation))
        else {
            progress.withLock { $0.dropped += 1 }
            return
        }
    }

    /// Ends the video (at once when the service has run) and reports.
    func finish() async -> AnnotationReport {
        await writing.finish()
    }

    /// Draws each queued frame and writes it to `encoder`, until the queue is closed and
    /// drained; after a failed write, drops the rest.
    private static func draw(
        queue: BoundedQueue<Job>, into encoder: VideoEncoder, progress: LockedState<Progress>
    ) {
        while let job = queue.take() {
            let pixels = job.annotation.draw(
                over: job.luma, chroma: job.chroma, width: encoder.width, height: encoder.height)
            do throws(ConfigurationError) {
                try encoder.write(pixels)
                progress.withLock { $0.frames += 1 }
            } catch {
                progress.withLock { $0.problem = error.description }
                while queue.take() != nil {}
            }
        }
    }

    /// Ends the video, then takes ``stillCount`` stills spread over it into `directory`.
    private static func end(
        _ encoder: VideoEncoder, frameRate: FrameRate, progress: LockedState<Progress>,
        stillsInto directory: String
    ) -> AnnotationReport {
        var result = progress.withLock { progress in
            AnnotationReport(
                path: encoder.path, frames: progress.frames, framesDropped: progress.dropped,
                stills: [], problem: progress.problem)
        }
        do throws(ConfigurationError) {
            try encoder.finish()
        } catch {
            result.problem = result.problem ?? error.description
        }
        guard result.problem == nil, result.frames > 0 else { return result }
        let seconds = Double(result.frames) / frameRate.framesPerSecond
        for index in 1...stillCount {
            let name = "still-\(index).jpg"
            let time = seconds * Double(index) / Double(stillCount + 1)
            if VideoEncoder.extractStill(
                from: encoder.path, atSeconds: time, to: "\(directory)/\(name)")
            {
                result.stills.append(name)
            }
        }
        return result
    }
}
