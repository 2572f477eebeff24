import Units

#if canImport(Glibc)
    import Glibc
#endif

/// What an output holds once initialized: buffer pools faulted in, pipelines warmed up, and
/// storage preallocated, each sized by the camera's format and frame rate.
///
/// This is the work deferred start moves out of the way of the first preview frame. It is real
/// work: every pool page is written (so the kernel maps it now, not on the first frame), and
/// warm-up passes run the output's per-frame computation once over a full-size frame.
public struct OutputResources: Sendable {
    /// The output's kind.
    public var kind: OutputKind
    /// The buffers of the output's pool, each written once.
    public var buffers: [[UInt8]]
    /// The preview's display size (the frame scaled to fit 1920×1080), or the frame size.
    public var displayWidth: Int
    /// The preview's display height, or the frame height.
    public var displayHeight: Int
    /// For a movie: the file preallocated for its first seconds, removed by ``release()``.
    public var storagePath: String?
    /// A digest of the warm-up pass, so the optimizer cannot drop it; no meaning of its own.
    public var warmUpDigest: UInt64

    /// Bytes held in buffer pools.
    public var pooledBytes: Int { buffers.reduce(0) { $0 + $1.count } }

    /// The largest preview size; frames are scaled down to fit it.
    public static let maximumDisplaySize = (width: 1920, height: 1080)

    /// Initializes `kind` for frames of `camera`: allocates and faults in its buffer pool
    /// (preview: 3 display-size BGRA buffers; video data: 4 frames; photo: 2 frames plus a
    /// filter warm-up over a full frame; movie: 8 frames plus a reference, a motion-search
    /// warm-up and `storageSeconds` of preallocated storage in `storageDirectory`).
    ///
    /// - Throws: ``OutputInitializationError`` when the movie's storage cannot be preallocated.
    public static func initialize(
        _ kind: OutputKind, camera: CameraConfiguration, storageDirectory: String,
        storageSeconds: Double = 2
    ) throws(OutputInitializationError) -> OutputResources {
        let format = camera.format
        let (displayWidth, displayHeight) = displaySize(width: format.width, height: format.height)
        var resources = OutputResources(
            kind: kind, buffers: [], displayWidth: format.width, displayHeight: format.height,
            storagePath: nil, warmUpDigest: 0)
        let pooled = pool(of: kind, camera: camera)
        resources.buffers = (0..<pooled.count).map { index in
            [UInt8](repeating: UInt8(truncatingIfNeeded: index + 1), count: pooled.bytes)
        }
        switch kind {
        case .preview:
            resources.displayWidth = displayWidth
            resources.displayHeight = displayHeight
        case .videoData:
            break
        case .photo:
            resources.warmUpDigest = boxFilterWarmUp(width: format.width, height: format.height)
        case .movie:
            resources.warmUpDigest = motionSearchWarmUp(width: format.width, height: format.height)
            // About 0.1 bit per pixel: the bitrate of a good H.264 encode.
            let bytesPerSecond = format.pixelsPerSecond(at: camera.frameRate) * 0.1 / 8
            resources.storagePath = try preallocate(
                bytes: Int(bytesPerSecond * storageSeconds), in: storageDirectory)
        }
        return resources
    }

    /// Gives back what the output holds outside memory (the movie's preallocated file).
    public func release() {
        if let storagePath { unlink(storagePath) }
    }

    /// `width × height` scaled to fit ``maximumDisplaySize``, keeping the aspect ratio.
    public static func displaySize(width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = min(
            1,
            min(
                Double(maximumDisplaySize.width) / Double(width),
                Double(maximumDisplaySize.height) / Double(height)))
        return (max(Int(Double(width) * scale), 1), max(Int(Double(height) * scale), 1))
    }

    /// The buffer pool of `kind` for `camera`: how many buffers of how many bytes (preview: 3
    /// display-size BGRA buffers; video data: 4 frames; photo: 2; movie: 8 plus a reference).
    static func pool(of kind: OutputKind, camera: CameraConfiguration) -> (count: Int, bytes: Int) {
        let format = camera.format
        let frameBytes = Int(format.bytesPerFrame.rounded(.up))
        switch kind {
        case .preview:
            let display = displaySize(width: format.width, height: format.height)
            return (3, display.width * display.height * 4)
        case .videoData: return (4, frameBytes)
        case .photo: return (2, frameBytes)
        case .movie: return (9, frameBytes)
        }
    }

    /// The memory `configuration`'s outputs hold once initialized, counted, not allocated: the
    /// pools plus the full-size luma planes the photo and movie warm-ups use.
    public static func memoryNeeded(by configuration: SessionConfiguration) -> Int64 {
        configuration.outputs.reduce(Int64(0)) { total, output in
            let id = configuration.cameraID(of: output)
            guard let camera = configuration.cameras.first(where: { $0.id == id }) else {
                return total
            }
            let pooled = pool(of: output.kind, camera: camera)
            let luma = Int64(camera.format.width) * Int64(camera.format.height)
            let warmUp = output.kind == .movie ? 2 * luma : output.kind == .photo ? luma : 0
            return total + Int64(pooled.count) * Int64(pooled.bytes) + warmUp
        }
    }

    /// The photo pipeline's per-capture pass, once: a 3×3 box filter over a full luma plane.
    private static func boxFilterWarmUp(width: Int, height: Int) -> UInt64 {
        var source = [UInt8](repeating: 0, count: width * height)
        source.withUnsafeMutableBufferPointer { pixels in
            for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index &* 31) }
        }
        var digest: UInt64 = 0
        source.withUnsafeBufferPointer { pixels in
            for y in 1..<max(height - 1, 1) {
                var row: UInt64 = 0
                for x in 1..<max(width - 1, 1) {
                    var sum = 0
                    for dy in -1...1 {
                        let base = (y + dy) * width + x
                        sum += Int(pixels[base - 1]) + Int(pixels[base]) + Int(pixels[base + 1])
                    }
                    row &+= UInt64(sum / 9)
                }
                digest = digest &* 31 &+ row
            }
        }
        return digest
    }

    /// The encoder's per-frame pass, once: for every 16×16 block, the best sum of absolute
    /// differences against a reference frame over a ±1 pixel search.
    private static func motionSearchWarmUp(width: Int, height: Int) -> UInt64 {
        let block = 16
        var current = [UInt8](repeating: 0, count: width * height)
        var reference = [UInt8](repeating: 0, count: width * height)
        for index in current.indices {
            current[index] = UInt8(truncatingIfNeeded: index &* 7)
            reference[index] = UInt8(truncatingIfNeeded: index &* 7 &+ 1)
        }
        var digest: UInt64 = 0
        current.withUnsafeBufferPointer { current in
            reference.withUnsafeBufferPointer { reference in
                var blockY = 1
                while blockY + block + 1 <= height {
                    var blockX = 1
                    while blockX + block + 1 <= width {
                        var best = Int.max
                        for dy in -1...1 {
                            for dx in -1...1 {
                                var sad = 0
                                for y in blockY..<(blockY + block) {
                                    let row = y * width
                                    let shifted = (y + dy) * width + dx
                                    for x in blockX..<(blockX + block) {
                                        sad += abs(
                                            Int(current[row + x]) - Int(reference[shifted + x]))
                                    }
                                }
                                best = min(best, sad)
                            }
                        }
                        digest &+= UInt64(best)
                        blockX += block
                    }
                    blockY += block
                }
            }
        }
        return digest
    }

    /// Reserves `bytes` of disk in a new file in `directory` (`posix_fallocate`, so the space is
    /// really allocated, not a sparse hole).
    private static func preallocate(
        bytes: Int, in directory: String
    ) throws(OutputInitializationError) -> String {
        let template = "\(directory)/headroom-movie-XXXXXX"
        var path = Array(template.utf8CString)
        let descriptor = path.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw OutputInitializationError(
                kind: .movie, problem: "cannot create a file in \(directory): \(lastError())")
        }
        defer { close(descriptor) }
        let created = path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let result = posix_fallocate(descriptor, 0, off_t(max(bytes, 1)))
        guard result == 0 else {
            unlink(created)
            throw OutputInitializationError(
                kind: .movie,
                problem: "cannot preallocate \(bytes) bytes in \(directory): "
                    + String(cString: strerror(result)))
        }
        return created
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// An output that could not be initialized.
public struct OutputInitializationError: Error, CustomStringConvertible, Sendable {
    /// The output's kind.
    public var kind: OutputKind
    /// What failed.
    public var problem: String

    /// Creates the error.
    public init(kind: OutputKind, problem: String) {
        self.kind = kind
        self.problem = problem
    }

    /// `movie output: cannot preallocate …`.
    public var description: String { "\(kind.rawValue) output: \(problem)" }
}
