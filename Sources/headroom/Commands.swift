import CLI
import Daemon

/// Every command, in the order `headroom --help` lists them. A new command is a file of its
/// own defining `static let command`, plus one line here.
let commands: [Command] = [
    RunCommand.command,
    EstimateCommand.command,
    PlanCommand.command,
    ProfilesCommand.command,
    CalibrateCommand.command,
    SensorsCommand.command,
    StatusCommand.command,
    WatchCommand.command,
    RecordCommand.command,
    ReplayCommand.command,
    TrackCommand.command,
    EvaluateCommand.command,
    QualityCommand.command,
    SceneCommand.command,
    LaunchCommand.command,
    StorageCommand.command,
    ServeCommand.command,
    AdviseCommand.command,
    CompletionsCommand.command,
    ManualCommand.command,
]
