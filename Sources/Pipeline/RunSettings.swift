import Governor

/// Where a run's observers — the progress samples, the thermal model's load — read the
/// pipeline settings in force (frame rate, inference, capturing): its ``GovernedPipeline``,
/// which follows the governor's advice, or, for an ungoverned run, the settings it started
/// with. The knobs' owners are not readers: ``RunGovernance`` pushes each change to them
/// (the session's frame rate, the frame loop's inference).
enum RunSettings: Sendable {
    /// Followed from the governor's advice.
    case governed(GovernedPipeline)
    /// Fixed for the run.
    case fixed(PipelineSettings)

    /// The settings in force now.
    var current: PipelineSettings {
        switch self {
        case .governed(let pipeline): pipeline.settings
        case .fixed(let settings): settings
        }
    }
}
