import Capture
import Files
import Foundation
import Testing
import Units

@Test(arguments: OutputKind.allCases)
func outputInitializationGrowsWithTheFormat(kind: OutputKind) throws {
    let directory = NSTemporaryDirectory()
    let small = CameraConfiguration(
        id: "a", format: CameraFormat(width: 320, height: 240, maxFrameRate: 30))
    let large = CameraConfiguration(
        id: "a", format: CameraFormat(width: 1280, height: 960, maxFrameRate: 30))
    let a = try OutputResources.initialize(kind, camera: small, storageDirectory: directory)
    let b = try OutputResources.initialize(kind, camera: large, storageDirectory: directory)
    defer {
        a.release()
        b.release()
    }
    #expect(a.pooledBytes > 0)
    #expect(b.pooledBytes > a.pooledBytes)
    #expect(a.buffers.allSatisfy { buffer in buffer.allSatisfy { $0 != 0 } }, "pages are written")
}

@Test func aMovieOutputPreallocatesStorageAndReleasesIt() throws {
    let camera = CameraConfiguration(
        id: "a", format: CameraFormat(width: 640, height: 480, maxFrameRate: 30))
    let movie = try OutputResources.initialize(
        .movie, camera: camera, storageDirectory: NSTemporaryDirectory(), storageSeconds: 2)
    let path = try #require(movie.storagePath)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    // 640×480×30 px/s at 0.1 bit per pixel, for two seconds.
    #expect(size == 640 * 480 * 30 / 80 * 2)
    movie.release()
    #expect(!FileManager.default.fileExists(atPath: path))
}

@Test func aMovieOutputWithoutWritableStorageFailsNamingTheDirectory() {
    let camera = CameraConfiguration(
        id: "a", format: CameraFormat(width: 64, height: 48, maxFrameRate: 30))
    do {
        _ = try OutputResources.initialize(
            .movie, camera: camera, storageDirectory: "/nonexistent/headroom")
        Issue.record("initialization succeeded without storage")
    } catch {
        #expect(error.description.hasPrefix("movie output: cannot create a file in /nonexistent"))
    }
}

@Test func previewsFitTheDisplaySizeKeepingTheAspectRatio() {
    #expect(OutputResources.displaySize(width: 3840, height: 2160) == (1920, 1080))
    #expect(OutputResources.displaySize(width: 4000, height: 3000) == (1440, 1080))
    #expect(OutputResources.displaySize(width: 640, height: 480) == (640, 480))
}

@Test func thePatternChangesEveryFrameAndCanBeRecognized() {
    let source = PatternFrameSource()
    var first = Frame(camera: "a", number: 0, width: 16, height: 8)
    var second = Frame(camera: "a", number: 1, width: 16, height: 8)
    source.render(&first)
    source.render(&second)
    #expect(first.luma != second.luma)
    #expect(second.luma[3 * 16 + 5] == source.value(x: 5, y: 3, frame: 1))
}

@Test func aSessionWhoseBuffersWouldExhaustMemoryIsRefusedBeforeAnyIsAllocated() throws {
    let camera = CameraConfiguration(
        id: "big", format: CameraFormat(width: 16_384, height: 16_384, maxFrameRate: 1))
    // A movie's pool is nine frames: 3.4 GiB each output here; 1,000 outputs are terabytes.
    let outputs = Array(repeating: CaptureOutput(kind: .movie), count: 1_000)
    let huge = SessionConfiguration(profile: "generic-x86_64", cameras: [camera], outputs: outputs)
    #expect(OutputResources.memoryNeeded(by: huge) > 3_000_000_000_000)
    // A machine whose budgets take anything: only memory can refuse the session.
    var roomy = DeviceProfile.genericDesktop
    roomy.pixelRate = 1e300
    roomy.memoryBandwidth = 1e300
    roomy.storageWriteRate = nil
    let session = CaptureSession(
        configuration: huge, estimator: HardwareCostEstimator(profile: roomy),
        clock: ContinuousRunClock())
    session.beginConfiguration()
    let error = try #require(throws: ConfigurationError.self) {
        _ = try session.commitConfiguration()
    }
    #expect(error.path == "outputs" && error.problem.contains("of memory"))

    let small = SessionConfiguration(
        profile: "generic-x86_64",
        cameras: [
            CameraConfiguration(
                id: "c", format: CameraFormat(width: 640, height: 480, maxFrameRate: 30))
        ],
        outputs: [CaptureOutput(kind: .preview), CaptureOutput(kind: .movie)])
    #expect(OutputResources.memoryNeeded(by: small) < 64 << 20)
}
