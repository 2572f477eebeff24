import Locking

/// A phase of a launch, identified by a small number so that marking it costs no allocation.
///
/// The standard phases are static members (`.sessionStart`); custom ones are registered once
/// by name with ``init(named:)`` and reused. Names are process-wide: the same name always gives
/// the same phase.
public struct LaunchPhase: Hashable, Sendable, CustomStringConvertible {
    /// The phase's number: standard phases first, then custom ones in registration order;
    /// at most ``maximumCount`` phases exist in a process.
    public let id: UInt16

    /// How many phases a process can have, standard ones included (ids fit in 12 bits).
    public static let maximumCount = 4096

    /// From the process's creation by the kernel to the creation of the timeline (≈ `main`).
    public static let processStart = LaunchPhase(id: 0)
    /// The application's own setup before it touches the capture session.
    public static let appInit = LaunchPhase(id: 1)
    /// Building and committing the session configuration (validation and pricing included).
    public static let sessionConfiguration = LaunchPhase(id: 2)
    /// From `startRunning` until frames flow: non-deferred outputs are initialized inside it.
    public static let sessionStart = LaunchPhase(id: 3)
    /// Initializing outputs; per-output phases are custom phases named
    /// `outputInitialization.<kind>` (see ``outputInitialization(named:)``).
    public static let outputInitialization = LaunchPhase(id: 4)
    /// The first frame delivered to the preview: what makes a camera feel fast.
    public static let firstPreviewFrame = LaunchPhase(id: 5)
    /// Initializing the outputs whose start was deferred until after the first preview frame.
    public static let deferredStart = LaunchPhase(id: 6)
    /// The first moment a photo can be captured (the photo output is ready).
    public static let firstCaptureReady = LaunchPhase(id: 7)

    /// The standard phases, in launch order.
    public static let standard: [LaunchPhase] = [
        .processStart, .appInit, .sessionConfiguration, .sessionStart, .outputInitialization,
        .firstPreviewFrame, .deferredStart, .firstCaptureReady,
    ]

    private static let standardNames = [
        "processStart", "appInit", "sessionConfiguration", "sessionStart",
        "outputInitialization", "firstPreviewFrame", "deferredStart", "firstCaptureReady",
    ]

    /// The phase with `id`; ids not yet registered are named `phase<id>`.
    public init(id: UInt16) {
        self.id = id
    }

    /// The phase called `name`: a standard phase when `name` is one of theirs, otherwise a
    /// custom phase registered now (or earlier, by the same name).
    ///
    /// Registration takes a lock and may allocate, so register custom phases before the hot
    /// path and keep the returned value. When ``maximumCount`` phases exist, further names all
    /// share the last id, named `overflow`.
    public init(named name: String) {
        if let index = Self.standardNames.firstIndex(of: name) {
            self.init(id: UInt16(index))
            return
        }
        let id = Self.registry.withLock { registry -> UInt16 in
            if let id = registry.ids[name] { return id }
            let next = Self.standardNames.count + registry.names.count
            guard next < Self.maximumCount - 1 else { return UInt16(Self.maximumCount - 1) }
            registry.names.append(name)
            registry.ids[name] = UInt16(next)
            return UInt16(next)
        }
        self.init(id: id)
    }

    /// The phase that times the initialization of one output, named
    /// `outputInitialization.<label>` (for instance `outputInitialization.photo`).
    public static func outputInitialization(named label: String) -> LaunchPhase {
        LaunchPhase(named: "outputInitialization.\(label)")
    }

    /// Whether the phase is one of the ``standard`` phases.
    public var isStandard: Bool { Int(id) < Self.standardNames.count }

    /// The phase's name, as reports and the history show it.
    public var name: String {
        let index = Int(id)
        if index < Self.standardNames.count { return Self.standardNames[index] }
        if index == Self.maximumCount - 1 { return "overflow" }
        return Self.registry.withLock { registry in
            let custom = index - Self.standardNames.count
            return custom < registry.names.count ? registry.names[custom] : "phase\(index)"
        }
    }

    /// The phase's name.
    public var description: String { name }

    private struct Registry {
        var names: [String] = []
        var ids: [String: UInt16] = [:]
    }

    private static let registry = LockedState(Registry())
}
