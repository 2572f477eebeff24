import Capture
import Files
import Foundation
import Governor
import HostService
import Locking
import MQTT
import Pressure
import TestSupport
import Testing
import Units

@testable import MQTTBridge

/// Frigate governed through a real mosquitto, the host's pressure given by hand on a manual
/// clock, and a fake Frigate that only listens (what Headroom sends is what Frigate would do).
@Suite(.serialized, .timeLimit(.minutes(10)))
struct FrigateGovernanceTests {
    let broker: MosquittoBroker
    let clock = ManualClock(start: 100)
    let service: HostService
    let frigate: FrigateConfiguration
    let governance: FrigateGovernance
    /// What reaches Frigate's topics.
    let inbox = Inbox()
    let listener: MQTTConnection
    /// The changes Headroom reported, in words.
    let reports = LockedState<[String]>([])

    init() throws {
        broker = try MosquittoBroker()
        service = HostService(
            configuration: HostGovernorConfiguration(processorCount: 2), clock: clock,
            catalog: ProfileCatalog(calibratedDirectory: nil))
        frigate = try decodeStrictly(
            FrigateConfiguration.self,
            from: Data(
                """
                {"cameras": ["front_door", "yard"], "priority": 3, "detectFrameRate": 5,
                 "ladder": [{"name": "none", "cost": 100}, {"name": "reduced", "cost": 40}]}
                """.utf8), file: "frigate.json")
        let connection = try MQTTConnection(
            broker: broker.broker, clientID: "headroom-frigate",
            will: FrigateGovernance.will(for: frigate))
        let reports = reports
        governance = FrigateGovernance(
            configuration: frigate, connection: connection, service: service,
            report: { report in reports.withLock { $0.append(report) } })
        listener = try MQTTConnection(broker: broker.broker, clientID: "frigate")
        listener.onConnect { $0.subscribe("frigate/#") }
        listener.onMessage { [inbox] in inbox.add($0) }
        try listener.start()
    }

    /// The host at `level`, sustaining `share` of its budget, every 5 s for `seconds`. Frigate
    /// asks for half the host at its full quality, a fifth at `reduced`.
    func hold(_ level: PressureLevel, share: Double, for seconds: Int) {
        for _ in 0..<max(1, seconds / 5) {
            var reading = BridgeReadings.reading(level)
            reading.time = clock.now
            reading.sustainableShare = Share(fraction: share)
            service.consume(reading)
            clock.advance(by: .seconds(5))
        }
    }

    /// Whether Frigate was last told its full quality: profile `none`, detection on.
    var appliesFullQuality: Bool {
        governance.applied.map { $0.profile == "none" && $0.detects } ?? false
    }

    /// The texts sent to `topic`, oldest first.
    func sent(to topic: String) -> [String] { inbox.all(on: topic).map(\.text) }

    @Test(
        "down the profiles under pressure, detection off at shutdown and on again, everything again when Frigate restarts, full quality handed back"
    )
    func governs() async throws {
        defer { listener.stop() }
        // Frigate's settings are neither retained nor sent twice: the listener subscribes first.
        #expect(
            await waitUntil {
                listener.publish(MQTTMessage(topic: "frigate/probe", text: "here"))
                return !inbox.all(on: "frigate/probe").isEmpty
            })
        hold(.nominal, share: 1, for: 5)
        let running = Task { try await governance.run() }
        let profiles = "frigate/profile/set"
        let cameras = ["frigate/front_door/detect/set", "frigate/yard/detect/set"]
        // Registered and told its full quality, on every camera.
        #expect(await inbox.first(on: profiles)?.text == "none")
        for camera in cameras { #expect(await inbox.first(on: camera)?.text == "ON") }
        #expect(await waitUntil { appliesFullQuality })

        hold(.critical, share: 0.3, for: 10)
        #expect(await inbox.first(on: profiles) { $0.text == "reduced" } != nil)
        #expect(await waitUntil { governance.applied?.profile == "reduced" })

        hold(.shutdown, share: 0.1, for: 5)
        for camera in cameras {
            #expect(await inbox.first(on: camera) { $0.text == "OFF" } != nil, "\(camera)")
        }
        #expect(await waitUntil { governance.applied?.detects == false })

        // Frigate restarted with its own configuration: it hears the settings again.
        let profilesBefore = sent(to: profiles).count
        let camerasBefore = cameras.map { sent(to: $0).count }
        listener.publish(MQTTMessage(topic: "frigate/available", text: "online"))
        #expect(await waitUntil { sent(to: profiles).count > profilesBefore })
        #expect(sent(to: profiles).last == "reduced")
        #expect(
            await waitUntil {
                zip(cameras, camerasBefore).allSatisfy { camera, before in
                    sent(to: camera).count > before && sent(to: camera).last == "OFF"
                }
            })

        // Pressure eased for ten minutes: past every restore dwell, Frigate is whole again.
        hold(.nominal, share: 1, for: 600)
        #expect(await waitUntil { appliesFullQuality })
        #expect(
            await waitUntil {
                sent(to: profiles).last == "none"
                    && cameras.allSatisfy { sent(to: $0).last == "ON" }
            })

        // Stopped: full quality handed back, whatever was applied.
        let stopsFrom = sent(to: profiles).count
        running.cancel()
        try await running.value
        #expect(await waitUntil { sent(to: profiles).count > stopsFrom })
        #expect(sent(to: profiles).last == "none")
        #expect(reports.withLock { $0.contains { $0.hasPrefix("profile reduced, detection off") } })
        #expect(service.clients.isEmpty, "Frigate left the governor")
    }
    @Test("a flood of online from Frigate is answered once an interval, not once each")
    func onlineFloodIsLimited() async throws {
        defer { listener.stop() }
        #expect(
            await waitUntil {
                listener.publish(MQTTMessage(topic: "frigate/probe", text: "here"))
                return !inbox.all(on: "frigate/probe").isEmpty
            })
        hold(.nominal, share: 1, for: 5)
        let running = Task { try await governance.run() }
        let profiles = "frigate/profile/set"
        #expect(await inbox.first(on: profiles)?.text == "none")
        for _ in 0..<1000 {
            listener.publish(MQTTMessage(topic: "frigate/available", text: "online"))
        }
        #expect(await waitUntil { inbox.all(on: "frigate/available").count == 1000 })
        // The whole send at the start counts against the limit: the onlines, however they
        // arrive, are answered together when the interval is over (unlimited, each was the
        // profile and every camera's detection again), and none is lost (the asks are counted:
        // a resend once cleared a flag the flood had set again while it published).
        clock.advance(by: ResendLimit.interval)
        let yard = "frigate/yard/detect/set"
        #expect(
            await waitUntil { sent(to: profiles).count >= 2 && sent(to: yard).count >= 2 },
            "profiles \(sent(to: profiles)), yard \(sent(to: yard)) at \(clock.now.secondsSinceOrigin) s"
        )
        #expect(sent(to: profiles).count == 2 && sent(to: yard).count == 2)
        running.cancel()
        try await running.value
    }
}
