import CLI
import Files
import FoundationEssentials
import Tracking

/// MOTChallenge files named on the command line, read with errors that exit 2 and name
/// `FILE:LINE`.
enum MOTInput {
    /// Reads `path` (bounded, a regular file or `-`); a malformed file is a `UsageError`
    /// (bad input, exit 2).
    static func read(_ path: String) throws(UsageError) -> [MOTRecord] {
        let data: [UInt8]
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

    /// Reads ground truth or tracker output at `path` (see ``read(_:)``): boxes whose ids are
    /// identities, each at most once a frame.
    static func readIdentities(_ path: String) throws(UsageError) -> [MOTRecord] {
        let records = try read(path)
        if let repeated = MOTFile.repeatedIdentity(in: records) {
            throw UsageError(
                description:
                    "\(path): frame \(repeated.frame): id \(repeated.id) appears more than once; expected each id once a frame"
            )
        }
        return records
    }

    /// The CLEAR-MOT and identity scores and the HOTA scores of one tracker output.
    struct Scores {
        /// CLEAR-MOT and identity scores, matched at one IoU threshold.
        var clear: MOTMetrics
        /// HOTA scores, averaged over TrackEval's IoU thresholds.
        var hota: HOTAMetrics

        /// Scores `tracks` against `truth`, with the CLEAR-MOT and identity matches at IoU ≥
        /// `minimumIoU` (HOTA sweeps its own thresholds).
        init(truth: [MOTRecord], tracks: [MOTRecord], minimumIoU: Double = 0.5) {
            clear = MOTEvaluator(minimumIoU: minimumIoU).evaluate(
                groundTruth: truth, hypotheses: tracks)
            hota = HOTAEvaluator().evaluate(groundTruth: truth, hypotheses: tracks)
        }
    }

    /// The scores as the `--json` keys of `track` and `evaluate`.
    static func jsonFields(_ scores: Scores) -> [String: Double] {
        let metrics = scores.clear
        let hota = scores.hota
        return [
            "mota": metrics.mota, "motp": metrics.motp, "idf1": metrics.idf1, "idp": metrics.idp,
            "idr": metrics.idr, "idsw": Double(metrics.idsw), "fp": Double(metrics.fp),
            "fn": Double(metrics.fn), "mt": Double(metrics.mt), "ml": Double(metrics.ml),
            "groundTruthBoxes": Double(metrics.groundTruthCount),
            "objects": Double(metrics.objectCount),
            "hota": hota.hota, "detA": hota.detA, "assA": hota.assA, "detRe": hota.detRe,
            "detPr": hota.detPr, "assRe": hota.assRe, "assPr": hota.assPr, "locA": hota.locA,
            "hota0": hota.hota0, "locA0": hota.locA0,
        ]
    }

    /// The scores as an aligned text table.
    static func text(_ scores: Scores) -> String {
        let metrics = scores.clear
        let hota = scores.hota
        var table = TextTable(
            headings: [
                "HOTA", "DetA", "AssA", "MOTA", "MOTP", "IDF1", "IDP", "IDR", "IDSW", "FP", "FN",
                "MT", "ML",
            ])
        table.numericColumns = Set(table.headings.indices)
        func three(_ value: Double) -> String { value.fixed(3) }
        table.rows = [
            [
                three(hota.hota), three(hota.detA), three(hota.assA), three(metrics.mota),
                three(metrics.motp), three(metrics.idf1), three(metrics.idp), three(metrics.idr),
                String(metrics.idsw), String(metrics.fp), String(metrics.fn),
                "\(metrics.mt)/\(metrics.objectCount)", "\(metrics.ml)/\(metrics.objectCount)",
            ]
        ]
        return table.text
    }
}
