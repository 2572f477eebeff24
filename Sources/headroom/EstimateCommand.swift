import Capture

/// `headroom estimate FILE`: the hardware cost of a session with its breakdown.
enum EstimateCommand {
    static let command = Command(
        name: "estimate",
        usage: "FILE [--profile NAME|FILE] [--json]",
        summary: "Price a capture session: hardware cost with its breakdown (exit 1 when over 1).",
        details: """
            The cost is the share of the most used budget (pixel rate, memory bandwidth, camera
            ports); over 1 the session cannot run. --json prints {"hardwareCost", "fits",
            "limitingBudget", "profile", "budgets": [...], "cameras": [{"id", "cost",
            "pixelRateShare", "memoryBandwidthShare", "factors"}]}.
            """,
        options: [SessionInput.profileOption, .flag("--json", "print the estimate as JSON")],
        run: { arguments in
            let input = try SessionInput(arguments)
            let estimate = HardwareCostEstimator(profile: input.profile).cost(
                of: input.configuration)
            if arguments.has("--json") {
                Console.json(estimate)
            } else {
                Console.out(
                    EstimateText(estimate: estimate, configuration: input.configuration).text)
            }
            return estimate.fits ? 0 : 1
        })
}

/// The human form of an estimate: a table per camera, a table per budget, a verdict.
struct EstimateText {
    var estimate: HardwareCostEstimate
    var configuration: SessionConfiguration

    var text: String {
        var cameras = TextTable(
            headings: ["camera", "format", "fps", "readout", "outputs", "pixel", "memory", "cost"],
            numericColumns: [2, 3, 5, 6, 7])
        for (camera, cost) in zip(configuration.cameras, estimate.cameras) {
            cameras.rows.append([
                camera.id, camera.format.description, cost.factors.frameRate.shortText,
                cost.factors.readoutFactor.shortDecimal,
                outputList(cost.factors.outputs),
                cost.pixelRateShare.shortDecimal, cost.memoryBandwidthShare.shortDecimal,
                cost.cost.shortDecimal,
            ])
        }
        var budgets = TextTable(
            headings: ["budget", "demand", "capacity", "share", ""], numericColumns: [1, 2, 3])
        for use in estimate.budgets {
            budgets.rows.append([
                use.budget.rawValue, quantity(use.demand, use.budget),
                quantity(use.capacity, use.budget),
                use.share.shortDecimal, use.budget == estimate.limitingBudget ? "← limiting" : "",
            ])
        }
        let verdict =
            estimate.fits
            ? "hardware cost \(estimate.hardwareCost.shortDecimal): fits on \(estimate.profile)"
            : "hardware cost \(estimate.hardwareCost.shortDecimal): over budget on \(estimate.profile)"
                + " (limited by \(estimate.limitingBudget.rawValue)); `headroom plan` finds a configuration that fits"
        return "\(cameras.text)\n\n\(budgets.text)\n\n\(verdict)"
    }

    /// `preview,videoData×2`, or `-` for none.
    private func outputList(_ counts: OutputCounts) -> String {
        let kinds = OutputKind.allCases.filter { counts[$0] > 0 }
            .map { counts[$0] == 1 ? $0.rawValue : "\($0.rawValue)×\(counts[$0])" }
        return kinds.isEmpty ? "-" : kinds.joined(separator: ",")
    }

    private func quantity(_ value: Double, _ budget: Budget) -> String {
        switch budget {
        case .pixelRate: "\((value / 1e6).shortDecimal) Mpx/s"
        case .memoryBandwidth: "\((value / 1e9).shortDecimal) GB/s"
        case .cameraPorts: Int(value) == 1 ? "1 camera" : "\(Int(value)) cameras"
        }
    }
}
