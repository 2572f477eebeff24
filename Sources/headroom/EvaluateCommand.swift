import Tracking

/// `headroom evaluate GT.txt TRACKS.txt`: scores an existing tracker output.
enum EvaluateCommand {
    static let command = Command(
        name: "evaluate",
        usage: "GT.txt TRACKS.txt [--iou T] [--json]",
        summary: "Score MOTChallenge tracks against ground truth: MOTA, MOTP, IDF1, IDSW, ...",
        details: """
            CLEAR-MOT and identity metrics with matching at IoU ≥ T (default 0.5), as
            py-motmetrics computes them. MOTP is the mean IoU of matched pairs (higher is
            better). --json prints {"mota", "motp", "idf1", "idp", "idr", "idsw", "fp", "fn",
            "mt", "ml", "groundTruthBoxes", "objects"}.
            """,
        options: [
            .number("--iou", "T", "minimum IoU of a match", in: 0...1, default: 0.5),
            .flag("--json", "print the metrics as JSON"),
        ],
        run: { arguments in
            guard arguments.positionals.count == 2 else {
                throw UsageError(
                    description:
                        "expected GT.txt and TRACKS.txt, got \(arguments.positionals.count) arguments"
                )
            }
            let iou = arguments.number("--iou")
            let truth = try MOTInput.read(arguments.positionals[0])
            let tracks = try MOTInput.read(arguments.positionals[1])
            let metrics = MOTEvaluator(minimumIoU: iou).evaluate(
                groundTruth: truth, hypotheses: tracks)
            if arguments.has("--json") {
                Console.json(MOTInput.jsonFields(metrics))
            } else {
                Console.out(MOTInput.text(metrics))
            }
            return 0
        })
}
