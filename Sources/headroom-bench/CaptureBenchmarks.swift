import Capture
import Units

/// The estimator and planner targets of the foundation issue: one estimate of a 4-camera
/// session ≤ 1 µs; a plan over 3 cameras × 40 formats ≤ 10 ms.
let captureBenchmarks: [Benchmark] = [
    estimateBenchmark(
        name: "estimate.4-cameras", summary: "full estimate with breakdown, 4 cameras, 8 outputs"
    ) { estimator, session in blackHole(estimator.cost(of: session)) },
    estimateBenchmark(
        name: "estimate.4-cameras.cost-only",
        summary: "hardware cost without the breakdown (what the planner calls)"
    ) { estimator, session in blackHole(estimator.hardwareCost(of: session)) },
    Benchmark(
        name: "plan.3-cameras-40-formats",
        summary: "plan of an over-budget 3-camera session whose sensor offers 40 formats",
        baselineSummary: "one full estimate of the same session",
        targetNanoseconds: 10_000_000,
        measure: {
            let (profile, session) = fortyFormatProblem()
            let estimator = HardwareCostEstimator(profile: profile)
            let planner = CapturePlanner(estimator: estimator)
            let plan = planner.plan(for: session)
            guard plan.strategy == .format else {
                throw BenchmarkSetupError(
                    description: "the problem should need format changes, got \(plan.strategy)")
            }
            let nanoseconds = nanosecondsPerCall(iterations: 20, rounds: 5) {
                blackHole(planner.plan(for: session))
            }
            let baseline = nanosecondsPerCall(iterations: 100_000) {
                blackHole(estimator.cost(of: session))
            }
            return Measurement(
                nanoseconds: nanoseconds, baselineNanoseconds: baseline,
                extras: [
                    "strategy": plan.strategy.rawValue,
                    "cost": String(plan.planned.hardwareCost.fraction),
                ])
        }),
]

/// Times `body` on the four-camera session against a bare clock read, with the 1 µs target.
private func estimateBenchmark(
    name: String, summary: String,
    _ body: @escaping @Sendable (HardwareCostEstimator, SessionConfiguration) -> Void
) -> Benchmark {
    Benchmark(
        name: name, summary: summary, baselineSummary: "a bare clock_gettime read",
        targetNanoseconds: 1_000,
        measure: {
            let estimator = HardwareCostEstimator(profile: .jetsonOrinNX)
            let session = fourCameraSession()
            let nanoseconds = nanosecondsPerCall(iterations: 200_000) { body(estimator, session) }
            return Measurement(
                nanoseconds: nanoseconds, baselineNanoseconds: clockReadNanoseconds())
        })
}

/// A setup that does not produce the situation a benchmark is meant to measure.
struct BenchmarkSetupError: Error, CustomStringConvertible {
    var description: String
}

/// Four 4K cameras with preview, video data and a recording: a heavy, realistic session.
private func fourCameraSession() -> SessionConfiguration {
    let format = CameraFormat(width: 3840, height: 2160, maxFrameRate: 60)
    let ids = ["a", "b", "c", "d"]
    return SessionConfiguration(
        profile: "jetson-orin-nx",
        cameras: ids.map { CameraConfiguration(id: $0, format: format, frameRateOverride: 30) },
        outputs: ids.flatMap {
            [
                CaptureOutput(kind: .videoData, camera: $0),
                CaptureOutput(kind: .preview, camera: $0),
            ]
        })
}

/// A profile whose sensor offers 40 formats (10 sizes × binned/cropped variants), and three
/// 8K60 cameras on it that need format changes to fit.
private func fortyFormatProblem() -> (DeviceProfile, SessionConfiguration) {
    let sizes = [
        (7680, 4320), (5120, 2880), (3840, 2160), (3200, 1800), (2560, 1440),
        (1920, 1080), (1600, 900), (1280, 720), (960, 540), (640, 360),
    ]
    var formats: [CameraFormat] = []
    for (width, height) in sizes {
        for (binned, cropped) in [(false, false), (true, false), (false, true), (true, true)] {
            formats.append(
                CameraFormat(
                    width: width, height: height, maxFrameRate: 60, isBinned: binned,
                    isCropped: cropped))
        }
    }
    var profile = DeviceProfile.jetsonOrinNX
    profile.sensors = [SensorModes(name: "forty", formats: formats)]
    let cameras = ["left", "center", "right"].map {
        CameraConfiguration(id: $0, format: formats[0], sensor: "forty")
    }
    let outputs = cameras.map { CaptureOutput(kind: .videoData, camera: $0.id) }
    return (
        profile, SessionConfiguration(profile: profile.name, cameras: cameras, outputs: outputs)
    )
}
