import CLI
import Capture
import Locking
import Tracking

/// The looks of detections read back from a file, taken from the frames of the video they were
/// found in, as `headroom run` gave them while it ran: so that `headroom track --source`
/// reproduces a run's tracks from its `detections.txt`.
enum VideoLooks {
    /// Gives every detection in `byFrame` (indexed by frame number: 1 is the video's first
    /// frame, as `run` numbers them) its look in `style`, from the frames of `video` at their
    /// own size, decoded by ffmpeg as `run --source` decodes them.
    ///
    /// - Parameter imageSize: the size the boxes were scaled to (`--image-size`), which must
    ///   be the video's; nil when they are in the video's pixels.
    /// - Throws: ``UsageError`` (exit 2) when the video cannot be read, is not of
    ///   `imageSize`, or ends before the last frame that has detections.
    static func attach(
        to byFrame: inout [[Detection]], video: String, style: AppearanceStyle,
        boxesSizedFor imageSize: (width: Double, height: Double)?
    ) async throws(UsageError) {
        let source: VideoFrameSource
        do {
            source = try VideoFrameSource(input: VideoInput(argument: video), pacing: .max)
        } catch {
            throw UsageError(description: "--source: \(error.problem)")
        }
        var failure: UsageError?
        do {
            try await read(source, into: &byFrame, video: video, style: style, sizedFor: imageSize)
        } catch {
            failure = error
        }
        // Stopping ffmpeg waits for it (up to two seconds): not on the cooperative pool.
        await BlockingWork.run { source.close() }
        if let failure { throw failure }
    }

    /// ``attach(to:video:style:boxesSizedFor:)``'s work on the opened `source`.
    private static func read(
        _ source: VideoFrameSource, into byFrame: inout [[Detection]], video: String,
        style: AppearanceStyle, sizedFor imageSize: (width: Double, height: Double)?
    ) async throws(UsageError) {
        let header = source.header
        if let imageSize,
            imageSize.width != Double(header.width) || imageSize.height != Double(header.height)
        {
            throw UsageError(
                description:
                    "--image-size: \(Int(imageSize.width))x\(Int(imageSize.height)); expected the size of --source \(video), \(header.width)x\(header.height)"
            )
        }
        let lastFrame = byFrame.indices.last { !byFrame[$0].isEmpty } ?? 0
        var frame = Frame(camera: "video", width: header.width, height: header.height)
        var framesSeen = 0
        while framesSeen < lastFrame {
            await source.render(&frame)
            // After its last frame the source repeats it.
            guard let index = frame.sourceIndex, index + 1 > framesSeen else { break }
            source.frameConsumed(index: index)
            framesSeen = index + 1
            guard !byFrame[framesSeen].isEmpty else { continue }
            let pixels = GrayFrame(
                width: frame.width, height: frame.height, pixels: frame.luma,
                chroma: frame.chroma)
            for detection in byFrame[framesSeen].indices {
                byFrame[framesSeen][detection].appearance = AppearanceDescriptor(
                    box: byFrame[framesSeen][detection].box, in: pixels, style: style)
            }
        }
        guard framesSeen >= lastFrame else {
            throw UsageError(
                description:
                    "--source: \(video) has \(framesSeen) frames; expected at least \(lastFrame), the last frame with detections"
            )
        }
    }
}
