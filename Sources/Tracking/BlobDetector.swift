/// A detector that does real pixel work: it downsamples the frame by its ``scale`` (averaging
/// blocks of pixels), thresholds bright regions, labels connected regions of similar grey
/// level, and reports each region's box with a confidence from how well it fills its box and
/// how big it is.
///
/// Its cost grows with the pixels it reads (≈ frame pixels) and labels (≈ frame pixels ×
/// scale²); lower scales are cheaper and miss small or partly hidden people, which is the
/// quality the governor trades for load.
public struct BlobDetector: Detector, Sendable {
    /// The downsampling factor, in (0, 1]: 1 labels every pixel, 0.25 one pixel in 16.
    public var scale: Double
    /// Grey levels above this are foreground.
    public var threshold: Int = 105
    /// Neighbouring foreground pixels closer than this in grey level are one region.
    public var similarity: Int = 14
    /// Regions smaller than this many (downsampled) pixels are ignored.
    public var minimumPixels: Int = 6
    /// Regions thinner than this (downsampled pixels) are ignored: they are the blended
    /// blocks along the edges of a region, not objects.
    public var minimumThickness: Int = 2

    /// Creates a detector at `scale`, clamped to 0.05...1.
    public init(scale: Double = 0.5) {
        self.scale = min(1, max(0.05, scale.isFinite ? scale : 1))
    }

    /// The integer block size the scale rounds to.
    public var blockSize: Int { max(1, Int((1 / scale).rounded())) }

    /// Detections in the frame's pixel coordinates.
    public mutating func detect(in frame: GrayFrame) -> [Detection] {
        let block = blockSize
        let width = frame.width / block
        let height = frame.height / block
        guard width > 0, height > 0 else { return [] }
        // 1. Downsample by block averaging.
        var small = [Int](repeating: 0, count: width * height)
        frame.pixels.withUnsafeBufferPointer { pixels in
            let area = block * block
            for row in 0..<height {
                for column in 0..<width {
                    var sum = 0
                    for dy in 0..<block {
                        let base = (row * block + dy) * frame.width + column * block
                        for dx in 0..<block { sum += Int(pixels[base + dx]) }
                    }
                    small[row * width + column] = sum / area
                }
            }
        }
        // 2. Label connected foreground regions (4-neighbours, similar grey) with union-find.
        var parent = [Int32](repeating: -1, count: width * height)
        func find(_ node: Int) -> Int {
            var node = node
            while Int(parent[node]) != node {
                let grand = Int(parent[Int(parent[node])])
                parent[node] = Int32(grand)
                node = grand
            }
            return node
        }
        for row in 0..<height {
            for column in 0..<width {
                let index = row * width + column
                let value = small[index]
                guard value > threshold else { continue }
                parent[index] = Int32(index)
                if column > 0, parent[index - 1] >= 0, abs(small[index - 1] - value) < similarity {
                    let root = find(index - 1)
                    parent[index] = Int32(root)
                }
                if row > 0, parent[index - width] >= 0,
                    abs(small[index - width] - value) < similarity
                {
                    let a = find(index)
                    let b = find(index - width)
                    if a != b { parent[max(a, b)] = Int32(min(a, b)) }
                }
            }
        }
        // 3. Region boxes.
        struct Region {
            var minX: Int
            var minY: Int
            var maxX: Int
            var maxY: Int
            var count: Int
        }
        var regions: [Region] = []
        var regionOfRoot = [Int32](repeating: -1, count: width * height)
        for row in 0..<height {
            for column in 0..<width {
                let index = row * width + column
                guard parent[index] >= 0 else { continue }
                let root = find(index)
                let slot = Int(regionOfRoot[root])
                if slot >= 0 {
                    regions[slot].minX = min(regions[slot].minX, column)
                    regions[slot].maxX = max(regions[slot].maxX, column)
                    regions[slot].minY = min(regions[slot].minY, row)
                    regions[slot].maxY = max(regions[slot].maxY, row)
                    regions[slot].count += 1
                } else {
                    regionOfRoot[root] = Int32(regions.count)
                    regions.append(
                        Region(minX: column, minY: row, maxX: column, maxY: row, count: 1))
                }
            }
        }
        var detections: [Detection] = []
        let scaleBack = Double(block)
        for region in regions where region.count >= minimumPixels {
            let boxWidth = region.maxX - region.minX + 1
            let boxHeight = region.maxY - region.minY + 1
            guard boxWidth >= minimumThickness, boxHeight >= minimumThickness else { continue }
            let fill = Double(region.count) / Double(boxWidth * boxHeight)
            // People are upright, about 0.3 as wide as tall; odd shapes are less likely people.
            let aspect = Double(boxWidth) / Double(boxHeight)
            let shape = max(0, 1 - abs(aspect - 0.3) / 0.6)
            let size = min(1, Double(region.count) / Double(minimumPixels * 4))
            let confidence = min(1, max(0, fill * (0.55 + 0.45 * shape) * (0.6 + 0.4 * size)))
            detections.append(
                Detection(
                    box: BoundingBox(
                        minX: Double(region.minX) * scaleBack,
                        minY: Double(region.minY) * scaleBack,
                        width: Double(boxWidth) * scaleBack, height: Double(boxHeight) * scaleBack),
                    confidence: confidence, kind: .humanBody))
        }
        return detections
    }
}
