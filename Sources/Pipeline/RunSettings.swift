import Governor

/// Where a run reads the pipeline settings in force (frame rate, inference, capturing): from
/// its ``GovernedPipeline``, which follows the governor's advice, or, for an ungoverned run,
/// the settings it started with, for the whole run. There is no other copy.
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
