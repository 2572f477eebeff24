import Files
import Foundation
import Governor
import Locking
import Pressure
import TestSupport
import Testing
import Tracking
import Units

/// The host governor sharing one budget between pipelines, stated as properties over many
/// seeded random ladders and readings, and its leases, lateness and validation by example.
struct HostGovernorTests {
    static let configuration = HostGovernorConfiguration(processorCount: 2)

    /// A random registration: 1–5 ladder steps heaviest first, priorities from a small range
    /// so that ties happen, a declared share.
    static func randomRegistration(
        _ random: inout SeededGenerator, index: Int, followsLevels: Bool = false
    ) -> ClientRegistration {
        var cost = 1.0
        let ladder = (0..<Int.random(in: 1...5, using: &random)).map { step in
            defer { cost *= Double.random(in: 0.3...1, using: &random) }
            return LadderStep(name: "step\(step)", cost: cost)
        }
        let nominal = [60.0, 30, 25, 15, 10].randomElement(using: &random)!
        let minimum = nominal * Double.random(in: 0.2...1, using: &random)
        return ClientRegistration(
            name: "client\(index)", priority: Int.random(in: 0...3, using: &random),
            nominalFrameRate: FrameRate(framesPerSecond: nominal),
            minFrameRate: FrameRate(framesPerSecond: minimum), ladder: ladder,
            share: Share(fraction: Double.random(in: 0.05...0.6, using: &random)),
            shedFirst: SheddingOrder.allCases.randomElement(using: &random)!,
            followsLevels: followsLevels)
    }

    /// A governor with 1–6 random clients (some following the levels, `withFollowers`), and a
    /// random level and budget to feed it.
    static func randomHost(_ random: inout SeededGenerator, withFollowers: Bool) throws -> (
        governor: HostGovernor, level: PressureLevel, budget: Double
    ) {
        let governor = HostGovernor(configuration: configuration)
        for index in 0..<Int.random(in: 1...6, using: &random) {
            let follows = withFollowers && Bool.random(using: &random)
            _ = try governor.register(
                randomRegistration(&random, index: index, followsLevels: follows), at: instant(0))
        }
        let level = [PressureLevel.nominal, .fair, .serious, .critical]
            .randomElement(using: &random)!
        return (governor, level, Double.random(in: 0.05...1, using: &random))
    }

    /// Feeds `governor` a constant reading once a second for 30 s, calling `afterEach` with
    /// each second.
    static func feed(
        _ governor: HostGovernor, level: PressureLevel, budget: Double,
        afterEach: (Int) -> Void = { _ in }
    ) {
        for second in 0...30 {
            governor.update(
                level: level, sustainableShare: Share(fraction: budget),
                at: instant(Double(second)))
            afterEach(second)
        }
    }

    /// The chain position of a client's advice.
    static func position(_ client: HostGovernor.ClientSummary) -> Int? {
        SheddingChain(client.registration).positions.firstIndex {
            $0.frameRate == client.advice.frameRate && $0.ladderStep == client.advice.ladderStep
        }
    }

    /// The demand of every client at its advised settings, and at its minimum.
    static func demand(_ governor: HostGovernor) -> (now: Double, minimum: Double) {
        var now = 0.0
        var minimum = 0.0
        for client in governor.clients {
            let chain = SheddingChain(client.registration)
            now += client.demand.fraction
            minimum += client.share.fraction * chain.positions[chain.last].relativeDemand
        }
        return (now, minimum)
    }

    /// Whether the advice sits at the chain's last position.
    static func isAtMinimum(_ client: HostGovernor.ClientSummary) -> Bool {
        let chain = SheddingChain(client.registration)
        let last = chain.positions[chain.last]
        return client.advice.frameRate == last.frameRate
            && client.advice.ladderStep == last.ladderStep
    }

    static func hasShed(_ client: HostGovernor.ClientSummary) -> Bool {
        client.advice.frameRate < client.registration.nominalFrameRate
            || client.advice.ladderStep > 0
    }

    @Test(
        "the demand fits whenever the minimum settings fit; priorities shed in order",
        arguments: 1...8)
    func demandFitsAndPrioritiesHold(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<50 {
            let (governor, level, budget) = try Self.randomHost(&random, withFollowers: false)
            Self.feed(governor, level: level, budget: budget) { second in
                let clients = governor.clients
                // A higher priority never sheds while a lower one still can.
                for high in clients where Self.hasShed(high) {
                    for low in clients where low.registration.priority < high.registration.priority
                    {
                        #expect(Self.isAtMinimum(low), "seed \(seed) at \(second) s")
                    }
                }
            }
            let demand = Self.demand(governor)
            if demand.minimum <= budget {
                #expect(demand.now <= budget + 1e-9, "seed \(seed): \(demand) over \(budget)")
            } else {
                #expect(governor.clients.allSatisfy(Self.isAtMinimum))
            }
        }
    }

    @Test(
        "level followers keep their level's settings; past them the demand fits, in order",
        arguments: 1...4)
    func levelFollowersKeepTheirFloor(seed: UInt64) throws {
        var random = SeededGenerator(seed: 200 + seed)
        for _ in 0..<40 {
            let (governor, level, budget) = try Self.randomHost(&random, withFollowers: true)
            Self.feed(governor, level: level, budget: budget)
            let clients = governor.clients
            for client in clients {
                let levelFloor = LevelFloor(
                    client.registration, at: level, policy: GovernorPolicy())
                let floor = SheddingChain(client.registration).firstPosition(within: levelFloor)
                let position = try #require(Self.position(client), "seed \(seed)")
                #expect(position >= floor, "seed \(seed): \(client.registration.name)")
                #expect(client.advice.ladderStep >= levelFloor.ladderStep)
                if let cap = levelFloor.frameRateCap { #expect(client.advice.frameRate <= cap) }
                // Past its floor, a higher priority sheds only when no lower one can.
                guard position > floor else { continue }
                for low in clients where low.registration.priority < client.registration.priority {
                    #expect(Self.isAtMinimum(low), "seed \(seed)")
                }
            }
            let demand = Self.demand(governor)
            if demand.minimum <= budget {
                #expect(demand.now <= budget + 1e-9, "seed \(seed): \(demand) over \(budget)")
            }
        }
    }

    @Test("a constant reading never flaps", arguments: 1...4)
    func constantReadingNeverFlaps(seed: UInt64) throws {
        var random = SeededGenerator(seed: 100 + seed)
        for _ in 0..<40 {
            let changes = LockedState(0)
            let governor = HostGovernor(
                configuration: Self.configuration, onChange: { _ in changes.withLock { $0 += 1 } })
            for index in 0..<Int.random(in: 1...6, using: &random) {
                _ = try governor.register(
                    Self.randomRegistration(&random, index: index), at: instant(0))
            }
            let level = [PressureLevel.nominal, .fair, .serious]
                .randomElement(using: &random)!
            let budget = Double.random(in: 0.05...1, using: &random)
            // Some clients follow the levels: their floors must not make anything flap either.
            for index in 0..<Int.random(in: 0...2, using: &random) {
                _ = try governor.register(
                    Self.randomRegistration(&random, index: 10 + index, followsLevels: true),
                    at: instant(0))
            }
            for second in stride(from: 0.0, through: 20, by: 0.5) {
                governor.update(
                    level: level, sustainableShare: Share(fraction: budget), at: instant(second))
            }
            let settled = changes.withLock { $0 }
            for second in stride(from: 20.5, through: 300, by: 0.5) {
                governor.update(
                    level: level, sustainableShare: Share(fraction: budget), at: instant(second))
            }
            #expect(changes.withLock { $0 } == settled, "seed \(seed): changes after settling")
        }
    }

    static func registration(
        _ name: String, priority: Int, share: Share, steps: Int = 3
    ) -> ClientRegistration {
        ClientRegistration(
            name: name, priority: priority, nominalFrameRate: 30, minFrameRate: 10,
            ladder: (0..<steps).map { LadderStep(name: "s\($0)", cost: 1 / Double($0 + 1)) },
            share: share)
    }

    @Test("reasons say what is so: lateness on a nominal host, and the wait to restore")
    func reasonsSayWhatIsSo() throws {
        let governor = HostGovernor(configuration: Self.configuration)
        let client = try governor.register(
            Self.registration("late", priority: 5, share: 0.3), at: instant(0))
        governor.update(level: .nominal, sustainableShare: 1, at: instant(1))
        let late = try #require(governor.reportLateness(0.6, for: client.id, at: instant(2)))
        #expect(late.level == .nominal && late.actingLevel == .critical)
        #expect(late.reason.contains("pipeline late: 60%"))
        #expect(late.reason.contains("nominal host, shed as critical"), "\(late.reason)")
        #expect(!late.reason.contains("; critical:"))
        // On time again: still lighter for a while, and the reason says why and for how long.
        let eased = try #require(governor.reportLateness(0, for: client.id, at: instant(3)))
        #expect(eased.frameRate == late.frameRate)
        #expect(
            eased.reason.hasPrefix(
                "kept 1 step(s) lighter for its earlier lateness: one step back"
                    + " after 10 s on time"), "\(eased.reason)")
        // Pressure that eases: the wait to restore is said, with its time.
        let shared = HostGovernor(configuration: Self.configuration)
        let pressed = try shared.register(
            Self.registration("pressed", priority: 5, share: 0.8), at: instant(0))
        shared.update(level: .serious, sustainableShare: 0.3, at: instant(1))
        shared.update(level: .nominal, sustainableShare: 1, at: instant(5))
        let waiting = try #require(shared.advice(for: pressed.id, at: instant(5)))
        #expect(waiting.frameRate < 30)
        #expect(waiting.reason.contains("nominal: easing, back to 30 fps, s0"), "\(waiting.reason)")
        #expect(waiting.reason.contains("restore dwell (in 10 s)"), "\(waiting.reason)")
    }

    @Test("restoring goes in reverse: the higher priority first, after the restore dwell")
    func restoresInReverse() throws {
        let governor = HostGovernor(configuration: Self.configuration)
        let low = try governor.register(
            Self.registration("low", priority: 1, share: 0.5), at: instant(0))
        let high = try governor.register(
            Self.registration("high", priority: 5, share: 0.5), at: instant(0))
        governor.update(level: .serious, sustainableShare: 0.3, at: instant(1))
        governor.update(level: .serious, sustainableShare: 0.3, at: instant(4))
        let shed = governor.clients
        #expect(shed.allSatisfy(Self.hasShed))
        // Enough for the high priority at nominal and the low one shed.
        var restored: [String: Double] = [:]
        for second in stride(from: 5.0, through: 40, by: 1) {
            governor.update(level: .fair, sustainableShare: 0.8, at: instant(second))
            _ = governor.advice(for: low.id, at: instant(second))
            _ = governor.advice(for: high.id, at: instant(second))
            for client in governor.clients where !Self.hasShed(client) {
                restored[client.registration.name] = restored[client.registration.name] ?? second
            }
        }
        #expect(restored["high"] == 15)
        #expect(restored["low"] == nil)
        #expect(governor.advice(for: low.id, at: instant(40))!.frameRate < 30)
        #expect(governor.advice(for: high.id, at: instant(40))!.frameRate == 30)
        for second in stride(from: 41.0, through: 60, by: 1) {
            governor.update(level: .nominal, sustainableShare: 1, at: instant(second))
        }
        #expect(governor.clients.count == 2)
        #expect(governor.clients.allSatisfy { !Self.hasShed($0) })
    }

    @Test("shutdown pauses every client at once; leaving it waits the restore dwell")
    func shutdownPauses() throws {
        let governor = HostGovernor(configuration: Self.configuration)
        let client = try governor.register(
            Self.registration("a", priority: 1, share: 0.2), at: instant(0))
        governor.update(level: .shutdown, sustainableShare: 0, at: instant(1))
        let paused = try #require(governor.advice(for: client.id, at: instant(1)))
        #expect(paused.frameRate == 0)
        #expect(paused.reason.contains("pause"))
        governor.update(level: .nominal, sustainableShare: 1, at: instant(2))
        #expect(governor.advice(for: client.id, at: instant(2))!.frameRate == 0)
        governor.update(level: .nominal, sustainableShare: 1, at: instant(12))
        let resumed = try #require(governor.advice(for: client.id, at: instant(12)))
        #expect(resumed.frameRate == 30)
        #expect(resumed.seq > paused.seq)
    }

    @Test("a client whose frames are late sheds by itself, and restores once on time")
    func latenessShedsPerClient() throws {
        let governor = HostGovernor(configuration: Self.configuration)
        let late = try governor.register(
            Self.registration("late", priority: 5, share: 0.1), at: instant(0))
        let calm = try governor.register(
            Self.registration("calm", priority: 1, share: 0.1), at: instant(0))
        let report = WorkReport(
            frames: 30, late: 12, workSeconds: .percentiles(p50: 0.03, p95: 0.05),
            target: .seconds(0.033))
        let advice = try #require(governor.report(report, for: late.id, at: instant(1)))
        #expect(advice.actingLevel == .critical)
        #expect(advice.level == .nominal)
        #expect(advice.ladderStep == 1 || advice.frameRate < 30)
        #expect(advice.reason.contains("late"))
        #expect(governor.advice(for: calm.id, at: instant(1))!.frameRate == 30)
        let onTime = WorkReport(
            frames: 30, workSeconds: .each([0.01, 0.012, 0.011]), target: .seconds(0.033))
        var second = 2.0
        while second < 40 {
            _ = governor.report(onTime, for: late.id, at: instant(second))
            second += 1
        }
        let restored = try #require(governor.advice(for: late.id, at: instant(40)))
        #expect(restored.actingLevel == .nominal)
        #expect(restored.frameRate == 30 && restored.ladderStep == 0)
    }

    @Test(
        "a client late at its heavy step does not go back to it while its work says it would be late"
    )
    func latenessDoesNotFlap() throws {
        let changes = LockedState(0)
        let governor = HostGovernor(
            configuration: Self.configuration, onChange: { _ in changes.withLock { $0 += 1 } })
        let ladder = [LadderStep(name: "full", cost: 150), LadderStep(name: "coarse", cost: 44)]
        let client = try governor.register(
            ClientRegistration(
                name: "hog", priority: 5, nominalFrameRate: 10, minFrameRate: 2, ladder: ladder,
                share: 0.3, shedFirst: .ladder),
            at: instant(0))
        // 150 ms a frame at 10 fps: late; the ladder goes first.
        let late = WorkReport(
            frames: 5, late: 5, workSeconds: .percentiles(p50: 0.15, p95: 0.16),
            target: .seconds(0.1))
        let shed = try #require(governor.report(late, for: client.id, at: instant(1)))
        #expect(shed.ladderName == "coarse" && shed.frameRate == 10)
        // 44 ms at coarse: on time, but full would take 150 ms again.
        let onTime = WorkReport(
            frames: 10, workSeconds: .percentiles(p50: 0.044, p95: 0.05), target: .seconds(0.1))
        let settled = changes.withLock { $0 }
        for second in stride(from: 2.0, through: 120, by: 1) {
            _ = governor.report(onTime, for: client.id, at: instant(second))
        }
        #expect(governor.advice(for: client.id, at: instant(120))?.ladderName == "coarse")
        #expect(changes.withLock { $0 } - settled <= 1, "only the acting level easing")
        // Work that got cheaper (15 ms at coarse: full would take 51 ms) restores it.
        let fast = WorkReport(
            frames: 10, workSeconds: .percentiles(p50: 0.015, p95: 0.02), target: .seconds(0.1))
        for second in stride(from: 121.0, through: 140, by: 1) {
            _ = governor.report(fast, for: client.id, at: instant(second))
        }
        #expect(governor.advice(for: client.id, at: instant(140))?.ladderName == "full")
    }

    /// With `requestFirst`, the survivor asks before each reading: its request, not a
    /// reading, finds the lease ended (at 30 s), and the readings after it are the same as
    /// before (the host used to stay "settled" and the survivor shed).
    @Test(
        "an expired lease gives its budget back, whoever finds it ended: a reading or a request",
        arguments: [false, true])
    func leasesExpire(requestFirst: Bool) throws {
        let governor = HostGovernor(configuration: Self.configuration)
        let gone = try governor.register(
            Self.registration("gone", priority: 9, share: 0.6), at: instant(0))
        let stays = try governor.register(
            Self.registration("stays", priority: 1, share: 0.6), at: instant(0))
        governor.update(level: .fair, sustainableShare: 0.7, at: instant(1))
        #expect(governor.advice(for: stays.id, at: instant(1))!.frameRate < 30)
        for second in stride(from: 2.0, through: 90, by: 1) {
            if requestFirst { _ = governor.advice(for: stays.id, at: instant(second)) }
            governor.update(level: .fair, sustainableShare: 0.7, at: instant(second))
            if !requestFirst { _ = governor.advice(for: stays.id, at: instant(second)) }
        }
        #expect(governor.advice(for: gone.id, at: instant(90)) == nil)
        #expect(governor.remove(gone.id, at: instant(90)) == false)
        #expect(governor.clients.map(\.id) == [stays.id])
        let alone = try #require(governor.advice(for: stays.id, at: instant(90)))
        #expect(alone.frameRate == 30 && alone.ladderStep == 0)
    }

    @Test("at most clientLimit clients")
    func clientLimit() throws {
        let governor = HostGovernor(
            configuration: HostGovernorConfiguration(clientLimit: 2, processorCount: 2))
        _ = try governor.register(Self.registration("a", priority: 1, share: 0.1), at: instant(0))
        _ = try governor.register(Self.registration("b", priority: 1, share: 0.1), at: instant(0))
        #expect(throws: HostGovernorError.clientLimitReached(2)) {
            try governor.register(Self.registration("c", priority: 1, share: 0.1), at: instant(0))
        }
    }

    @Test("without a declared share, the work reports teach it")
    func learnsShareFromWork() throws {
        let governor = HostGovernor(configuration: Self.configuration)
        var registration = Self.registration("learn", priority: 1, share: 0.1)
        registration.share = nil
        let client = try governor.register(registration, at: instant(0))
        #expect(governor.clients[0].share == 0.5)
        // 10 ms a frame at 30 fps on 2 processors: 15 % of the host.
        let report = WorkReport(
            frames: 30, workSeconds: .each(Array(repeating: 0.01, count: 30)),
            target: .seconds(1.0) / 30)
        _ = governor.report(report, for: client.id, at: instant(1))
        #expect(abs(governor.clients[0].share.fraction - 0.15) < 1e-9)
    }

    @Test("the shedding chain gives up the least first and ends at the minimum")
    func sheddingChain() {
        let chain = SheddingChain(
            ClientRegistration(
                name: "hog", priority: 1, nominalFrameRate: 30, minFrameRate: 10,
                ladder: [
                    LadderStep(name: "full", cost: 184), LadderStep(name: "0.75", cost: 86),
                    LadderStep(name: "0.5", cost: 31),
                ]))
        #expect(chain.positions.first?.frameRate == 30)
        #expect(chain.positions.first?.ladderStep == 0)
        #expect(chain.positions.last?.frameRate == 10)
        #expect(chain.positions.last?.ladderStep == 2)
        for (before, after) in zip(chain.positions, chain.positions.dropFirst()) {
            #expect(after.relativeDemand < before.relativeDemand)
        }
        // 30 → 25 fps keeps 83 %, the next ladder step only 47 %: the frame rate goes first.
        #expect(chain.positions[1].frameRate == 25)
    }

    @Test("a client may ask for its ladder, or its frame rate, to be turned first")
    func sheddingOrders() {
        func chain(_ order: SheddingOrder) -> [SheddingChain.Position] {
            SheddingChain(
                ClientRegistration(
                    name: "hog", priority: 1, nominalFrameRate: 10, minFrameRate: 2,
                    ladder: [
                        LadderStep(name: "full", cost: 150), LadderStep(name: "coarse", cost: 44),
                        LadderStep(name: "small", cost: 24),
                    ], shedFirst: order)
            ).positions
        }
        let ladderFirst = chain(.ladder)
        #expect(ladderFirst.map(\.ladderStep).prefix(3) == [0, 1, 2])
        #expect(ladderFirst.prefix(3).allSatisfy { $0.frameRate == 10 })
        let rateFirst = chain(.frameRate)
        #expect(rateFirst.map(\.frameRate) == [10, 5, 2, 2, 2])
        #expect(rateFirst.map(\.ladderStep) == [0, 0, 0, 1, 2])
        for positions in [ladderFirst, rateFirst, chain(.cheapest)] {
            #expect(positions.last?.frameRate == 2 && positions.last?.ladderStep == 2)
            for (before, after) in zip(positions, positions.dropFirst()) {
                #expect(after.relativeDemand < before.relativeDemand)
            }
        }
    }

    @Test(
        "registrations are validated with the field named",
        arguments: [
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[]}"#,
                "ladder"
            ),
            (
                #"{"name":"a","priority":101,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "priority"
            ),
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":40,"ladder":[{"name":"x","cost":1}]}"#,
                "minFrameRate"
            ),
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1},{"name":"y","cost":2}]}"#,
                "ladder"
            ),
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":-1}]}"#,
                "ladder[0].cost"
            ),
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}],"colour":1}"#,
                "colour"
            ),
            (
                #"{"name":"","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "name"
            ),
            (
                #"{"name":"a","priority":"high","nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "priority"
            ),
            // A right-to-left override, a zero-width space, a byte-order mark, a line
            // separator and a tag character hide what a name says.
            (
                #"{"name":"cam\u202Eera","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "name"
            ),
            (
                #"{"name":"a\u200Bb","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "name"
            ),
            (
                #"{"name":"\uFEFFa","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "name"
            ),
            (
                #"{"name":"a\u2028b","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "name"
            ),
            (
                #"{"name":"a\uDB40\uDC41","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "name"
            ),
            // One grapheme of 3,000 combining marks: 64 characters are counted as scalars.
            (
                #"{"name":"e"# + String(repeating: "\u{301}", count: 3000)
                    + #"","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}]}"#,
                "name"
            ),
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}],"shedFirst":"quality"}"#,
                "shedFirst"
            ),
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1,"quality":1.5}]}"#,
                "ladder[0].quality"
            ),
            (
                #"{"name":"a","priority":1,"nominalFrameRate":30,"minFrameRate":10,"ladder":[{"name":"x","cost":1}],"followsLevels":"yes"}"#,
                "followsLevels"
            ),
        ])
    func registrationValidation(json: String, path: String) {
        #expect {
            try ClientRegistration.decode(Data(json.utf8))
        } throws: { error in
            (error as? ConfigurationError)?.path == path
        }
    }

    @Test(
        "work reports are validated with the field named",
        arguments: [
            (#"{"frames":10,"late":11,"workSeconds":[],"targetSeconds":0.03}"#, "late"),
            (#"{"frames":10,"workSeconds":[0.1,-1],"targetSeconds":0.03}"#, "workSeconds[1]"),
            (
                #"{"frames":10,"workSeconds":{"p50":0.2,"p95":0.1},"targetSeconds":0.03}"#,
                "workSeconds.p95"
            ),
            (#"{"frames":10,"workSeconds":[],"targetSeconds":0}"#, "targetSeconds"),
            (
                #"{"frames":10,"workSeconds":{"p50":0.2,"p99":0.3},"targetSeconds":1}"#,
                "workSeconds.p99"
            ),
        ])
    func reportValidation(json: String, path: String) {
        #expect {
            try WorkReport.decode(Data(json.utf8))
        } throws: { error in
            (error as? ConfigurationError)?.path == path
        }
    }
}
