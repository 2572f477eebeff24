import CLI
import Files
import Pressure
import Units

/// The options every pressure command shares and the sampler and classifier they build:
/// the host's real sources (roots from `HEADROOM_SYSFS_ROOT` / `HEADROOM_PROCFS_ROOT`), the
/// simulated thermal model with `--model`, and rules from `--config FILE`.
public struct PressureInput: Sendable {
    /// The sampler over the selected sources.
    public var sampler: PressureSampler
    /// The classifier with the configured rules.
    public var classifier: PressureClassifier
    /// Where the host's files are read.
    public var roots: SystemRoots

    /// `--config FILE` and `--model`.
    public struct Options: OptionGroup {
        /// The declarations.
        public init() {}

        /// `--config FILE`.
        public let config = Option<String?>.path(
            "--config", "FILE", "level rules, hysteresis and budget curve as JSON")
        /// `--model`.
        public let model = Option<Bool>.flag(
            "--model",
            "add a simulated CPU temperature (first-order thermal model driven by this"
                + " process's CPU use); labelled simulated")
    }

    /// The input `group` of a command's `arguments` declares.
    public init<Command: CommandOptions>(
        _ arguments: Parsed<Command>, _ group: KeyPath<Command, Options>
    )
        throws
    {
        try self.init(
            config: arguments[group.appending(path: \.config)],
            model: arguments[group.appending(path: \.model)])
    }

    /// The host's sources (with the thermal model when `model`), classified by the rules in
    /// the file `config` (the defaults without one).
    public init(config: String?, model: Bool) throws {
        roots = SystemRoots.from(environment: ProcessFacts.environment)
        sampler = PressureSampler.system(roots: roots)
        if model {
            sampler.temperatureSources.append(ThermalModelSource())
        }
        let configuration = try config.map(PressureConfiguration.load)
        classifier = PressureClassifier(configuration: configuration ?? PressureConfiguration())
    }

    /// `--trace FILE` for the long-running commands that can replay pressure (`serve`,
    /// `advise`).
    public static let traceOption = Option<String?>.path(
        "--trace", "FILE",
        "pressure from a recorded trace, replayed in its recorded time; stops at its end")

    /// What an observer samples: the trace of `--trace` replayed in its recorded time, or the
    /// host's sources.
    ///
    /// - Throws: ``Files/ConfigurationError`` naming the trace file when it cannot be read.
    public func observedSource(trace: String?) throws -> any SampleSource {
        guard let path = trace else { return sampler }
        return TraceReplaySource(trace: try PressureTrace.read(from: path), pacing: .recordedTimes)
    }

    /// The PSI triggers an observer of the host also wakes on, armed at the classifier's
    /// `fair` thresholds; none for a replayed trace, or where the kernel does not allow them
    /// (said once on stderr: the observer then samples on its interval alone).
    public func triggers(trace: String?) -> [PSITrigger] {
        guard trace == nil else { return [] }
        switch PSITrigger.arm(for: classifier.configuration, roots: roots) {
        case .success(let armed):
            return armed
        case .failure(let reason):
            Console.error("headroom: note: PSI triggers not armed: \(reason); sampling only")
            return []
        }
    }

    /// One sample now on the monotonic clock.
    public func sampleNow() -> PressureSample {
        // The live sampler always produces a sample.
        sampler.sample(at: ContinuousRunClock().now) ?? PressureSample(time: .origin)
    }

    /// Tells stderr, once, which sources are unavailable and why.
    public static func reportUnavailable(_ sample: PressureSample) {
        for source in sample.unavailable {
            Console.error("headroom: note: \(source)")
        }
    }
}
