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
        #expect(FileSystem.isDirectory(directory))
        #expect(FileSystem.isDirectory("\(directory)/link"))
        #expect(!FileSystem.isDirectory("\(directory)/file"))
        #expect(!FileSystem.isDirectory("\(directory)/missing"))
        #expect(FileSystem.exists("\(directory)/file") && FileSystem.exists("\(directory)/link"))
        #expect(!FileSystem.exists("\(directory)/missing"))
        #expect(FileSystem.isReadable("\(directory)/file"))
        #expect(
            FileSystem.entries(of: directory)?.sorted()
                == (try FileManager.default.contentsOfDirectory(atPath: directory)).sorted())
        #expect(FileSystem.entries(of: "\(directory)/file") == nil)
        #expect(
            FileSystem.linkTarget("\(directory)/link")
                == (try FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/link")))
        #expect(FileSystem.linkTarget("\(directory)/file") == nil)
        #expect(FileSystem.currentDirectory == FileManager.default.currentDirectoryPath)
    }

    @Test("a path's parent, name, stem and extension are what URL gives for an absolute path")
    func pathParts() {
        let paths = [
            "/a/b/c.json", "/a/b/c/", "/a//b", "/c", "/", "/a/.profile", "/a/clip.tar.gz",
            "/a/b.d/c", "/a/c.",
        ]
        for path in paths {
            let url = URL(fileURLWithPath: path)
            #expect(FileSystem.parent(of: path) == url.deletingLastPathComponent().path, "\(path)")
            #expect(FileSystem.name(of: path) == url.lastPathComponent, "\(path)")
            #expect(FileSystem.nameExtension(of: path) == url.pathExtension, "\(path)")
            #expect(
                FileSystem.stem(of: path) == url.deletingPathExtension().lastPathComponent,
                "\(path)")
        }
        #expect(FileSystem.absolute("/a//b") == "/a//b")
        #expect(
            FileSystem.absolute("c.json") == FileManager.default.currentDirectoryPath + "/c.json")
        // A relative path stays relative (URL would make it absolute from the working directory).
        #expect(FileSystem.parent(of: "c.json") == ".")
        #expect(FileSystem.parent(of: "a/b/c") == "a/b")
        #expect(FileSystem.name(of: "a/b/c") == "c")
    }

    @Test("the machine's memory and the processors this process may use, as the system says")
    func machine() {
        #expect(ProcessFacts.physicalMemory == ProcessInfo.processInfo.physicalMemory)
        #expect(ProcessFacts.processorCount(inList: "0-3,6") == 5)
        #expect(ProcessFacts.processorCount(inList: " 0-1\n") == 2)
        #expect(ProcessFacts.processorCount(inList: "7") == 1)
        for broken in ["", "3-1", "a", "1-2-3", "-1", "0-"] {
            #expect(ProcessFacts.processorCount(inList: broken) == nil, "\(broken)")
        }
        // Foundation reads no cgroup v2 quota and no affinity: never more than it says.
        #expect(
            (1...ProcessInfo.processInfo.activeProcessorCount).contains(ProcessFacts.processorCount)
        )
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
