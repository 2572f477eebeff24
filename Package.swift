// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode already implies complete
/// strict concurrency checking; warnings are kept at zero by `scripts/test.sh`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Headroom",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "headroom", targets: ["headroom"]),
        .executable(name: "headroom-bench", targets: ["headroom-bench"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "Files", targets: ["Files"]),
        .library(name: "LaunchTiming", targets: ["LaunchTiming"]),
        .library(name: "Pressure", targets: ["Pressure"]),
    ],
    targets: [
        .target(name: "Files", swiftSettings: strictSettings),
        .target(name: "LaunchTiming", swiftSettings: strictSettings),
        .target(
            name: "Capture", dependencies: ["Files", "LaunchTiming"], swiftSettings: strictSettings),
        .systemLibrary(
            name: "CSensors", path: "Sources/CSensors", providers: [.apt(["libsensors-dev"])]),
        .target(
            name: "Pressure", dependencies: ["CSensors", "Files"], swiftSettings: strictSettings),
        .executableTarget(
            name: "headroom",
            dependencies: ["Capture", "Files", "LaunchTiming", "Pressure"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "headroom-bench",
            dependencies: ["Capture", "LaunchTiming", "Pressure"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "FilesTests", dependencies: ["Files"], swiftSettings: strictSettings),
        .testTarget(
            name: "PressureTests", dependencies: ["Pressure", "Files"], swiftSettings: strictSettings),
        .testTarget(name: "CaptureTests", dependencies: ["Capture"], swiftSettings: strictSettings),
        .testTarget(
            name: "LaunchTimingTests",
            dependencies: ["LaunchTiming"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
