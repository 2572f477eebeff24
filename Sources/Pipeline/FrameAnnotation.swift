import Dock
import Tracking
import Units

/// What the tracking pipeline made of one frame, drawn over it so a person can judge the
/// tracker by watching: every track's box in a colour of its own with its id above it, the
/// primary subject's box in yellow and thicker, and the framed box (what the stand keeps in
/// the picture) in white, with a cross at the point framing steers to its target.
struct FrameAnnotation: Sendable {
    /// The tracks, pixels.
    var tracks: [TrackedObject]
    /// The primary subject, normalized top-left.
    var primary: TrackedObject?
    /// The framing, normalized top-left.
    var framing: FramingResult?

    /// The frame's pixels (`width × height` luma, and its colour when it has colour) as RGB
    /// with the annotation drawn on them.
    func draw(over luma: [UInt8], chroma: ChromaPlanes?, width: Int, height: Int) -> [UInt8] {
        var canvas = RGBCanvas(luma: luma, chroma: chroma, width: width, height: height)
        for track in tracks {
            let colour = RGBCanvas.trackColours[track.id.rawValue % RGBCanvas.trackColours.count]
            canvas.strokeBox(track.box, colour: colour, thickness: 2)
            canvas.drawNumber(
                track.id.rawValue, atX: Int(track.box.minX), bottom: Int(track.box.minY) - 2,
                colour: colour)
        }
        let size = (width: Double(width), height: Double(height))
        func pixels(_ box: BoundingBox) -> BoundingBox {
            BoundingBox(
                minX: box.minX * size.width, minY: box.minY * size.height,
                width: box.width * size.width, height: box.height * size.height)
        }
        if let primary {
            canvas.strokeBox(pixels(primary.box), colour: RGBCanvas.yellow, thickness: 4)
        }
        if let framing {
            canvas.strokeBox(pixels(framing.framedBox), colour: RGBCanvas.white, thickness: 1)
            canvas.drawCross(
                x: Int(framing.target.x * size.width), y: Int(framing.target.y * size.height),
                colour: RGBCanvas.white)
        }
        return canvas.pixels
    }
}

/// An RGB picture to draw boxes, crosses and numbers on.
struct RGBCanvas {
    typealias Colour = (red: UInt8, green: UInt8, blue: UInt8)

    static let yellow: Colour = (255, 220, 0)
    static let white: Colour = (255, 255, 255)
    /// Distinct colours for track ids.
    static let trackColours: [Colour] = [
        (230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180),
        (70, 240, 240), (240, 50, 230), (210, 245, 60), (0, 128, 128), (170, 110, 40),
    ]
    /// Digits 0–9, 3 × 5 pixels each, one row per 3 bits (top row first).
    static let digits: [[UInt8]] = [
        [7, 5, 5, 5, 7], [2, 6, 2, 2, 7], [7, 1, 7, 4, 7], [7, 1, 7, 1, 7], [5, 5, 7, 1, 1],
        [7, 4, 7, 1, 7], [7, 4, 7, 5, 7], [7, 1, 1, 1, 1], [7, 5, 7, 5, 7], [7, 5, 7, 1, 7],
    ]
    /// How many canvas pixels one font pixel covers.
    static let fontScale = 3

    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    /// The picture of `luma` (grey), or of `luma` and `chroma` in colour (full-range BT.601,
    /// as JPEG and the video source's `yuvj420p` have it).
    init(luma: [UInt8], chroma: ChromaPlanes?, width: Int, height: Int) {
        self.width = width
        self.height = height
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let count = min(luma.count, width * height)
        guard let chroma, luma.count == width * height,
            (chroma.width, chroma.height) == ChromaPlanes.size(forFrameWidth: width, height: height)
        else {
            for index in 0..<count {
                pixels[index * 3] = luma[index]
                pixels[index * 3 + 1] = luma[index]
                pixels[index * 3 + 2] = luma[index]
            }
            self.pixels = pixels
            return
        }
        func clamped(_ value: Int) -> UInt8 { UInt8(min(255, max(0, value))) }
        pixels.withUnsafeMutableBufferPointer { rgb in
            luma.withUnsafeBufferPointer { luma in
                chroma.blue.withUnsafeBufferPointer { blue in
                    chroma.red.withUnsafeBufferPointer { red in
                        for y in 0..<height {
                            let chromaRow = (y >> 1) * chroma.width
                            for x in 0..<width {
                                let index = y * width + x
                                let cb = Int(blue[chromaRow + x >> 1]) - 128
                                let cr = Int(red[chromaRow + x >> 1]) - 128
                                // In 1/1024ths: R = Y + 1.402 Cr, G = Y − 0.344 Cb − 0.714 Cr,
                                // B = Y + 1.772 Cb.
                                let grey = Int(luma[index]) << 10 + 512
                                rgb[index * 3] = clamped((grey + 1436 * cr) >> 10)
                                rgb[index * 3 + 1] = clamped((grey - 352 * cb - 731 * cr) >> 10)
                                rgb[index * 3 + 2] = clamped((grey + 1815 * cb) >> 10)
                            }
                        }
                    }
                }
            }
        }
        self.pixels = pixels
    }

    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, colour: Colour) {
        let (left, right) = (max(0, x0), min(width, x1))
        let (top, bottom) = (max(0, y0), min(height, y1))
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            for x in left..<right {
                let index = (y * width + x) * 3
                pixels[index] = colour.red
                pixels[index + 1] = colour.green
                pixels[index + 2] = colour.blue
            }
        }
    }

    mutating func strokeBox(_ box: BoundingBox, colour: Colour, thickness: Int) {
        guard box.isValid else { return }
        let (x0, y0) = (Int(box.minX.rounded()), Int(box.minY.rounded()))
        let (x1, y1) = (Int(box.maxX.rounded()), Int(box.maxY.rounded()))
        fill(x0: x0, y0: y0, x1: x1, y1: y0 + thickness, colour: colour)
        fill(x0: x0, y0: y1 - thickness, x1: x1, y1: y1, colour: colour)
        fill(x0: x0, y0: y0, x1: x0 + thickness, y1: y1, colour: colour)
        fill(x0: x1 - thickness, y0: y0, x1: x1, y1: y1, colour: colour)
    }

    mutating func drawCross(x: Int, y: Int, colour: Colour) {
        fill(x0: x - 8, y0: y, x1: x + 9, y1: y + 1, colour: colour)
        fill(x0: x, y0: y - 8, x1: x + 1, y1: y + 9, colour: colour)
    }

    /// Draws `number` with its bottom-left corner at (`x`, `bottom`), on a black plate, kept
    /// inside the picture.
    mutating func drawNumber(_ number: Int, atX x: Int, bottom: Int, colour: Colour) {
        let text = Array(String(number))
        let scale = Self.fontScale
        let plateWidth = text.count * 4 * scale + scale
        let plateHeight = 7 * scale
        let left = min(max(0, x), max(0, width - plateWidth))
        let top = min(max(0, bottom - plateHeight), max(0, height - plateHeight))
        fill(x0: left, y0: top, x1: left + plateWidth, y1: top + plateHeight, colour: (0, 0, 0))
        for (position, character) in text.enumerated() {
            guard let digit = character.wholeNumberValue else { continue }
            for (row, bits) in Self.digits[digit].enumerated() {
                for column in 0..<3 where bits & (4 >> column) != 0 {
                    let px = left + scale + (position * 4 + column) * scale
                    let py = top + scale + row * scale
                    fill(x0: px, y0: py, x1: px + scale, y1: py + scale, colour: colour)
                }
            }
        }
    }
}
