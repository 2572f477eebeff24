/// Draws frames into a preview output's display buffer: nearest-neighbour scaling from the
/// frame's luma to display-size BGRA (grey), with its column and row maps computed once.
struct PreviewScaler {
    private var pixels: [UInt8]
    private let width: Int
    private let height: Int
    private var columns: [Int] = []
    private var rows: [Int] = []
    private var sourceSize = (width: 0, height: 0)

    /// A scaler drawing into the first buffer of a preview's `resources`.
    init(_ resources: OutputResources) {
        width = resources.displayWidth
        height = resources.displayHeight
        pixels = resources.buffers.first ?? [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The display buffer's pixel at (`x`, `y`), as BGRA.
    func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// Scales `frame` into the display buffer.
    mutating func draw(_ frame: Frame) {
        let width = width
        let height = height
        if sourceSize != (frame.width, frame.height) {
            sourceSize = (frame.width, frame.height)
            columns = (0..<width).map { $0 * frame.width / width }
            rows = (0..<height).map { $0 * frame.height / height * frame.width }
        }
        frame.luma.withUnsafeBufferPointer { luma in
            columns.withUnsafeBufferPointer { columns in
                pixels.withUnsafeMutableBufferPointer { pixels in
                    for (y, row) in rows.enumerated() {
                        var offset = y * width * 4
                        for column in columns {
                            let value = luma[row + column]
                            pixels[offset] = value
                            pixels[offset + 1] = value
                            pixels[offset + 2] = value
                            pixels[offset + 3] = 255
                            offset += 4
                        }
                    }
                }
            }
        }
    }
}
