import LaunchTiming
import Units

/// A photo from a capture session: the frame of the moment it was requested, processed by the
/// photo output's pipeline.
public struct CapturedPhoto: Sendable {
    /// The frame it shows (number and timestamp tell which moment).
    public var frame: Frame
    /// When the photo was requested.
    public var requestedAt: MonotonicInstant
    /// When it was delivered: after the photo output became ready.
    public var deliveredAt: MonotonicInstant
    /// The frame smoothed by the photo pipeline's 3×3 box filter, same size as the frame.
    public var processedLuma: [UInt8]

    /// How far the frame lies from the request, in seconds (negative: captured before).
    public var frameOffset: Double { frame.timestamp.seconds(since: requestedAt) }
}

extension CapturedPhoto {
    /// Processes `frame` the way the photo output does: a 3×3 box filter (edges copied);
    /// the photo is delivered at `deliveredAt`, on the session's clock.
    static func process(
        _ frame: Frame, requestedAt: MonotonicInstant, deliveredAt: MonotonicInstant
    ) -> CapturedPhoto {
        let width = frame.width
        let height = frame.height
        var output = frame.luma
        if width >= 3 && height >= 3 {
            frame.luma.withUnsafeBufferPointer { pixels in
                output.withUnsafeMutableBufferPointer { output in
                    for y in 1..<(height - 1) {
                        for x in 1..<(width - 1) {
                            var sum = 0
                            for dy in -1...1 {
                                let base = (y + dy) * width + x
                                sum +=
                                    Int(pixels[base - 1]) + Int(pixels[base])
                                    + Int(pixels[base + 1])
                            }
                            output[y * width + x] = UInt8(sum / 9)
                        }
                    }
                }
            }
        }
        return CapturedPhoto(
            frame: frame, requestedAt: requestedAt, deliveredAt: deliveredAt,
            processedLuma: output)
    }
}
