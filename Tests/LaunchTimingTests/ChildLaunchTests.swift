import Foundation
import LaunchTiming
import Testing

/// A launch measured in a child process, read without deadlock.
struct ChildLaunchTests {
    /// A report as a child prints it.
    static func reportFile() throws -> String {
        let timeline = LaunchTimeline()
        timeline.mark(.appInit)
        let path = NSTemporaryDirectory() + "child-launch-\(UUID().uuidString).json"
        try JSONEncoder().encode(timeline.report(label: "child")).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a child that fills its stderr pipe before printing its report does not hang")
    func readsBothPipes() throws {
        let report = try Self.reportFile()
        defer { try? FileManager.default.removeItem(atPath: report) }
        // 1 MB on stderr is far more than a pipe holds (64 KiB): reading stdout first and
        // stderr afterwards would block both processes forever.
        let result = try ChildLaunch.run(
            executable: "/bin/sh",
            arguments: ["-c", "head -c 1000000 /dev/zero | tr '\\\\0' x >&2; cat '\(report)'"])
        #expect(result.label == "child")
    }

    @Test("a failing child's status and stderr are reported")
    func failure() throws {
        #expect {
            try ChildLaunch.run(
                executable: "/bin/sh", arguments: ["-c", "echo broken >&2; exit 3"])
        } throws: { error in
            (error as? ChildLaunch.Failure)?.description == "a launch exited with status 3: broken"
        }
    }
}
