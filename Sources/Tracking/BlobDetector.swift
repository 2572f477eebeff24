import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

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
        // 4. Wide regions are people side by side in one grey: split them where the
        // silhouette's top or bottom edge jumps. Then join the parts of two-tone bodies.
        var pieces: [Region] = []
        for (slot, region) in regions.enumerated() {
            guard Double(region.width) > 0.45 * Double(region.height), region.width >= 4 else {
                pieces.append(region)
                continue
            }
            var tops = [Int](repeating: Int.max, count: region.width)
            var bottoms = [Int](repeating: Int.min, count: region.width)
            var counts = [Int](repeating: 0, count: region.width)
            for row in region.minY...region.maxY {
                for column in region.minX...region.maxX {
                    let index = row * width + column
                    guard parent[index] >= 0, Int(regionOfRoot[find(index)]) == slot else {
                        continue
                    }
                    let offset = column - region.minX
                    tops[offset] = min(tops[offset], row)
                    bottoms[offset] = max(bottoms[offset], row)
                    counts[offset] += 1
                }
            }
            pieces += Self.splitAtSilhouetteSteps(
                region, tops: tops, bottoms: bottoms, counts: counts)
        }
        regions = Self.joiningStackedParts(pieces)
        var detections: [Detection] = []
        let scaleBack = Double(block)
        for region in regions where region.count >= minimumPixels {
            let boxWidth = region.maxX - region.minX + 1
            let boxHeight = region.maxY - region.minY + 1
            guard boxWidth >= minimumThickness, boxHeight >= minimumThickness else { continue }
            let fill = Double(region.count) / Double(boxWidth * boxHeight)
            // People are upright, about 0.3 as wide as tall; odd shapes are less likely people.
            // The shape score falls with the ratio to that, not the difference: a sliver a
            // third as wide (the edge of someone hidden or leaving the frame) scores 0 and is
            // too unsure to start a track, though it may continue one.
            let aspect = Double(boxWidth) / Double(boxHeight)
            let shape = max(0, 1 - abs(log(aspect / 0.3)) / log(3))
            let size = min(1, Double(region.count) / Double(minimumPixels * 4))
            let confidence = min(1, max(0, fill * (0.3 + 0.7 * shape) * (0.6 + 0.4 * size)))
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

    /// A labelled region: its box in downsampled pixels and its pixel count.
    struct Region {
        var minX: Int
        var minY: Int
        var maxX: Int
        var maxY: Int
        var count: Int

        var width: Int { maxX - minX + 1 }
        var height: Int { maxY - minY + 1 }

        /// Whether `lower` continues this region downward as another part of one body: it
        /// starts at most two rows below this one's bottom, and both cover nearly the same
        /// columns (widths within 10 %: an upper body and the legs under it in a different
        /// grey; the head of someone behind, wider or narrower, is not joined).
        func isStacked(on lower: Region) -> Bool {
            let gap = lower.minY - maxY
            guard gap >= -1, gap <= 2 else { return false }
            let overlap = min(maxX, lower.maxX) - max(minX, lower.minX) + 1
            let narrower = min(width, lower.width)
            let wider = max(width, lower.width)
            return Double(overlap) >= 0.9 * Double(narrower)
                && Double(narrower) >= 0.9 * Double(wider)
        }

        func joined(with other: Region) -> Region {
            Region(
                minX: min(minX, other.minX), minY: min(minY, other.minY),
                maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY),
                count: count + other.count)
        }
    }

    /// Splits `region` into column ranges where the top or bottom edge of its silhouette
    /// (`tops`, `bottoms`: the first and last row per column; `counts`: pixels per column)
    /// jumps by more than a tenth of its height between neighbouring columns: where one
    /// person's outline ends and another's, nearer or taller, begins.
    static func splitAtSilhouetteSteps(
        _ region: Region, tops: [Int], bottoms: [Int], counts: [Int]
    ) -> [Region] {
        let step = max(2, region.height / 10)
        var pieces: [Region] = []
        var start = 0
        func close(_ end: Int) {
            let columns = start..<end
            let filled = columns.filter { counts[$0] > 0 }
            guard let first = filled.first, let last = filled.last else { return }
            pieces.append(
                Region(
                    minX: region.minX + first, minY: filled.map { tops[$0] }.min()!,
                    maxX: region.minX + last, maxY: filled.map { bottoms[$0] }.max()!,
                    count: filled.reduce(0) { $0 + counts[$1] }))
        }
        for column in 1..<counts.count where counts[column] > 0 && counts[column - 1] > 0 {
            if abs(tops[column] - tops[column - 1]) > step
                || abs(bottoms[column] - bottoms[column - 1]) > step
            {
                close(column)
                start = column
            }
        }
        close(counts.count)
        return pieces
    }

    /// Joins regions stacked one on another (see ``Region/isStacked(on:)``) until none are:
    /// clothes of two greys label as two regions, and a person is one detection.
    static func joiningStackedParts(_ regions: [Region]) -> [Region] {
        var regions = regions.sorted { $0.minY < $1.minY }
        var joinedAny = true
        while joinedAny {
            joinedAny = false
            search: for upper in regions.indices {
                for lower in regions.indices where lower != upper {
                    if regions[upper].isStacked(on: regions[lower]) {
                        regions[upper] = regions[upper].joined(with: regions[lower])
                        regions.remove(at: lower)
                        joinedAny = true
                        break search
                    }
                }
            }
        }
        return regions
    }
}
