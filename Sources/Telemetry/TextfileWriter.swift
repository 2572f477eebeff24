import Files

/// Writes the registry for node_exporter's textfile collector: `DIR/headroom.prom` in
/// Prometheus text 0.0.4, replaced atomically so the collector never reads half a file.
public struct TextfileWriter: Sendable {
    /// The collector's directory (node_exporter's `--collector.textfile.directory`).
    public let directory: String
    /// The file name inside `directory`; the collector reads only names ending in `.prom`.
    public let fileName: String

    /// Creates a writer for `directory/fileName`.
    public init(directory: String, fileName: String = "headroom.prom") {
        self.directory = directory
        self.fileName = fileName
    }

    /// The full path of the file written.
    public var path: String {
        directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    }

    /// Writes every metric of `registry` to ``path``, creating `directory` if needed.
    ///
    /// - Throws: `ConfigurationError` naming the path when it cannot be written; the previous
    ///   file is then left as it was.
    public func write(_ registry: MetricsRegistry) throws(ConfigurationError) {
        try AtomicFile.write(registry.exposition(.prometheusText), to: path)
    }
}
