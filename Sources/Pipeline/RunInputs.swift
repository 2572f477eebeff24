import Capture
import Pressure
import Tracking

/// What a run reads from as it goes, opened by its caller and passed beside its options
/// (``RunOptions`` stay a value): the video it plays, the pressure it replays, the model its
/// neural detector runs. A run takes its own: a second run (`--compare`) gets fresh ones.
public struct RunInputs: Sendable {
    /// The video, opened: required when the options play one (``RunOptions/Source/video(input:pacing:groundTruth:)``),
    /// and for that input and pacing.
    public var video: VideoFrameSource?
    /// Where pressure samples come from instead of the host and the scenario's model: a
    /// recorded trace, or a test's fixture. Its times are seconds on the run's clock; the run
    /// ends early when it runs out (returns `nil`).
    public var pressureSource: (any SampleSource)?
    /// The neural detector's model, which the caller found (the command line, where
    /// `person-model.sh` installs it); required for ``DetectorKind/personSSD``.
    public var personModel: PersonModel?

    /// The given inputs; none for a scene run on this host's pressure.
    public init(
        video: VideoFrameSource? = nil, pressureSource: (any SampleSource)? = nil,
        personModel: PersonModel? = nil
    ) {
        self.video = video
        self.pressureSource = pressureSource
        self.personModel = personModel
    }
}
