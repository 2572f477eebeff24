// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode already implies complete
/// strict concurrency checking; warnings are kept at zero by `scripts/test.sh`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// A library module of Headroom, with the modules it may import (DESIGN.md's arrows).
func module(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: strictSettings)
}

/// The tests of a module, in `Tests/<name>`.
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, swiftSettings: strictSettings)
}

/// The public library modules, one product each.
let libraries = [
    "Files", "LaunchTiming", "Capture", "Pressure", "Tracking", "Dock", "Governor", "History",
]

let package = Package(
    name: "Headroom",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "headroom", targets: ["headroom"]),
        .executable(name: "headroom-bench", targets: ["headroom-bench"]),
    ] + libraries.map { .library(name: $0, targets: [$0]) },
    targets: [
        // C libraries from Debian.
        .systemLibrary(
            name: "CSensors", path: "Sources/CSensors", providers: [.apt(["libsensors-dev"])]),
        .systemLibrary(name: "CSQLite"),
        .systemLibrary(name: "CMallocStats"),

        // Modules.
        module("Files"),
        module("LaunchTiming", ["Files"]),
        module("Capture", ["Files", "LaunchTiming"]),
        module("Pressure", ["CSensors", "Files"]),
        module("Tracking"),
        module("Dock", ["Tracking"]),
        module("Governor", ["Pressure", "Capture", "Files"]),
        module("History", ["CSQLite", "Files", "LaunchTiming"]),

        // Executables.
        .executableTarget(
            name: "headroom",
            dependencies: [
                "Capture", "Dock", "Files", "History", "LaunchTiming", "Pressure", "Tracking",
            ],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "headroom-bench",
            dependencies: [
                "Capture", "CMallocStats", "CSensors", "Dock", "History", "LaunchTiming",
                "Pressure",
                "Tracking",
            ],
            swiftSettings: strictSettings),

        // Tests.
        tests("FilesTests", ["Files"]),
        tests("LaunchTimingTests", ["LaunchTiming"]),
        tests("CaptureTests", ["Capture", "Files"]),
        tests("PressureTests", ["Pressure", "Files"]),
        tests("HistoryTests", ["History", "LaunchTiming"]),
        tests("TrackingTests", ["Tracking"]),
        tests("DockTests", ["Dock", "Tracking"]),
        tests("GovernorTests", ["Governor", "Pressure", "Capture", "Files"]),
    ],
    swiftLanguageModes: [.v6]
)
