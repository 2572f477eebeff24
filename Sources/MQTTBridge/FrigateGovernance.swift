import Governor
import HostService
import Locking
import MQTT
import Units

/// Frigate governed as one of the host's clients, through Frigate's own MQTT API, as a
/// service of `serve --frigate FILE`.
///
/// It registers Frigate with the host governor (not leased: this process speaks for it) and
/// applies each advice: the ladder step's profile with `frigate/profile/set` (`none` at full
/// quality), and, when the governor says pause, `frigate/CAMERA/detect/set OFF` on every
/// camera, `ON` again when it no longer does — the governor's hysteresis decides when. It
/// reads Frigate's work from `frigate/stats` (frames processed and skipped, the detectors'
/// inference time) and reports it, and sends its settings again when Frigate says `online` on
/// `frigate/available` (Frigate restarted with its own configuration). On a clean stop it
/// hands Frigate back its full quality: `none`, detection on.
public final class FrigateGovernance: Sendable {
    /// Frigate's settings as Headroom last applied them.
    public struct Applied: Hashable, Sendable {
        /// The profile (`none` for Frigate's own configuration).
        public var profile: String
        /// Whether detection is on.
        public var detects: Bool
    }

    /// The configuration.
    public let configuration: FrigateConfiguration
    private let connection: MQTTConnection
    private let service: HostService
    private let report: @Sendable (String) -> Void
    private let topics: FrigateTopics
    private let state = LockedState(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// Instants to wake at: when a resend held back by its limit may go.
    private let deferrals: AsyncStream<MonotonicInstant>
    private let deferral: AsyncStream<MonotonicInstant>.Continuation

    private struct State {
        var client: ClientID?
        var applied: Applied?
        /// Times Frigate asked to hear the settings again whatever was applied (a connection,
        /// its restart), counting the first; and how many of those asks a resend has answered.
        /// An ask that comes while a resend is being published is not answered by it: counted,
        /// not a flag that resend would clear (a flood arriving mid-send was lost so).
        var asks = 1
        var answered = 0
        /// Whether an ask is unanswered.
        var resends: Bool { asks > answered }
        /// When the settings may be sent again whole.
        var resendLimit = ResendLimit()
        /// A change waited behind unwritten messages: applied once they are written.
        var isHeldBack = false
        var lastStats: MonotonicInstant?
    }

    /// Governance of the Frigate `configuration` describes through `connection` (to Frigate's
    /// broker), registered with `service`; `report` is told each change applied, in words.
    public init(
        configuration: FrigateConfiguration, connection: MQTTConnection, service: HostService,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.configuration = configuration
        self.connection = connection
        self.service = service
        self.report = report
        topics = FrigateTopics(prefix: configuration.topicPrefix)
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (deferrals, deferral) = AsyncStream.makeStream(
            of: MonotonicInstant.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The last will of Frigate's connection: Frigate's own configuration (`none`) if Headroom
    /// dies. (Detection paused on the cameras stays paused: a will is one message.)
    public static func will(for configuration: FrigateConfiguration) -> MQTTMessage {
        MQTTMessage(
            topic: FrigateTopics(prefix: configuration.topicPrefix).profileSet, text: "none")
    }

    /// What Headroom applied last; nil before the first.
    public var applied: Applied? { state.withLock { $0.applied } }

    /// Registers Frigate, follows the advice until cancelled, then lets Frigate go with its
    /// full quality.
    ///
    /// - Throws: ``Governor/HostGovernorError`` when the host takes no more clients, or
    ///   ``MQTT/MQTTError`` when the connection cannot start.
    public func run() async throws {
        let (id, _) = try service.register(configuration.registration, leased: false)
        state.withLock { $0.client = id }
        defer { service.leave(id) }
        let topics = topics
        let wake = wake
        connection.onConnect { [state] connection in
            connection.subscribe(topics.stats)
            connection.subscribe(topics.available)
            state.withLock { state in
                state.asks += 1
                state.resendLimit.reset()
            }
            wake.yield(())
        }
        connection.onMessage { [weak self] message in self?.receive(message) }
        connection.onPublished { [state, connection] in
            guard connection.unwrittenCount == 0 else { return }
            let resumes = state.withLock { state in
                defer { state.isHeldBack = false }
                return state.isHeldBack
            }
            if resumes { wake.yield(()) }
        }
        try connection.start()
        defer {
            // Frigate back to its own configuration, detection on, before disconnecting.
            apply(Applied(profile: "none", detects: true), reason: "Headroom stopped", force: true)
            connection.stop()
        }
        let changes = service.changes.subscribe(bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            // One task applies the advice; the other only wakes it. Two applying at once could
            // leave Frigate on the older advice.
            group.addTask { for await _ in changes { wake.yield(()) } }
            group.addTask { for await _ in self.wakes { self.follow() } }
            group.addTask {
                for await instant in self.deferrals {
                    do { try await self.service.clock.sleep(until: instant) } catch { return }
                    wake.yield(())
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Applies the advice in force, if it differs from what Frigate has. Called by one task
    /// only; `run` hands Frigate back its full quality after that task has ended.
    func follow() {
        guard let id = state.withLock({ $0.client }),
            let advice = service.advice(for: id)
        else { return }
        let paused = advice.frameRate.framesPerSecond == 0 && configuration.pauses
        let profile = configuration.ladder[advice.ladderStep].name
        apply(Applied(profile: profile, detects: !paused), reason: advice.reason, force: false)
    }

    private func apply(_ wanted: Applied, reason: String, force: Bool) {
        guard connection.isConnected else { return }
        let now = service.clock.now
        // What Frigate may not have: everything after a (re)connection, its restart (at most
        // once a ResendLimit interval however often it says so), or a stop. Nothing new while
        // earlier commands wait to be written (newest wins), but the stop's hand-back.
        let decision = state.withLock {
            state -> (Applied?, resends: Bool, MonotonicInstant?, asks: Int)? in
            guard force || connection.unwrittenCount == 0 else {
                state.isHeldBack = true
                return nil
            }
            let asked = state.resends && state.applied != nil
            let resends =
                force || state.applied == nil || (asked && state.resendLimit.allows(at: now))
            // The first whole send counts against the limit, as a reconnection's does: an
            // online right after it waits for the interval, whenever the flood arrives.
            if state.applied == nil { _ = state.resendLimit.allows(at: now) }
            return (
                state.applied, resends, asked && !resends ? state.resendLimit.next : nil,
                state.asks
            )
        }
        guard let (before, resends, next, asks) = decision else { return }
        if let next { deferral.yield(next) }
        guard resends || before != wanted else { return }
        var sent = true
        if resends || before?.profile != wanted.profile {
            sent = connection.publish(MQTTMessage(topic: topics.profileSet, text: wanted.profile))
        }
        if resends || before?.detects != wanted.detects {
            for camera in configuration.cameras {
                let text = wanted.detects ? "ON" : "OFF"
                sent =
                    connection.publish(MQTTMessage(topic: topics.detectSet(camera), text: text))
                    && sent
            }
        }
        guard sent else { return }
        state.withLock { state in
            state.applied = wanted
            if resends { state.answered = max(state.answered, asks) }
        }
        if before != wanted {
            report(
                "profile \(wanted.profile), detection \(wanted.detects ? "on" : "off") (\(reason))")
        }
    }

    /// A message from Frigate: its stats (reported as work) or its availability.
    private func receive(_ message: MQTTMessage) {
        switch message.topic {
        case topics.available where message.text == "online":
            state.withLock { $0.asks += 1 }
            wake.yield(())
        case topics.stats where message.payload.count <= FrigateStats.largestPayload:
            reportWork(message.payload)
        default:
            break
        }
    }

    /// Reports the work in one `frigate/stats` payload: frames processed and skipped per
    /// second over the cameras, times the time since the previous stats; the detectors'
    /// inference time as the frames' work.
    private func reportWork(_ payload: [UInt8]) {
        guard let stats = FrigateStats(json: payload),
            let id = state.withLock({ $0.client })
        else { return }
        let now = service.clock.now
        let previous = state.withLock { state in
            defer { state.lastStats = now }
            return state.lastStats
        }
        guard let previous else { return }
        let seconds = now.duration(since: previous).seconds
        guard seconds > 0 else { return }
        let work = WorkReport(
            frames: Int((stats.processedPerSecond * seconds).rounded()),
            late: 0, dropped: Int((stats.skippedPerSecond * seconds).rounded()),
            workSeconds: .percentiles(
                p50: stats.inferenceSeconds.p50, p95: stats.inferenceSeconds.p95),
            target: .seconds(1 / configuration.detectFrameRate.framesPerSecond))
        _ = service.report(work, for: id)
    }
}

/// Frigate's MQTT topics under its prefix.
struct FrigateTopics {
    let prefix: String
    var stats: String { "\(prefix)/stats" }
    var available: String { "\(prefix)/available" }
    var profileSet: String { "\(prefix)/profile/set" }
    func detectSet(_ camera: String) -> String { "\(prefix)/\(camera)/detect/set" }
}
