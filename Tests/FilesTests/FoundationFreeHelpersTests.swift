import Files
import Foundation
import Testing

/// The helpers that stand in for Foundation proper (and its ICU data): they give what
/// Foundation gave.
struct FoundationFreeHelpersTests {
    @Test("printf text is Foundation's String(format:), ties and all, at any length")
    func printfMatchesFoundation() {
        let values = [0.125, 2.675, 1.005, -0.004, 12.34, 1e300, -7.5, 0, 1.2e19, .pi]
        for format in ["%.2f", "%.0f", "%+.1f%%", "%.9f", "%.2g", "%.1f"] {
            for value in values {
                #expect(String(printf: format, value) == String(format: format, value))
            }
        }
        #expect(String(printf: "%.2f", 0.125) == "0.12")
        #expect(String(printf: "%.0f", 1e300).count == 301)
    }

    @Test("a directory, a link to one, a file and nothing are told apart")
    func directoryExists() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headroom-directory-exists-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(FileManager.default.createFile(atPath: "\(directory)/file", contents: Data()))
        try FileManager.default.createSymbolicLink(
            atPath: "\(directory)/link", withDestinationPath: directory)
        #expect(FileManager.default.directoryExists(atPath: directory))
        #expect(FileManager.default.directoryExists(atPath: "\(directory)/link"))
        #expect(!FileManager.default.directoryExists(atPath: "\(directory)/file"))
        #expect(!FileManager.default.directoryExists(atPath: "\(directory)/missing"))
    }

    @Test("the data home is XDG_DATA_HOME when absolute, else under HOME")
    func dataHome() {
        #expect(
            DataHome.directory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"]) == "/data")
        #expect(
            DataHome.directory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share")
        #expect(DataHome.directory(environment: [:]).hasSuffix("/.local/share"))
    }
}
