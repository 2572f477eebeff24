import Files
import Foundation
import Tracking

/// MOTChallenge files named on the command line, read with errors that exit 2 and name
/// `FILE:LINE`.
enum MOTInput {
    /// Reads `path` (bounded, a regular file or `-`); a malformed file is a `UsageError`
    /// (bad input, exit 2).
    static func read(_ path: String) throws(UsageError) -> [MOTRecord] {
        let data: Data
        do {
            data = try InputFile.read(path, limit: MOTFile.maximumFileSize)
        } catch {
            throw UsageError(description: error.description)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw UsageError(description: "\(path): expected UTF-8 text")
        }
        do {
            return try MOTFile.parse(text, file: path)
        } catch {
            throw UsageError(description: error.description)
        }
    }

    /// The metrics as the `--json` keys of `track` and `evaluate`.
    static func jsonFields(_ metrics: MOTMetrics) -> [String: Double] {
        [
            "mota": metrics.mota, "motp": metrics.motp, "idf1": metrics.idf1, "idp": metrics.idp,
            "idr": metrics.idr, "idsw": Double(metrics.idsw), "fp": Double(metrics.fp),
            "fn": Double(metrics.fn), "mt": Double(metrics.mt), "ml": Double(metrics.ml),
            "groundTruthBoxes": Double(metrics.groundTruthCount),
            "objects": Double(metrics.objectCount),
        ]
    }

    /// The metrics as an aligned text table.
    static func text(_ metrics: MOTMetrics) -> String {
        var table = TextTable(
            headings: ["MOTA", "MOTP", "IDF1", "IDP", "IDR", "IDSW", "FP", "FN", "MT", "ML"])
        table.numericColumns = Set(0..<10)
        func three(_ value: Double) -> String { value.fixed(3) }
        table.rows = [
            [
                three(metrics.mota), three(metrics.motp), three(metrics.idf1), three(metrics.idp),
                three(metrics.idr), String(metrics.idsw), String(metrics.fp), String(metrics.fn),
                "\(metrics.mt)/\(metrics.objectCount)", "\(metrics.ml)/\(metrics.objectCount)",
            ]
        ]
        return table.text
    }
}
