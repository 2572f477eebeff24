import Units

/// Copies a luma plane (or a frame's chroma) into another of any size, scaling by nearest
/// neighbour: how file and video sources fit their frames to the session's frame size.
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

    /// `chroma` scaled to the planes of a `width × height` frame (the same planes, uncopied,
    /// when they fit already).
    static func scale(_ chroma: ChromaPlanes, toFrameWidth width: Int, height: Int)
        -> ChromaPlanes
    {
        let size = ChromaPlanes.size(forFrameWidth: width, height: height)
        guard size != (chroma.width, chroma.height) else { return chroma }
        var blue = [UInt8](repeating: 0, count: size.width * size.height)
        var red = blue
        scale(
            chroma.blue, width: chroma.width, height: chroma.height, into: &blue,
            width: size.width, height: size.height)
        scale(
            chroma.red, width: chroma.width, height: chroma.height, into: &red,
            width: size.width, height: size.height)
        return ChromaPlanes(width: size.width, height: size.height, blue: blue, red: red)
    }
}
