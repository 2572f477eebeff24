import CLI
import Tracking

/// `headroom evaluate GT.txt TRACKS.txt`: scores an existing tracker output.
enum EvaluateCommand {
    static let command = Command(
        name: "evaluate",
        forms: [UsageForm("GT.txt TRACKS.txt")],
        summary:
            "Score MOTChallenge tracks against ground truth: HOTA, DetA, AssA, MOTA, IDF1, ...",
        details: """
            HOTA metrics as TrackEval computes them (MOTChallenge 2015 rules: ground-truth
            lines whose confidence truncates to 0 are ignored), each the mean over the IoU
            thresholds 0.05, 0.10, ..., 0.95; and CLEAR-MOT and identity metrics with matching
            at IoU ≥ T (default 0.5), as py-motmetrics computes them. MOTP is the mean IoU of
            matched pairs (higher is better). --json prints {"hota", "detA", "assA", "detRe",
            "detPr", "assRe", "assPr", "locA", "hota0", "locA0", "mota", "motp", "idf1", "idp",
            "idr", "idsw", "fp", "fn", "mt", "ml", "groundTruthBoxes", "objects"}; hota0 and
            locA0 are HOTA and LocA at 0.05 (TrackEval's HOTA(0) and LocA(0)).
            """,
        options: Options.self,
        run: { arguments in
            guard arguments.positionals.count == 2 else {
                throw UsageError(
                    description:
                        "expected GT.txt and TRACKS.txt, got \(arguments.positionals.count) arguments"
                )
            }
            let iou = arguments[\.iou]
            let truth = try MOTInput.readIdentities(arguments.positionals[0])
            let tracks = try MOTInput.readIdentities(arguments.positionals[1])
            let scores = MOTInput.Scores(truth: truth, tracks: tracks, minimumIoU: iou)
            if arguments[\.json] {
                Console.json(MOTInput.jsonFields(scores))
            } else {
                Console.out(MOTInput.text(scores))
            }
            return 0
        })

    /// `headroom evaluate`'s options.
    struct Options: CommandOptions {
        let iou = Option<Double>.number(
            "--iou", "T", "minimum IoU of a CLEAR-MOT and identity match", in: 0...1,
            default: 0.5)
        let json = Option<Bool>.flag("--json", "print the metrics as JSON")
    }
}
