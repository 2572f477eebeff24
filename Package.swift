// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode already implies complete
/// strict concurrency checking; warnings are kept at zero by `scripts/test.sh`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The modules whose per-pixel loops (the scene's renderer, the blob detector, the preview
/// scaler) the tests and the end-to-end checks run by the billion: optimized in debug builds
/// too, where unoptimized they took most of the unit tests' time.
let pixelLoopModules: Set = ["Tracking", "Capture"]

/// The modules `headroomd` links. They do not import Swift's string-processing module (regular
/// expressions) implicitly, so the daemon loads neither it nor its regex parser.
let daemonModules: Set = [
    "Units", "Files", "Locking", "LaunchTiming", "Lifecycle", "MQTT", "Storage", "Capture",
    "Pressure", "Governor", "Telemetry", "HostService", "HostServer", "MQTTBridge", "CLI", "Daemon",
]
let withoutStringProcessing: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])
]

/// A library module of Headroom, with the modules it may import (docs/architecture.md's table, checked against this file).
func module(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    let optimized: [SwiftSetting] =
        pixelLoopModules.contains(name) ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []
    let daemon = daemonModules.contains(name) ? withoutStringProcessing : []
    return .target(
        name: name, dependencies: dependencies,
        swiftSettings: strictSettings + optimized + daemon)
}

/// The tests of a module, in `Tests/<name>`.
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, swiftSettings: strictSettings)
}

/// The public library modules, one product each.
let libraries = [
    "Units", "Files", "Locking", "LaunchTiming", "Lifecycle", "Storage", "Capture", "Pressure",
    "Tracking", "Dock",
    "Governor",
    "History",
    "Telemetry", "HostService", "HostServer", "Pipeline", "Reports",
]

/// The modules `import Headroom` brings.
let umbrellaModules = libraries.filter { !["Files", "Locking"].contains($0) }

let package = Package(
    name: "Headroom",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "headroom", targets: ["headroom"]),
        .executable(name: "headroomd", targets: ["headroomd"]),
        .executable(name: "headroom-bench", targets: ["headroom-bench"]),
        .library(name: "Headroom", targets: ["Headroom"]),
        // libheadroom.so for C and C++: include/headroom.h, installed by scripts/install.sh.
        .library(name: "headroom-c", type: .dynamic, targets: ["HeadroomC"]),
    ] + libraries.map { .library(name: $0, targets: [$0]) },
    targets: [
        // C libraries from Debian.
        .systemLibrary(
            name: "CSensors", path: "Sources/CSensors", providers: [.apt(["libsensors-dev"])]),
        .systemLibrary(name: "CSQLite"),
        .systemLibrary(name: "CMallocStats"),
        .systemLibrary(name: "CWakeup"),
        .systemLibrary(name: "CConcurrencyHooks"),
        .systemLibrary(name: "CStorage"),
        .systemLibrary(name: "CAccessControl"),
        .systemLibrary(name: "CSpawn"),
        .systemLibrary(
            name: "CMosquitto", path: "Sources/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),

        // Modules.
        module("Units", ["Files", "Locking"]),
        module("Files", ["CAccessControl"]),
        module("Locking"),
        module("LaunchTiming", ["Units", "CSpawn", "Files", "Locking"]),
        module("Lifecycle", ["CConcurrencyHooks", "Locking", "Units"]),
        module("MQTT", ["CMosquitto", "Files", "Locking"]),
        module("Storage", ["CStorage", "Files", "Locking", "Units"]),
        module("Capture", ["Units", "Files", "LaunchTiming", "Locking", "Storage"]),
        module("Pressure", ["Units", "CSensors", "CWakeup", "Files", "Locking"]),
        // OpenCV's HOG people detector and DNN module, behind a C interface (Debian's
        // libopencv-objdetect-dev and libopencv-dnn-dev).
        .target(
            name: "COpenCV", path: "Sources/COpenCV",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [
                .linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_dnn"),
                .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core"),
            ]),
        module("Tracking", ["Units", "COpenCV", "Locking"]),
        module("Dock", ["Units", "Locking", "Tracking"]),
        module("Governor", ["Units", "Pressure", "Files", "Locking"]),
        module("History", ["Units", "CSQLite", "Files", "LaunchTiming", "Locking"]),
        module("Telemetry", ["CWakeup", "Files", "Locking", "Units"]),
        module(
            "HostService",
            ["Units", "Capture", "Files", "Governor", "Locking", "Pressure", "Telemetry"]),
        // The host service served: HTTP, the textfile, the readings, one group and its stopping.
        module(
            "HostServer",
            ["Files", "HostService", "Lifecycle", "Locking", "Pressure", "Telemetry"]),
        // The host service on MQTT: Home Assistant discovery and state, Frigate as a client.
        module(
            "MQTTBridge",
            ["Units", "Files", "Governor", "HostService", "Locking", "MQTT", "Pressure"]),
        module(
            "Pipeline",
            [
                "Units",
                "Capture", "Tracking", "Dock", "Governor", "HostServer", "HostService",
                "Pressure", "LaunchTiming", "Lifecycle", "Telemetry", "Files", "Locking",
                "Storage",
            ]),
        module("Reports", ["Units", "Files", "LaunchTiming", "Pipeline", "Pressure"]),

        // The command line: commands, typed options, usage and help, the console, signals.
        module("CLI", ["Files", "Locking", "Units"]),
        // The host daemon's command, `serve` (and the pressure options other commands share):
        // what `headroomd` runs, linking none of the pipeline's modules or OpenCV.
        module(
            "Daemon",
            [
                "CLI", "Capture", "Files", "Governor", "HostServer", "HostService", "Lifecycle",
                "Locking", "MQTT", "MQTTBridge", "Pressure", "Telemetry", "Units",
            ]),

        // The C API (include/headroom.h).
        module("HeadroomC", ["Units", "Capture", "Files", "LaunchTiming", "Locking", "Pressure"]),

        // The umbrella: the modules a library user needs, re-exported (not the shared-state
        // primitives of `Locking` or the file plumbing of `Files`).
        module("Headroom", umbrellaModules.map { .target(name: $0) }),

        // Executables.
        .executableTarget(
            name: "headroom",
            dependencies: [
                "Units", "CLI", "Daemon",
                "Capture", "Dock", "Files", "Governor", "History", "HostServer", "HostService",
                "LaunchTiming",
                "Lifecycle", "Locking", "Pipeline", "Pressure", "Reports",
                "Storage", "Telemetry", "Tracking",
            ],
            swiftSettings: strictSettings),
        // `headroom serve` alone, for a resident daemon: `headroom serve` becomes it.
        .executableTarget(
            name: "headroomd", dependencies: ["CLI", "Daemon", "Lifecycle"],
            swiftSettings: strictSettings + withoutStringProcessing),
        .executableTarget(
            name: "headroom-bench",
            dependencies: [
                "Units",
                "Capture", "CMallocStats", "CStorage", "CWakeup", "Dock", "Files", "Governor",
                "HostServer", "HostService", "LaunchTiming", "HeadroomC", "Lifecycle", "Locking",
                "MQTT", "MQTTBridge", "Pipeline", "Pressure", "Storage", "Telemetry",
                "TestSupport", "Tracking",
            ],
            swiftSettings: strictSettings),

        // Tests, and the fixtures several test targets share.
        // Test doubles several test targets share (the manual pressure clock, a raw HTTP
        // client); not part of any product.
        .target(
            name: "TestSupport", dependencies: ["Locking", "MQTT", "Pressure", "Units"],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings),
        tests("UnitsTests", ["Locking", "Units"]),
        tests("FilesTests", ["Files", "CAccessControl", "Units"]),
        tests("LockingTests", ["Locking"]),
        tests("StorageTests", ["Storage", "CStorage", "Locking", "Units"]),
        tests("LaunchTimingTests", ["Units", "LaunchTiming", "Files"]),
        tests("LifecycleTests", ["Lifecycle", "Locking", "TestSupport", "Units"]),
        tests("MQTTTests", ["MQTT", "Files", "Locking", "TestSupport"]),
        tests(
            "MQTTBridgeTests",
            [
                "MQTTBridge", "MQTT", "Capture", "Files", "HostService", "Governor", "Locking",
                "Pressure", "TestSupport", "Units",
            ]),
        tests(
            "CaptureTests",
            ["Units", "Capture", "Files", "LaunchTiming", "Storage", "Locking", "TestSupport"]),
        tests("PressureTests", ["Pressure", "Files", "TestSupport", "Units"]),
        tests("HistoryTests", ["History", "LaunchTiming", "Locking", "Units"]),
        tests("TrackingTests", ["Tracking", "Units"]),
        tests("DockTests", ["Units", "Dock", "TestSupport", "Tracking"]),
        tests(
            "PipelineTests",
            [
                "Units",
                "Pipeline", "Capture", "Dock", "Files", "Governor", "HostService", "LaunchTiming",
                "Locking", "Pressure", "Storage", "Telemetry", "TestSupport", "Tracking",
            ]),
        tests(
            "GovernorTests",
            ["Units", "Governor", "Pressure", "Files", "Locking", "TestSupport", "Tracking"]),
        tests("TelemetryTests", ["Locking", "Telemetry", "TestSupport", "Units"]),
        tests(
            "HostServiceTests",
            [
                "HostService", "Capture", "Governor", "Locking", "Pressure", "Telemetry",
                "TestSupport", "Units",
            ]),
        tests(
            "HostServerTests",
            [
                "HostServer", "HostService", "Capture", "Governor", "Locking", "Pressure",
                "Telemetry", "TestSupport", "Units",
            ]),
        tests("ReportsTests", ["Units", "Reports", "Files", "LaunchTiming"]),
        tests("CommandLineTests", ["CLI", "Daemon", "Files", "headroom"]),
        tests("HeadroomTests", ["Headroom"]),
        tests(
            "FuzzTests",
            [
                "Capture", "Files", "Governor", "HostService", "LaunchTiming", "Pressure",
                "Reports", "Storage", "Telemetry", "TestSupport", "Tracking", "Units",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
