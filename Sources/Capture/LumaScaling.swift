/// Copies a luma plane into another of any size, scaling by nearest neighbour: how file and
/// video sources fit their frames to the session's frame size.
enum LumaScaling {
    /// Copies `source` (`width × height`) into `target` (`targetWidth × targetHeight`).
    static func scale(
        _ source: [UInt8], width: Int, height: Int, into target: inout [UInt8],
        width targetWidth: Int, height targetHeight: Int
    ) {
        if targetWidth == width && targetHeight == height {
            target = source
            return
        }
        target.withUnsafeMutableBufferPointer { pixels in
            source.withUnsafeBufferPointer { source in
                for y in 0..<targetHeight {
                    let row = y * height / targetHeight * width
                    for x in 0..<targetWidth {
                        pixels[y * targetWidth + x] = source[row + x * width / targetWidth]
                    }
                }
            }
        }
    }
}
