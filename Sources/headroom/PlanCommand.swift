import CLI
import Capture
import Files
import Units

/// `headroom plan FILE`: the closest configuration that fits, and what was traded for it.
enum PlanCommand {
    static let command = Command(
        name: "plan",
        forms: [UsageForm("FILE")],
        summary:
            "Find the configuration that fits the budget with the least loss (exit 1 if none).",
        details: """
            Lowers frame rates first (never below --min-frame-rate, default 15), then switches to
            binned or smaller formats of the camera's sensor, then drops outputs marked
            "optional": true. --out writes the planned session JSON (atomically). --json prints
            {"fits", "strategy", "trades": [{"kind", "camera", "from", "to"}], "original",
            "planned", "configuration", "retainedPixelRate"}.
            """,
        options: Options.self,
        run: { arguments in
            let input = try SessionInput(
                path: try arguments.single("FILE"), profileOverride: arguments[\.profile])
            let out = arguments[\.out]
            let planner = CapturePlanner(
                estimator: HardwareCostEstimator(profile: input.profile),
                minimumFrameRate: arguments[\.minFrameRate])
            let plan = planner.plan(for: input.configuration)
            if let out {
                try AtomicFile.write(plan.configuration.jsonData(), to: out.path)
            }
            if arguments[\.json] {
                Console.json(plan)
            } else {
                Console.out(text(of: plan, written: out?.path))
            }
            return plan.fits ? 0 : 1
        })

    /// `headroom plan`'s options.
    struct Options: CommandOptions {
        let profile = SessionInput.profileOption
        let minFrameRate = Option<FrameRate>.frameRate(
            "--min-frame-rate", "FPS", "lowest frame rate to step down to", in: 1...240,
            default: 15)
        let out = Option<Destination?>.output("--out", "FILE", "write the planned session to FILE")
        let json = Option<Bool>.flag("--json", "print the plan as JSON")
    }

    private static func text(of plan: CapturePlan, written: String?) -> String {
        let before = plan.original.hardwareCost.fraction.fixed(2)
        let after = plan.planned.hardwareCost.fraction.fixed(2)
        var lines: [String] = []
        switch plan.strategy {
        case .unchanged:
            lines.append("The session fits as it is (hardware cost \(before)); nothing to trade.")
        case .impossible:
            lines.append(
                "Nothing the planner may change makes the session fit: the cheapest configuration"
                    + " costs \(after) (was \(before), limited by \(plan.planned.limitingBudget.rawValue))."
            )
        case .frameRate, .format, .droppedOutputs:
            lines.append(
                "Hardware cost \(before) → \(after) on \(plan.planned.profile), by trading:")
        }
        lines += plan.trades.map { "  - \($0)" }
        if plan.strategy != .unchanged {
            lines.append(
                "Pixel rate kept: \((plan.retainedPixelRate * 100).fixed(0))% of what was requested."
            )
        }
        if let written { lines.append("Planned session written to \(written).") }
        return lines.joined(separator: "\n")
    }
}
