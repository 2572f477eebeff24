import Locking
import Pressure
import Units

/// The governor for every pipeline on the host: it holds each registered client's shedding
/// chain, priority and lateness, and decides for the host as a whole.
///
/// When the sustainable share falls, the clients shed one chain position at a time, lowest
/// priority first (equal priorities in turn, the one that has shed least first), until their
/// summed demand fits the share or nobody can shed further; restoring goes the other way, a
/// lower priority waiting while a higher one still waits to restore. Each client keeps the
/// dwell times of ``GovernorPolicy`` (a step-down at most once per dwell unless the host is
/// `critical`; restoring after pressure has eased for the restore dwell). A client whose own
/// frames are late (its work reports) sheds further by itself, as Headroom's own pipeline does.
/// At `shutdown` every client is told to pause. A client that follows the levels
/// (``ClientRegistration/followsLevels``, as `headroom run`'s own pipeline does) also keeps to
/// the policy's settings at its acting level (``LevelFloor``), whatever the budget.
///
/// Times are instants of the pressure readings' clock. Thread-safe; every change of a client's
/// advice is handed to the `onChange` given at creation, in order, under the governor's lock
/// (so it must be quick and must not call back into the governor).
public final class HostGovernor: Sendable {
    /// The bounds and timings in force.
    public let configuration: HostGovernorConfiguration
    private let state: LockedState<State>
    private let onChange: @Sendable (AdviceChange) -> Void

    /// A governor with no clients, at `nominal` with the whole budget.
    public init(
        configuration: HostGovernorConfiguration,
        onChange: @escaping @Sendable (AdviceChange) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.onChange = onChange
        state = LockedState(State())
    }

    /// What one registered client looks like from outside.
    public struct ClientSummary: Hashable, Sendable {
        /// Its id.
        public var id: ClientID
        /// Its registration.
        public var registration: ClientRegistration
        /// Its advice now.
        public var advice: ClientAdvice
        /// The share of the host it uses at its nominal settings, declared or learned.
        public var share: Share
        /// The share it uses at the advised settings.
        public var demand: Share
    }

    /// Increases whenever a client registers or leaves or its advice changes: a publisher of
    /// ``clients`` needs to look again only when it moved.
    public var revision: Int { state.withLock { $0.revision } }

    /// Every registered client, highest priority first.
    public var clients: [ClientSummary] {
        state.withLock { state in
            state.byPriority().map { client in
                ClientSummary(
                    id: client.id, registration: client.registration, advice: client.advice,
                    share: client.share(unknown: configuration.unknownShare),
                    demand: client.demand(unknown: configuration.unknownShare))
            }
        }
    }

    /// Registers a client at `time` and returns its id and first advice. A `leased` client is
    /// forgotten when it sends nothing for ``HostGovernorConfiguration/lease``; one that is not
    /// (a pipeline in the governor's own process) stays until removed.
    ///
    /// - Throws: ``HostGovernorError/clientLimitReached(_:)`` when the host has as many
    ///   clients as it takes.
    public func register(
        _ registration: ClientRegistration, at time: MonotonicInstant, leased: Bool = true
    ) throws(HostGovernorError) -> (id: ClientID, advice: ClientAdvice) {
        let configuration = configuration
        let result: Result<(ClientID, ClientAdvice), HostGovernorError> = state.withLock {
            state in
            expire(&state, at: time)
            guard state.clients.count < configuration.clientLimit else {
                return .failure(.clientLimitReached(configuration.clientLimit))
            }
            var id = ClientID.random()
            while state.clients[id] != nil { id = ClientID.random() }
            state.nextOrder += 1
            let chain = SheddingChain(registration, policy: configuration.policy)
            state.clients[id] = Client(
                id: id, registration: registration, order: state.nextOrder, chain: chain,
                leaseEnds: leased ? time.advanced(by: configuration.lease) : nil,
                advice: ClientAdvice(
                    seq: 0, level: state.level, actingLevel: state.level,
                    frameRate: registration.nominalFrameRate, ladderStep: 0,
                    ladderName: registration.ladder[0].name, reason: "registered"))
            arbitrate(&state, at: time)
            return .success((id, state.clients[id]!.advice))
        }
        return try result.get()
    }

    /// The client's advice, renewing its lease; nil when no such client is registered (never
    /// was, removed, or its lease ended).
    public func advice(for id: ClientID, at time: MonotonicInstant) -> ClientAdvice? {
        state.withLock { state in
            // A lease that ended now gives its share back to the others at once.
            if !expire(&state, at: time).isEmpty { arbitrate(&state, at: time) }
            guard var client = state.clients[id] else { return nil }
            client.renewLease(at: time, lease: configuration.lease)
            state.clients[id] = client
            return client.advice
        }
    }

    /// Takes a client's work report at `time`: its lateness (a late client sheds further by
    /// itself) and, unless it declared a share, the share its work shows; renews its lease and
    /// returns its advice afterwards, or nil when no such client is registered.
    public func report(_ report: WorkReport, for id: ClientID, at time: MonotonicInstant)
        -> ClientAdvice?
    {
        take(
            Work(
                lateShare: report.lateShare, frames: report.frames,
                medianSeconds: report.workSeconds.median), for: id, at: time)
    }

    /// Takes a client's lateness at `time` — the share of its frames that missed their
    /// deadline since it last said — as a report without durations; for a pipeline that counts
    /// late frames but does not time its work (`headroom run`'s own).
    @discardableResult
    public func reportLateness(_ lateShare: Share, for id: ClientID, at time: MonotonicInstant)
        -> ClientAdvice?
    {
        take(Work(lateShare: lateShare, frames: 0, medianSeconds: nil), for: id, at: time)
    }

    /// What a report tells the governor: the lateness, and the work when it was timed.
    private struct Work {
        var lateShare: Share
        var frames: Int
        var medianSeconds: Double?
    }

    /// Takes `work` for client `id` at `time`, renewing its lease; its advice afterwards, or
    /// nil when no such client is registered.
    private func take(_ work: Work, for id: ClientID, at time: MonotonicInstant) -> ClientAdvice? {
        let configuration = configuration
        return state.withLock { state in
            expire(&state, at: time)
            guard var client = state.clients[id] else { return nil }
            client.renewLease(at: time, lease: configuration.lease)
            let before = client.arbitrationInputs
            client.take(work, at: time, hostLevel: state.level, configuration: configuration)
            state.clients[id] = client
            // A report that changed nothing arbitration reads (an on-time pipeline reporting
            // every sample) leaves a settled host as it is.
            if !state.isSettled || client.arbitrationInputs != before {
                arbitrate(&state, at: time)
            }
            return state.clients[id]?.advice
        }
    }

    /// Forgets a client at once; whether it was registered.
    @discardableResult
    public func remove(_ id: ClientID, at time: MonotonicInstant) -> Bool {
        state.withLock { state in
            guard state.clients.removeValue(forKey: id) != nil else { return false }
            state.revision += 1
            arbitrate(&state, at: time)
            return true
        }
    }

    /// Feeds one pressure reading: the level and sustainable share the host now has.
    public func update(with reading: PressureReading) {
        update(level: reading.level, sustainableShare: reading.sustainableShare, at: reading.time)
    }

    /// Feeds the host's level and sustainable share (0…1; unknown counts as 1) at `time`;
    /// clients whose lease ended are forgotten first.
    public func update(level: PressureLevel, sustainableShare: Share, at time: MonotonicInstant) {
        let budget = sustainableShare.fraction.isFinite ? sustainableShare.clamped.fraction : 1
        state.withLock { state in
            // The same reading as before with every client where it should be and no lease
            // ended: nothing can move (the usual case, sample after sample).
            let hasExpired = state.clients.values.contains { $0.hasExpired(at: time) }
            if state.isSettled && level == state.level && budget == state.budget && !hasExpired {
                return
            }
            state.level = level
            state.budget = budget
            expire(&state, at: time)
            arbitrate(&state, at: time)
        }
    }

    /// The clients whose lease has ended by `time`, forgotten now (the others rebalance).
    @discardableResult
    public func expireLeases(at time: MonotonicInstant) -> [ClientID] {
        state.withLock { state in
            let expired = expire(&state, at: time)
            if !expired.isEmpty { arbitrate(&state, at: time) }
            return expired
        }
    }

    // MARK: - Arbitration

    /// Forgets the clients whose lease has ended by `time`. The host is then unsettled:
    /// whoever expired them arbitrates (at once, or with its own change), so the others get
    /// the share back whichever request or reading found the lease ended.
    @discardableResult
    private func expire(_ state: inout State, at time: MonotonicInstant) -> [ClientID] {
        let expired = state.clients.values.filter { $0.hasExpired(at: time) }.map(\.id)
        for id in expired { state.clients[id] = nil }
        if !expired.isEmpty {
            state.revision += 1
            state.isSettled = false
        }
        return expired.sorted()
    }

    /// Where each client should be for the host to fit: every client starts at its own floor
    /// (its lateness, and the policy's settings at its acting level when it follows the
    /// levels), and while the demand exceeds the budget the lowest priority sheds, the one
    /// that has shed least among equals.
    private func targets(_ state: State) -> [ClientID: Int] {
        let unknown = configuration.unknownShare
        var positions = state.clients.mapValues { client in
            max(client.lateSheds, floorPosition(of: client, hostLevel: state.level))
        }
        var demand = state.clients.values.reduce(0) { sum, client in
            sum + client.share(unknown: unknown).fraction
                * client.chain.positions[positions[client.id]!].relativeDemand
        }
        let candidates = state.clients.values.sorted {
            ($0.registration.priority, $0.order) < ($1.registration.priority, $1.order)
        }
        while demand > state.budget + 1e-12 {
            var chosen: Client?
            for client in candidates where positions[client.id]! < client.chain.last {
                guard let best = chosen else {
                    chosen = client
                    continue
                }
                guard client.registration.priority == best.registration.priority else { break }
                if positions[client.id]! < positions[best.id]! { chosen = client }
            }
            guard let client = chosen else { break }
            let share = client.share(unknown: unknown).fraction
            let before = client.chain.positions[positions[client.id]!].relativeDemand
            positions[client.id]! += 1
            let after = client.chain.positions[positions[client.id]!].relativeDemand
            demand -= share * (before - after)
        }
        return positions
    }

    /// The chain position the policy's settings at `client`'s acting level ask for (0 for a
    /// client that does not follow the levels).
    private func floorPosition(of client: Client, hostLevel: PressureLevel) -> Int {
        let policy = configuration.policy
        let (acting, _) = policy.actingLevel(pressure: hostLevel, lateShare: client.lateShare)
        return client.chain.firstPosition(
            within: LevelFloor(client.registration, at: acting, policy: policy))
    }

    /// Moves every client towards its target within its dwell times, then publishes the
    /// advice that changed. Shedding goes lowest priority first and restoring highest first;
    /// a client waiting out its dwell holds back the ones after it, so at no moment does a
    /// higher priority give up more than a lower one that still could.
    private func arbitrate(_ state: inout State, at time: MonotonicInstant) {
        let policy = configuration.policy
        let targets = targets(state)
        let pausing = state.level >= .shutdown
        let urgent = state.level >= .critical
        let order = state.byPriority().map(\.id)
        var shedWaits = false
        for id in order.reversed() {
            var client = state.clients[id]!
            let lighter =
                !client.isPaused && (pausing || targets[id]! > client.position)
            guard lighter else { continue }
            client.easedSince = nil
            if urgent
                || (!shedWaits && time.isAtLeast(policy.stepDownDwell, after: client.lastChange))
            {
                client.move(to: targets[id]!, paused: pausing, at: time)
            } else {
                shedWaits = true
            }
            state.clients[id] = client
        }
        var restoreWaits = false
        for id in order {
            var client = state.clients[id]!
            let heavier = !pausing && (client.isPaused || targets[id]! < client.position)
            if heavier {
                let since = client.easedSince ?? time
                client.easedSince = since
                if !restoreWaits, time.isAtLeast(policy.restoreDwell, after: since),
                    time.isAtLeast(policy.restoreDwell, after: client.lastChange)
                {
                    client.move(to: targets[id]!, paused: false, at: time)
                } else {
                    restoreWaits = true
                }
            } else if targets[id]! == client.position && client.isPaused == pausing {
                client.easedSince = nil
            }
            state.clients[id] = client
        }
        state.isSettled = state.clients.values.allSatisfy { client in
            targets[client.id] == client.position && client.isPaused == pausing
        }
        publish(&state, in: order, targets: targets, at: time)
    }

    /// Gives each client the advice for its position; a client whose advice asks for
    /// something new gets the next sequence number and is handed to `onChange`.
    private func publish(
        _ state: inout State, in order: [ClientID], targets: [ClientID: Int],
        at time: MonotonicInstant
    ) {
        let unknown = configuration.unknownShare
        let demand = state.clients.values.reduce(Share.zero) { $0 + $1.demand(unknown: unknown) }
        for id in order {
            var client = state.clients[id]!
            let (acting, lateness) = configuration.policy.actingLevel(
                pressure: state.level, lateShare: client.lateShare)
            let position = client.chain.positions[client.position]
            var advice = client.advice
            advice.level = state.level
            advice.actingLevel = acting
            advice.frameRate = client.isPaused ? 0 : position.frameRate
            advice.ladderStep = position.ladderStep
            advice.ladderName = client.registration.ladder[position.ladderStep].name
            guard client.isNew || !advice.asksTheSame(as: client.advice) else { continue }
            client.isNew = false
            state.seq += 1
            state.revision += 1
            advice.seq = state.seq
            advice.reason = reason(
                for: client, advice: advice, lateness: lateness, budget: state.budget,
                demand: demand,
                isPolicyFloor: client.position > 0
                    && client.position <= floorPosition(of: client, hostLevel: state.level),
                restoring: restoring(client, to: targets[id] ?? client.position, at: time))
            client.advice = advice
            state.clients[id] = client
            onChange(AdviceChange(client: id, name: client.registration.name, advice: advice))
        }
    }

    /// What a client shed further than its target waits for: the target's settings and how
    /// long until the restore dwell lets it move; nil when it is not waiting to restore.
    private func restoring(_ client: Client, to target: Int, at time: MonotonicInstant)
        -> (settings: String, wait: Duration)?
    {
        guard !client.isPaused, target < client.position else { return nil }
        let dwell = configuration.policy.restoreDwell
        let ready =
            [client.easedSince, client.lastChange].compactMap { $0?.advanced(by: dwell) }
            .max() ?? time
        let position = client.chain.positions[target]
        let name = client.registration.ladder[position.ladderStep].name
        return (
            "\(position.frameRate.framesPerSecond.trimmed()) fps, \(name)",
            max(.zero, ready.duration(since: time))
        )
    }

    private func reason(
        for client: Client, advice: ClientAdvice, lateness: String?, budget: Double,
        demand: Share, isPolicyFloor: Bool, restoring: (settings: String, wait: Duration)?
    ) -> String {
        if client.isPaused { return "shutdown: pause until pressure eases" }
        var parts: [String] = []
        if let lateness { parts.append(lateness) }
        if lateness == nil, client.lateSheds > 0, restoring == nil {
            let restore = configuration.policy.restoreDwell.seconds.trimmed()
            parts.append(
                "kept \(client.lateSheds) step(s) lighter for its earlier lateness: one step back"
                    + " after \(restore) s on time")
        }
        if let restoring {
            parts.append(
                "\(advice.level): easing, back to \(restoring.settings) once the host has stayed"
                    + " eased for the restore dwell (in \(restoring.wait.seconds.trimmed(1)) s)")
        }
        // Lateness may shed a pipeline on a host that is not under pressure: say both.
        let level =
            advice.actingLevel == advice.level
            ? "\(advice.level)" : "\(advice.level) host, shed as \(advice.actingLevel)"
        guard restoring == nil else {
            parts.append(
                "priority \(client.registration.priority) runs at \(advice.frameRate.framesPerSecond.trimmed()) fps, \(advice.ladderName) meanwhile"
            )
            return parts.joined(separator: "; ")
        }
        let settings = "\(advice.frameRate.framesPerSecond.trimmed()) fps, \(advice.ladderName)"
        if isPolicyFloor {
            let cap =
                advice.frameRate < client.registration.nominalFrameRate
                ? "cap \(advice.frameRate.framesPerSecond.trimmed()) fps, " : ""
            parts.append("\(level): \(cap)\(advice.ladderName) by the policy")
        } else if client.position == 0 {
            parts.append("\(advice.level): nominal settings (\(settings))")
        } else {
            parts.append(
                "\(level): the host sustains \(budget.trimmed(2)) of its budget, the"
                    + " clients now use \(demand.fraction.trimmed(2)); priority \(client.registration.priority)"
                    + " runs at \(settings)")
        }
        return parts.joined(separator: "; ")
    }

    // MARK: - State

    private struct State {
        var clients: [ClientID: Client] = [:]
        var level = PressureLevel.nominal
        var budget = 1.0
        var nextOrder = 0
        var seq = 0
        var revision = 0
        /// Every client is at the position the last arbitration targeted: until the reading
        /// changes or a client does, arbitrating again would change nothing.
        var isSettled = false

        /// Highest priority first, then in the order they registered.
        func byPriority() -> [Client] {
            clients.values.sorted {
                ($1.registration.priority, $0.order) < ($0.registration.priority, $1.order)
            }
        }
    }

    private struct Client {
        let id: ClientID
        let registration: ClientRegistration
        let order: Int
        let chain: SheddingChain
        var position = 0
        var isPaused = false
        var lastChange: MonotonicInstant?
        var easedSince: MonotonicInstant?
        /// When the lease ends; nil for a client that is not leased.
        var leaseEnds: MonotonicInstant?
        var learnedShare: Share?
        var lateShare = Share.zero
        var lateSheds = 0
        var lastLateChange: MonotonicInstant?
        var onTimeSince: MonotonicInstant?
        var advice: ClientAdvice
        /// Registered, and not yet given its first advice.
        var isNew = true

        init(
            id: ClientID, registration: ClientRegistration, order: Int, chain: SheddingChain,
            leaseEnds: MonotonicInstant?, advice: ClientAdvice
        ) {
            self.id = id
            self.registration = registration
            self.order = order
            self.chain = chain
            self.leaseEnds = leaseEnds
            self.advice = advice
        }

        /// Whether the frames would be on time at chain `position`, predicted from the median
        /// work time measured where the client is now (scaled by the ladder costs, against that
        /// position's frame interval with a 15 % margin); true without durations. Keeps a
        /// client that was late at a heavier setting from going back to it every restore dwell.
        func wouldKeepUp(at position: Int, medianSeconds: Double?) -> Bool {
            guard let median = medianSeconds else { return true }
            let costs = registration.ladder.map(\.cost)
            let now = chain.positions[self.position]
            let then = chain.positions[position]
            let predicted = median * costs[then.ladderStep] / costs[now.ladderStep]
            return predicted <= 0.85 / then.frameRate.framesPerSecond
        }

        /// What of a client's own state arbitration reads: its lateness, the positions it shed
        /// for it, its learned share.
        var arbitrationInputs: ArbitrationInputs {
            ArbitrationInputs(
                lateShare: lateShare, lateSheds: lateSheds, learnedShare: learnedShare)
        }

        struct ArbitrationInputs: Equatable {
            var lateShare: Share
            var lateSheds: Int
            var learnedShare: Share?
        }

        /// Whether a leased client's lease ended before `time`.
        func hasExpired(at time: MonotonicInstant) -> Bool {
            leaseEnds.map { $0 < time } ?? false
        }

        /// Extends a leased client's lease to `lease` from `time`.
        mutating func renewLease(at time: MonotonicInstant, lease: Duration) {
            if leaseEnds != nil { leaseEnds = time.advanced(by: lease) }
        }

        func share(unknown: Share) -> Share {
            registration.share ?? learnedShare ?? unknown
        }

        func demand(unknown: Share) -> Share {
            isPaused ? .zero : share(unknown: unknown) * chain.positions[position].relativeDemand
        }

        mutating func move(to position: Int, paused: Bool, at time: MonotonicInstant) {
            self.position = position
            isPaused = paused
            lastChange = time
            easedSince = nil
        }

        /// Lateness sheds one more position per step-down dwell while the client is late, and
        /// gives one back per restore dwell on time; the work learns the share.
        mutating func take(
            _ work: Work, at time: MonotonicInstant, hostLevel: PressureLevel,
            configuration: HostGovernorConfiguration
        ) {
            let policy = configuration.policy
            lateShare = work.lateShare
            let (acting, _) = policy.actingLevel(pressure: hostLevel, lateShare: lateShare)
            if acting > hostLevel {
                onTimeSince = nil
                if lateSheds < chain.last,
                    time.isAtLeast(policy.stepDownDwell, after: lastLateChange)
                {
                    lateSheds += 1
                    lastLateChange = time
                }
            } else if lateShare < policy.lateShareToShed {
                let since = onTimeSince ?? time
                onTimeSince = since
                if lateSheds > 0, time.isAtLeast(policy.restoreDwell, after: since),
                    time.isAtLeast(policy.restoreDwell, after: lastLateChange),
                    wouldKeepUp(at: lateSheds - 1, medianSeconds: work.medianSeconds)
                {
                    lateSheds -= 1
                    lastLateChange = time
                    onTimeSince = time
                }
            }
            guard registration.share == nil, !isPaused, work.frames > 0,
                let median = work.medianSeconds
            else { return }
            let position = chain.positions[position]
            let used =
                median * position.frameRate.framesPerSecond / Double(configuration.processorCount)
            let nominal = Share(fraction: min(1, max(0.001, used / position.relativeDemand)))
            learnedShare = learnedShare.map { $0 * 0.7 + nominal * 0.3 } ?? nominal
        }
    }
}
