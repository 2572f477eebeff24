/// A detector of moving things for a camera that holds still: it keeps an adaptive model of
/// the background and reports the regions of the frame that differ from it, one box per
/// connected region.
///
/// Each frame goes through five steps, all on buffers kept from frame to frame:
/// 1. **Downsampling** by ``scale`` (averaging blocks of ``blockSize`` × ``blockSize`` pixels),
///    as ``BlobDetector`` does: the scale is the governor's inference knob.
/// 2. **Brightness compensation** (``compensatesBrightness``): the median difference between a
///    sparse sample of pixels and the model is a change of the whole scene's brightness (the
///    camera's exposure, a cloud) and is subtracted before the test below.
/// 3. **Background model**, per downsampled pixel: a running mean μ and variance σ². A pixel
///    is foreground when |pixel − μ| > max(``minimumDifference``, ``deviationThreshold`` · σ).
///    Background pixels learn at ``backgroundLearningRate`` (mean and variance); foreground
///    pixels learn their mean at the ten times slower ``foregroundLearningRate`` and their
///    variance not at all, so someone who stops is not absorbed at once.
/// 4. **Cleanup** of the binary mask, bit-packed: a 3 × 3 opening (removes specks thinner than
///    three pixels) then a 3 × 3 closing (fills one-pixel cracks in a silhouette).
/// 5. **Connected components**, 8-connected, labelled run by run with union-find; each
///    component with at least ``minimumAreaFraction`` of the frame's area becomes a detection
///    (see ``confidence(pixels:boxArea:minimumPixels:)`` for its confidence)…
/// 6. …unless it is a **ghost** (see ``ghostEdgeRatio``): the model's memory of something
///    that has left, whose outline is sharp in the model and not in the frame. Its pixels
///    are made background at once.
///
/// The first ``warmUpFrames`` frames only form the model and return no detections; so do the
/// first frames after the downsampled size changes (a new ``scale`` or frame size), which
/// starts a new model. Cost: one pass over the frame's pixels plus work proportional to the
/// downsampled pixels (≈ frame pixels × scale²) and to the foreground's runs.
public struct MotionDetector: Detector, Sendable {
    /// The downsampling factor, in 0.05...1: 1 models every pixel, 0.5 one per 2 × 2 block.
    /// May change between frames; a change of the resulting block size restarts the model.
    public var scale: Double
    /// Frames used only to form the model after a start or restart; they return no
    /// detections. A pixel's mean is the running average of the frames in which it looked
    /// like the first frame's (within the foreground test), so the model is usable after
    /// them; what moved since the first frame leaves a ghost that step 6 removes.
    public var warmUpFrames: Int = 10
    /// The fraction of the way a background pixel's mean and variance move toward the new
    /// frame each frame: the model forgets with a time constant of 1 / rate frames (50 at the
    /// default, 5 s at 10 frames/s). Gradual lighting changes are followed at this pace.
    public var backgroundLearningRate: Double = 0.02
    /// The same for a foreground pixel's mean (its variance is kept): a time constant of
    /// 1 / rate frames (500 at the default, 50 s at 10 frames/s). Someone who stands still
    /// fades into the background after one or two time constants, the more the more they
    /// differ from it.
    public var foregroundLearningRate: Double = 0.002
    /// How many standard deviations from the mean a pixel must be to be foreground.
    public var deviationThreshold: Double = 3
    /// The least difference from the mean, in grey levels, that makes a pixel foreground,
    /// whatever its variance: sensor noise and compression artefacts stay below it.
    public var minimumDifference: Double = 12
    /// The smallest standard deviation the model keeps, in grey levels (it is only a floor:
    /// with the defaults ``minimumDifference`` decides for pixels this quiet).
    public var minimumDeviation: Double = 2
    /// The largest standard deviation the model keeps, in grey levels, so a pixel that once
    /// flickered does not stay blind.
    public var maximumDeviation: Double = 24
    /// Whether a change of the whole frame's brightness is subtracted before the test.
    public var compensatesBrightness: Bool = true
    /// Regions with fewer foreground pixels than this fraction of the frame's area are
    /// ignored (0.0004 is ≈ 177 pixels of a 768 × 576 frame, a 13 × 13 square).
    public var minimumAreaFraction: Double = 0.0004

    /// Regions whose outline has less contrast in the frame than this fraction of its
    /// contrast in the background model are ghosts: the model still shows something that
    /// has left (someone present while the model formed, a parked car that drove off). They
    /// are not reported, and the model takes the frame's pixels there at once.
    public var ghostEdgeRatio: Double = 0.5

    /// The model and the scratch buffers, kept between frames.
    private var state = State()

    /// Creates a detector at `scale`, clamped to 0.05...1 (1 when not finite).
    public init(scale: Double = 1) {
        self.scale = min(1, max(0.05, scale.isFinite ? scale : 1))
    }

    /// The integer block size the scale rounds to, ≥ 1.
    public var blockSize: Int {
        let clamped = min(1, max(0.05, scale.isFinite ? scale : 1))
        return max(1, Int((1 / clamped).rounded()))
    }

    /// Whether the model is still forming: the next frame returns no detections.
    public var isWarmingUp: Bool { state.framesModelled < warmUpFrames }

    /// The moving regions of `frame`, in its pixel coordinates (top-left origin); empty while
    /// warming up and for frames smaller than one block.
    public mutating func detect(in frame: GrayFrame) -> [Detection] {
        let block = blockSize
        let width = frame.width / block
        let height = frame.height / block
        guard width > 0, height > 0, frame.pixels.count >= frame.width * frame.height else {
            return []
        }
        // The state and the downsampled frame move into locals for the frame, so the buffers
        // are uniquely referenced (no copy on write) and the passes can borrow them freely.
        var state = State()
        swap(&state, &self.state)
        defer { swap(&state, &self.state) }
        if state.width != width || state.height != height || state.block != block {
            state.reset(width: width, height: height, block: block)
        }
        var small: [UInt8] = []
        swap(&small, &state.small)
        defer { swap(&small, &state.small) }
        let model = ModelParameters(self, warmUpFrame: state.framesModelled)
        let minimumPixels = max(
            1, minimumAreaFraction * Double(frame.width * frame.height) / Double(block * block))
        frame.pixels.withUnsafeBufferPointer { pixels in
            small.withUnsafeMutableBufferPointer { small in
                var input = pixels.baseAddress!
                if block > 1 {
                    state.downsample(input, frameWidth: frame.width, into: small.baseAddress!)
                    input = UnsafePointer(small.baseAddress!)
                }
                state.updateModel(with: input, model)
                guard !model.isLearning else { return }
                state.cleanUpMask()
                state.label()
                state.forgetGhosts(
                    input: input, minimumPixels: minimumPixels, edgeRatio: Float(ghostEdgeRatio))
            }
        }
        guard !model.isLearning else { return [] }
        return state.components.compactMap { component in
            guard Double(component.count) >= minimumPixels, !component.isGhost else { return nil }
            let boxWidth = Int(component.maxX - component.minX) + 1
            let boxHeight = Int(component.maxY - component.minY) + 1
            return Detection(
                box: BoundingBox(
                    minX: Double(Int(component.minX) * block),
                    minY: Double(Int(component.minY) * block),
                    width: Double(boxWidth * block), height: Double(boxHeight * block)),
                confidence: Self.confidence(
                    pixels: Double(component.count), boxArea: Double(boxWidth * boxHeight),
                    minimumPixels: minimumPixels),
                kind: .humanBody)
        }
    }

    /// The confidence of a region of `pixels` foreground pixels in a box of `boxArea` pixels,
    /// where `minimumPixels` is the least a region may have: the fill ratio, counted in full
    /// from half the box up (a walking person fills 50–70 % of their box, a cluster of
    /// noise much less), times a size term from 0.5 at the minimum to 1 at four times it
    /// (small regions are more often noise or a fragment). In 0...1.
    public static func confidence(pixels: Double, boxArea: Double, minimumPixels: Double)
        -> Double
    {
        guard pixels > 0, boxArea > 0, minimumPixels > 0 else { return 0 }
        let fill = min(1, pixels / boxArea / 0.5)
        let size = min(1, max(0, (pixels - minimumPixels) / (3 * minimumPixels)))
        return min(1, max(0, fill * (0.5 + 0.5 * size)))
    }
}

// MARK: - State

extension MotionDetector {
    /// The background model of one downsampled size and the buffers reused every frame.
    private struct State: Sendable {
        var width = 0
        var height = 0
        var block = 0
        /// Frames the model has seen since it was (re)started.
        var framesModelled = 0
        /// Per downsampled pixel: the background's mean and variance, in grey levels.
        var mean: [Float] = []
        var variance: [Float] = []
        /// The downsampled frame and the column sums that make it (unused at block size 1).
        var small: [UInt8] = []
        var sums: [UInt32] = []
        /// The model's verdict per pixel, 0 or 1.
        var mask: [UInt8] = []
        /// The mask bit-packed, 64 pixels a word, rows padded to whole words; and a second
        /// buffer for the morphology's passes.
        var bits: [UInt64] = []
        var scratch: [UInt64] = []
        /// Frame − mean differences of the brightness sample, offset by 255.
        var histogram: [Int32] = []
        /// The foreground's runs, row by row, and their union-find parents.
        var runs: [Run] = []
        var parents: [Int32] = []
        /// The component of each run (filled in run order; a root precedes its runs).
        var slots: [Int32] = []
        /// The connected components of the last frame.
        var components: [Component] = []

        mutating func reset(width: Int, height: Int, block: Int) {
            self.width = width
            self.height = height
            self.block = block
            framesModelled = 0
            let count = width * height
            let words = (width + 63) / 64 * height
            mean = [Float](repeating: 0, count: count)
            variance = [Float](repeating: 0, count: count)
            small = block == 1 ? [0] : [UInt8](repeating: 0, count: count)
            sums = [UInt32](repeating: 0, count: width * block)
            mask = [UInt8](repeating: 0, count: count)
            bits = [UInt64](repeating: 0, count: words)
            scratch = [UInt64](repeating: 0, count: words)
            histogram = [Int32](repeating: 0, count: 511)
        }

        /// Averages the frame's `block` × `block` blocks into `small` (`width` × `height`).
        mutating func downsample(
            _ pixels: UnsafePointer<UInt8>, frameWidth: Int, into small: UnsafeMutablePointer<UInt8>
        ) {
            let (width, height, block) = (width, height, block)
            sums.withUnsafeMutableBufferPointer { sums in
                MotionDetector.downsample(
                    pixels, frameWidth: frameWidth, block: block, into: small, width: width,
                    height: height, sums: sums.baseAddress!)
            }
        }

        /// Classifies every pixel of `input` (the downsampled frame) into ``mask`` and updates
        /// the model with it.
        mutating func updateModel(with input: UnsafePointer<UInt8>, _ model: ModelParameters) {
            let count = width * height
            mean.withUnsafeMutableBufferPointer { mean in
                var offset: Float = 0
                if !model.isFirst, model.compensatesBrightness {
                    offset = histogram.withUnsafeMutableBufferPointer { histogram in
                        MotionDetector.medianDifference(
                            input, mean.baseAddress!, count: count,
                            histogram: histogram.baseAddress!)
                    }
                }
                variance.withUnsafeMutableBufferPointer { variance in
                    mask.withUnsafeMutableBufferPointer { mask in
                        MotionDetector.classify(
                            input, mean: mean.baseAddress!, variance: variance.baseAddress!,
                            mask: mask.baseAddress!, count: count, offset: offset, model: model)
                    }
                }
            }
            framesModelled += 1
        }

        /// Packs ``mask`` into ``bits``, then a 3 × 3 opening (erode, dilate) removes specks
        /// and a 3 × 3 closing (dilate, erode) fills cracks.
        mutating func cleanUpMask() {
            let morphology = Morphology(width: width, height: height)
            mask.withUnsafeBufferPointer { mask in
                bits.withUnsafeMutableBufferPointer { bits in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        let bits = bits.baseAddress!
                        let scratch = scratch.baseAddress!
                        MotionDetector.pack(
                            mask.baseAddress!, width: morphology.width,
                            height: morphology.height, into: bits)
                        for eroding in [true, false, false, true] {
                            morphology.horizontal(bits, into: scratch, eroding: eroding)
                            morphology.vertical(scratch, into: bits, eroding: eroding)
                        }
                    }
                }
            }
        }

        /// Labels the 8-connected components of ``bits`` into ``components``.
        mutating func label() {
            let wordsPerRow = (width + 63) / 64
            runs.removeAll(keepingCapacity: true)
            parents.removeAll(keepingCapacity: true)
            components.removeAll(keepingCapacity: true)
            let width = width
            let bits = bits
            bits.withUnsafeBufferPointer { bits in
                var previousRow = 0..<0
                for row in 0..<height {
                    let first = runs.count
                    Self.appendRuns(
                        of: bits.baseAddress! + row * wordsPerRow, words: wordsPerRow,
                        width: width, row: row, to: &runs)
                    for index in first..<runs.count { parents.append(Int32(index)) }
                    let currentRow = first..<runs.count
                    joinRuns(currentRow, with: previousRow)
                    previousRow = currentRow
                }
            }
            slots.removeAll(keepingCapacity: true)
            for index in runs.indices {
                let run = runs[index]
                let root = find(index)
                if root == index {
                    slots.append(Int32(components.count))
                    components.append(
                        Component(
                            minX: run.start, minY: run.row, maxX: run.end, maxY: run.row,
                            count: Int(run.end - run.start) + 1))
                } else {
                    slots.append(slots[root])
                    components[Int(slots[root])].add(run)
                }
            }
        }

        /// Marks the components of at least `minimumPixels` whose outline has less contrast
        /// in the frame (`input`) than `edgeRatio` times its contrast in the model's mean, and
        /// makes the frame the model's mean under them (and one pixel either side): what the
        /// model shows there has left.
        ///
        /// The contrast is taken at each run's left and right end, two pixels outside
        /// against one inside, which spans the pixel the cleanup may have moved the outline.
        mutating func forgetGhosts(
            input: UnsafePointer<UInt8>, minimumPixels: Double, edgeRatio: Float
        ) {
            let width = width
            mean.withUnsafeMutableBufferPointer { mean in
                for index in runs.indices {
                    let run = runs[index]
                    let base = Int(run.row) * width
                    let start = Int(run.start)
                    let end = Int(run.end)
                    var frame: Float = 0
                    var model: Float = 0
                    if start >= 2 {
                        let inside = base + min(start + 1, end)
                        let outside = base + start - 2
                        frame += abs(Float(input[inside]) - Float(input[outside]))
                        model += abs(mean[inside] - mean[outside])
                    }
                    if end + 2 < width {
                        let inside = base + max(end - 1, start)
                        let outside = base + end + 2
                        frame += abs(Float(input[inside]) - Float(input[outside]))
                        model += abs(mean[inside] - mean[outside])
                    }
                    let slot = Int(slots[index])
                    components[slot].frameEdges += frame
                    components[slot].modelEdges += model
                }
                for slot in components.indices {
                    let component = components[slot]
                    components[slot].isGhost =
                        Double(component.count) >= minimumPixels
                        && component.frameEdges < edgeRatio * component.modelEdges
                }
                for index in runs.indices where components[Int(slots[index])].isGhost {
                    let run = runs[index]
                    let base = Int(run.row) * width
                    for column in max(0, Int(run.start) - 1)...min(width - 1, Int(run.end) + 1) {
                        mean[base + column] = Float(input[base + column])
                    }
                }
            }
        }

        /// Unions each run of `current` with the runs of `previous` it touches, diagonals
        /// included (8-connectivity: columns overlap when widened by one).
        private mutating func joinRuns(_ current: Range<Int>, with previous: Range<Int>) {
            var candidate = previous.lowerBound
            for index in current {
                let run = runs[index]
                while candidate < previous.upperBound, runs[candidate].end + 1 < run.start {
                    candidate += 1
                }
                var above = candidate
                while above < previous.upperBound, runs[above].start <= run.end + 1 {
                    union(index, above)
                    above += 1
                }
            }
        }

        private mutating func find(_ index: Int) -> Int {
            var node = index
            while Int(parents[node]) != node {
                let grandparent = parents[Int(parents[node])]
                parents[node] = grandparent
                node = Int(grandparent)
            }
            return node
        }

        /// Joins two sets; the smaller index is the root, so a root is a component's first run.
        private mutating func union(_ a: Int, _ b: Int) {
            let rootA = find(a)
            let rootB = find(b)
            if rootA != rootB { parents[max(rootA, rootB)] = Int32(min(rootA, rootB)) }
        }

        /// Appends the runs of set bits in one bit-packed row (bits past `width` are clear).
        private static func appendRuns(
            of words: UnsafePointer<UInt64>, words count: Int, width: Int, row: Int,
            to runs: inout [Run]
        ) {
            var start = -1
            for wordIndex in 0..<count {
                let word = words[wordIndex]
                let base = wordIndex * 64
                var position = 0
                while position < 64 {
                    if start >= 0 {
                        let rest = ~word &>> UInt64(position)
                        if rest == 0 { break }
                        let end = position + rest.trailingZeroBitCount
                        runs.append(
                            Run(row: Int32(row), start: Int32(start), end: Int32(base + end - 1)))
                        start = -1
                        position = end
                    } else {
                        let rest = word &>> UInt64(position)
                        if rest == 0 { break }
                        position += rest.trailingZeroBitCount
                        start = base + position
                    }
                }
            }
            if start >= 0 {
                runs.append(Run(row: Int32(row), start: Int32(start), end: Int32(width - 1)))
            }
        }
    }

    /// A horizontal run of foreground pixels, columns `start...end` of `row`.
    private struct Run: Sendable {
        var row: Int32
        var start: Int32
        var end: Int32
    }

    /// A connected component: its box (inclusive, downsampled pixels) and pixel count.
    private struct Component: Sendable {
        var minX: Int32
        var minY: Int32
        var maxX: Int32
        var maxY: Int32
        var count: Int
        /// The contrast across the component's left and right outline, summed over its runs:
        /// in the frame, and in the background model.
        var frameEdges: Float = 0
        var modelEdges: Float = 0
        /// Whether the component is what the model remembers of something that has left.
        var isGhost = false

        mutating func add(_ run: Run) {
            minX = min(minX, run.start)
            maxX = max(maxX, run.end)
            minY = min(minY, run.row)
            maxY = max(maxY, run.row)
            count += Int(run.end - run.start) + 1
        }
    }
}

// MARK: - Pixel passes

extension MotionDetector {
    /// The model's settings for one frame, as the hot loop wants them.
    private struct ModelParameters {
        /// Whether this frame still forms the model (warm-up): no detections.
        var isLearning: Bool
        var compensatesBrightness: Bool
        /// The learning rates of background and foreground pixels for this frame.
        var backgroundRate: Float
        var foregroundRate: Float
        /// Whether this is the model's first frame: the mean starts at the frame.
        var isFirst: Bool
        var squaredThreshold: Float
        var squaredMinimumDifference: Float
        var minimumVariance: Float
        var maximumVariance: Float

        init(_ detector: MotionDetector, warmUpFrame: Int) {
            isLearning = warmUpFrame < detector.warmUpFrames
            compensatesBrightness = detector.compensatesBrightness
            isFirst = warmUpFrame == 0
            backgroundRate = Float(min(1, max(0, detector.backgroundLearningRate)))
            foregroundRate = Float(min(1, max(0, detector.foregroundLearningRate)))
            if isLearning {
                // The background is the running average of the frames so far; what differs
                // from it already (something that moved since the first frame) is not
                // averaged in, so it leaves a sharp ghost the outline test can tell, not a
                // smear.
                backgroundRate = max(1 / Float(warmUpFrame + 1), backgroundRate)
            }
            let threshold = Float(max(0, detector.deviationThreshold))
            squaredThreshold = threshold * threshold
            let difference = Float(max(0, detector.minimumDifference))
            squaredMinimumDifference = difference * difference
            let lowest = Float(max(0.5, detector.minimumDeviation))
            let highest = Float(max(Double(lowest), detector.maximumDeviation))
            minimumVariance = lowest * lowest
            maximumVariance = highest * highest
        }
    }

    /// Averages `block` × `block` blocks of the frame into `small` (`width` × `height`): the
    /// block's rows are summed column by column into `sums` (`width · block` entries), then
    /// each block's columns.
    private static func downsample(
        _ pixels: UnsafePointer<UInt8>, frameWidth: Int, block: Int,
        into small: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
        sums: UnsafeMutablePointer<UInt32>
    ) {
        let area = UInt32(block * block)
        // Sums up to 255 · 400 times this reciprocal stay below 2³².
        let reciprocal = ((1 << 16) + area - 1) / area
        let span = width * block
        for row in 0..<height {
            let top = pixels + row * block * frameWidth
            for column in 0..<span { sums[column] = UInt32(top[column]) }
            for dy in 1..<block {
                let source = top + dy * frameWidth
                for column in 0..<span { sums[column] &+= UInt32(source[column]) }
            }
            let output = small + row * width
            if block == 2 {
                for column in 0..<width {
                    let sum = sums[2 * column] &+ sums[2 * column + 1]
                    output[column] = UInt8(truncatingIfNeeded: (sum &+ 2) >> 2)
                }
            } else {
                for column in 0..<width {
                    var sum: UInt32 = 0
                    for dx in 0..<block { sum &+= sums[column * block + dx] }
                    output[column] = UInt8(truncatingIfNeeded: (sum &* reciprocal &+ 32_768) >> 16)
                }
            }
        }
    }

    /// The median of frame − mean over a sparse sample of about 1,000 pixels, in grey levels:
    /// the part of every pixel's difference that is the whole scene's brightness. (More
    /// samples cost cache misses, not accuracy: the median is found to a grey level.)
    private static func medianDifference(
        _ input: UnsafePointer<UInt8>, _ mean: UnsafePointer<Float>, count: Int,
        histogram: UnsafeMutablePointer<Int32>
    ) -> Float {
        histogram.update(repeating: 0, count: 511)
        // An odd stride, so the sample is not a few columns of an even-width frame.
        let step = max(1, count / 1_024) | 1
        var samples: Int32 = 0
        var index = 0
        while index < count {
            // The mean is ≥ 0, so adding a half and truncating rounds it.
            let difference = Int(input[index]) - Int(mean[index] + 0.5)
            histogram[difference + 255] += 1
            samples += 1
            index += step
        }
        var seen: Int32 = 0
        for bin in 0..<511 {
            seen += histogram[bin]
            if 2 * seen >= samples { return Float(bin - 255) }
        }
        return 0
    }

    /// The background model's pass: classifies every pixel and updates its mean and variance.
    private static func classify(
        _ input: UnsafePointer<UInt8>, mean: UnsafeMutablePointer<Float>,
        variance: UnsafeMutablePointer<Float>, mask: UnsafeMutablePointer<UInt8>, count: Int,
        offset: Float, model: ModelParameters
    ) {
        if model.isFirst {
            for index in 0..<count {
                mean[index] = Float(input[index])
                variance[index] = model.minimumVariance
                mask[index] = 0
            }
            return
        }
        let backgroundRate = model.backgroundRate
        let foregroundRate = model.foregroundRate
        let squaredThreshold = model.squaredThreshold
        let squaredMinimumDifference = model.squaredMinimumDifference
        let minimumVariance = model.minimumVariance
        let maximumVariance = model.maximumVariance
        for index in 0..<count {
            let value = Float(input[index])
            let average = mean[index]
            let spread = variance[index]
            let raw = value - average
            let difference = raw - offset
            let squared = difference * difference
            let isForeground = squared > max(squaredMinimumDifference, squaredThreshold * spread)
            mask[index] = isForeground ? 1 : 0
            // The mean follows the raw frame (a global brightness change is learned), the
            // variance only the compensated difference, and only where background was seen.
            mean[index] = average + (isForeground ? foregroundRate : backgroundRate) * raw
            let learned = spread + (isForeground ? 0 : backgroundRate) * (squared - spread)
            variance[index] = min(maximumVariance, max(minimumVariance, learned))
        }
    }

    /// Packs a 0/1 byte mask into bits, 64 pixels a word (bit i of a word is pixel 64w + i),
    /// each row starting a new word; the padding bits are clear.
    private static func pack(
        _ mask: UnsafePointer<UInt8>, width: Int, height: Int,
        into bits: UnsafeMutablePointer<UInt64>
    ) {
        let wordsPerRow = (width + 63) / 64
        for row in 0..<height {
            let source = mask + row * width
            let target = bits + row * wordsPerRow
            for wordIndex in 0..<wordsPerRow {
                let start = wordIndex * 64
                var word: UInt64 = 0
                if width - start >= 64 {
                    let raw = UnsafeRawPointer(source + start)
                    for group in 0..<8 {
                        let bytes = UInt64(
                            littleEndian: raw.loadUnaligned(
                                fromByteOffset: group * 8, as: UInt64.self))
                        // Eight 0/1 bytes to eight bits: byte i lands on bit 56 + i.
                        word |= ((bytes &* 0x0102_0408_1020_4080) &>> 56) &<< UInt64(group * 8)
                    }
                } else {
                    for bit in 0..<(width - start) where source[start + bit] != 0 {
                        word |= 1 &<< UInt64(bit)
                    }
                }
                target[wordIndex] = word
            }
        }
    }

    /// 3 × 3 erosion and dilation of a bit-packed mask as two separable passes. Outside the
    /// frame counts as foreground for erosion and background for dilation (OpenCV's
    /// convention), so neither pass eats regions that touch the border.
    private struct Morphology {
        var width: Int
        var height: Int
        var wordsPerRow: Int
        /// The valid bits of each row's last word.
        var lastWordMask: UInt64

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            wordsPerRow = (width + 63) / 64
            let used = width - (wordsPerRow - 1) * 64
            lastWordMask = used == 64 ? ~0 : (1 &<< UInt64(used)) &- 1
        }

        /// Each pixel becomes the AND (eroding) or OR of itself and its left and right
        /// neighbours.
        func horizontal(
            _ source: UnsafePointer<UInt64>, into target: UnsafeMutablePointer<UInt64>,
            eroding: Bool
        ) {
            let outside: UInt64 = eroding ? ~0 : 0
            let last = wordsPerRow - 1
            for row in 0..<height {
                let words = source + row * wordsPerRow
                let output = target + row * wordsPerRow
                var previous = outside
                var current = words[0]
                if last == 0 { current |= outside & ~lastWordMask }
                for index in 0...last {
                    var next = outside
                    if index < last {
                        next = words[index + 1]
                        if index + 1 == last { next |= outside & ~lastWordMask }
                    }
                    let left = (current &<< 1) | (previous &>> 63)
                    let right = (current &>> 1) | (next &<< 63)
                    let combined =
                        eroding ? current & left & right : current | left | right
                    output[index] = index == last ? combined & lastWordMask : combined
                    previous = current
                    current = next
                }
            }
        }

        /// Each pixel becomes the AND (eroding) or OR of itself and the pixels above and below.
        func vertical(
            _ source: UnsafePointer<UInt64>, into target: UnsafeMutablePointer<UInt64>,
            eroding: Bool
        ) {
            let outside: UInt64 = eroding ? ~0 : 0
            for row in 0..<height {
                let above = row > 0 ? source + (row - 1) * wordsPerRow : nil
                let middle = source + row * wordsPerRow
                let below = row + 1 < height ? source + (row + 1) * wordsPerRow : nil
                let output = target + row * wordsPerRow
                for index in 0..<wordsPerRow {
                    let up = above?[index] ?? outside
                    let down = below?[index] ?? outside
                    let mask = index == wordsPerRow - 1 ? lastWordMask : ~0
                    output[index] =
                        (eroding ? up & middle[index] & down : up | middle[index] | down) & mask
                }
            }
        }
    }
}
