import Capture
import Files
import Foundation
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
/// annotation over without waiting (``offer(_:annotation:)``); a thread of its own draws them
/// and feeds ffmpeg (``VideoEncoder``). When the run ends, ``finish(stillsInto:)`` closes the
/// video and takes a few stills from it.
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
    private let frameRate: FrameRate
    private let queue = BoundedQueue<Job>(limit: 8)
    private let progress = LockedState(Progress())
    private let done = DispatchSemaphore(value: 0)

    /// Starts encoding `width × height` frames at `frameRate` into `path`.
    ///
    /// - Throws: `ConfigurationError` when ffmpeg cannot start.
    init(path: String, width: Int, height: Int, frameRate: FrameRate) throws {
        encoder = try VideoEncoder(
            path: path, width: width, height: height, frameRate: frameRate, layout: .rgb24,
            field: "--annotate")
        self.frameRate = frameRate
        let (queue, progress, encoder, done) = (queue, progress, encoder, done)
        Thread.detachNewThread {
            while let job = queue.take() {
                let pixels = job.annotation.draw(
                    over: job.luma, chroma: job.chroma, width: encoder.width,
                    height: encoder.height)
                do throws(ConfigurationError) {
                    try encoder.write(pixels)
                    progress.withLock { $0.frames += 1 }
                } catch {
                    progress.withLock { $0.problem = error.description }
                    while queue.take() != nil {}
                }
            }
            done.signal()
        }
    }

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

    /// Ends the video, then takes ``stillCount`` stills spread over it into `directory`.
    func finish(stillsInto directory: String) async -> AnnotationReport {
        await BlockingWork.run { self.finishWaiting(directory) }
    }

    private func finishWaiting(_ directory: String) -> AnnotationReport {
        queue.close()
        done.wait()
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
        for index in 1...Self.stillCount {
            let name = "still-\(index).jpg"
            let time = seconds * Double(index) / Double(Self.stillCount + 1)
            if VideoEncoder.extractStill(
                from: encoder.path, atSeconds: time, to: "\(directory)/\(name)")
            {
                result.stills.append(name)
            }
        }
        return result
    }
}
