import Foundation
import Governor
import HostService
import Pressure
import Telemetry
import Testing
import Units

/// Every route of API v1 and its errors, as a pure function of the request.
struct ServiceRoutesTests {
    @Test("register, advice, report, delete: the whole life of a client")
    func clientLifeCycle() throws {
        let fixture = try ServiceFixture()
        let created = fixture.call("POST", "/v1/clients", body: ServiceFixture.registration)
        #expect(created.status == 201)
        let id = try #require(created.json?["id"] as? String)
        #expect(created.json?["leaseSeconds"] as? Double == 30)
        #expect(created.response.headers["Location"] == "/v1/clients/\(id)")
        let advice = try #require(created.json?["advice"] as? [String: Any])
        #expect(advice["frameRate"] as? Double == 30)
        #expect(advice["ladderName"] as? String == "full")

        fixture.service.consume(fixture.reading(.serious, share: 0.3))
        let shed = fixture.call("GET", "/v1/clients/\(id)/advice")
        #expect(shed.status == 200)
        #expect(shed.json?["level"] as? String == "serious")
        let frameRate = try #require(shed.json?["frameRate"] as? Double)
        let ladderStep = try #require(shed.json?["ladderStep"] as? Int)
        #expect(frameRate < 30 || ladderStep > 0)
        #expect((shed.json?["seq"] as? Int ?? 0) > (advice["seq"] as? Int ?? 0))
        #expect(fixture.metrics.serviceClients.value() == 1)
        #expect(
            fixture.metrics.adviceFrameRate.value(labels: ["client": id, "name": "people"])
                == shed.json?["frameRate"] as? Double)

        let reported = fixture.call(
            "POST", "/v1/clients/\(id)/report",
            body:
                #"{"frames": 30, "late": 0, "dropped": 0, "workSeconds": {"p50": 0.02, "p95": 0.03}, "targetSeconds": 0.033}"#
        )
        #expect(reported.status == 200)
        #expect(reported.json?["actingLevel"] as? String == "serious")

        let listed = fixture.call("GET", "/v1/clients")
        #expect(
            (listed.json?["clients"] as? [[String: Any]])?.first?["name"] as? String == "people")

        #expect(fixture.call("DELETE", "/v1/clients/\(id)").status == 204)
        #expect(fixture.call("DELETE", "/v1/clients/\(id)").status == 404)
        #expect(fixture.call("GET", "/v1/clients/\(id)/advice").status == 404)
        #expect(fixture.metrics.serviceClients.value() == 0)
        #expect(
            fixture.metrics.adviceFrameRate.value(labels: ["client": id, "name": "people"]) == nil)
    }

    @Test("a client the service drives itself cannot be deleted from under it: 409, still governed")
    func heldClientStays() throws {
        let fixture = try ServiceFixture()
        // Frigate's governance registers Frigate this way: not leased, this process speaks
        // for it. Deleted while paused, nobody would ever turn its detection on again.
        let registration = try ClientRegistration.decode(Data(ServiceFixture.registration.utf8))
        let (id, _) = try fixture.service.register(registration, leased: false)
        fixture.service.consume(fixture.reading(.shutdown, share: 0.1))
        let refused = fixture.call("DELETE", "/v1/clients/\(id)")
        #expect(refused.status == 409)
        #expect(refused.json?["path"] as? String == "id")
        #expect((refused.json?["problem"] as? String)?.contains("(people)") == true)
        #expect(fixture.service.clients.map(\.id) == [id])
        fixture.service.consume(fixture.reading(.nominal))
        fixture.clock.advance(by: .seconds(600))
        fixture.service.consume(fixture.reading(.nominal))
        #expect(fixture.call("GET", "/v1/clients/\(id)/advice").json?["frameRate"] as? Double == 30)
        // Its owner lets it go.
        #expect(fixture.service.leave(id))
        #expect(fixture.call("DELETE", "/v1/clients/\(id)").status == 404)
    }

    @Test("a client that goes quiet is forgotten when its lease ends")
    func leaseEnds() throws {
        let fixture = try ServiceFixture()
        let id = try #require(
            fixture.call("POST", "/v1/clients", body: ServiceFixture.registration).json?["id"]
                as? String)
        fixture.clock.advance(by: .seconds(29))
        #expect(fixture.call("GET", "/v1/clients/\(id)/advice").status == 200)
        fixture.clock.advance(by: .seconds(29))
        #expect(fixture.call("GET", "/v1/clients/\(id)/advice").status == 200)
        fixture.clock.advance(by: .seconds(31))
        fixture.service.expireLeases()
        let gone = fixture.call("GET", "/v1/clients/\(id)/advice")
        #expect(gone.status == 404)
        #expect((gone.json?["error"] as? String)?.contains("lease ended") == true)
        #expect(fixture.metrics.serviceClients.value() == 0)
    }

    @Test(
        "bad bodies are 400 naming the field path",
        arguments: [
            (
                "/v1/clients",
                #"{"name": "a", "priority": 1, "nominalFrameRate": 30, "minFrameRate": 10, "ladder": [{"name": "x", "cost": 0}]}"#,
                "ladder[0].cost"
            ),
            (
                "/v1/clients",
                #"{"name": "a", "priority": 1, "nominalFrameRate": 30, "minFrameRate": 10, "ladder": [{"name": "x", "cost": 1}], "extra": true}"#,
                "extra"
            ),
            (
                "/v1/clients",
                #"{"name": "a", "priority": 1.5, "nominalFrameRate": 30, "minFrameRate": 10, "ladder": []}"#,
                "priority"
            ),
            ("/v1/clients", "not json", ""),
            ("/v1/clients", "", ""),
            (
                "/v1/estimate",
                #"{"cameras": [{"id": "a", "format": {"width": 640, "height": 480, "maxFrameRate": -1}}]}"#,
                "cameras[0].format.maxFrameRate"
            ),
            (
                "/v1/estimate",
                #"{"profile": "/etc/passwd", "cameras": [{"id": "a", "format": {"width": 640, "height": 480, "maxFrameRate": 30}}]}"#,
                "profile"
            ),
            (
                "/v1/estimate",
                #"{"profile": "no-such", "cameras": [{"id": "a", "format": {"width": 640, "height": 480, "maxFrameRate": 30}}]}"#,
                "profile"
            ),
        ])
    func badBodies(path: String, body: String, field: String) throws {
        let fixture = try ServiceFixture()
        let answer = fixture.call("POST", path, body: body)
        #expect(answer.status == 400)
        #expect(answer.json?["path"] as? String == field)
        let problem = try #require(answer.json?["problem"] as? String)
        #expect(!problem.isEmpty)
    }

    @Test("an unknown id is echoed short and without control characters")
    func echoedIDs() throws {
        let fixture = try ServiceFixture()
        let answer = fixture.call(
            "GET", "/v1/clients/\u{1b}[31m" + String(repeating: "x", count: 5000) + "/advice")
        #expect(answer.status == 404)
        let message = try #require(answer.json?["problem"] as? String)
        #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(message.count < 200)
    }

    @Test("a report for an unknown client or with a bad body")
    func badReports() throws {
        let fixture = try ServiceFixture()
        let report = #"{"frames": 1, "workSeconds": [0.1], "targetSeconds": 0.1}"#
        #expect(
            fixture.call("POST", "/v1/clients/0123456789abcdef/report", body: report).status == 404)
        #expect(fixture.call("POST", "/v1/clients/nonsense/report", body: report).status == 404)
        let id = try #require(
            fixture.call("POST", "/v1/clients", body: ServiceFixture.registration).json?["id"]
                as? String)
        let bad = fixture.call(
            "POST", "/v1/clients/\(id)/report",
            body: #"{"frames": 1, "workSeconds": [0.1], "targetSeconds": "soon"}"#)
        #expect(bad.status == 400)
        #expect(bad.json?["path"] as? String == "targetSeconds")
    }

    @Test("estimate prices a session as `estimate --json` does")
    func estimate() throws {
        let fixture = try ServiceFixture()
        let session = #"""
            {"profile": "raspberry-pi-5", "cameras": [{"id": "a", "format": {"width": 1920, "height": 1080, "maxFrameRate": 30}}], "outputs": [{"kind": "preview"}]}
            """#
        let answer = fixture.call("POST", "/v1/estimate", body: session)
        #expect(answer.status == 200)
        #expect(answer.json?["hardwareCost"] is Double)
        #expect(answer.json?["fits"] is Bool)
        #expect(answer.json?["profile"] as? String == "raspberry-pi-5")
    }

    @Test("pressure: 503 before the first reading, then the versioned reading")
    func pressure() throws {
        let fixture = try ServiceFixture()
        #expect(fixture.call("GET", "/v1/pressure").status == 503)
        fixture.service.consume(fixture.reading(.fair, share: 0.85))
        let answer = fixture.call("GET", "/v1/pressure")
        #expect(answer.status == 200)
        #expect(answer.json?["version"] as? Int == 1)
        #expect(answer.json?["level"] as? String == "fair")
        #expect(answer.json?["sustainableShare"] as? Double == 0.85)
    }

    @Test("unknown paths are 404, wrong methods 405 with Allow, metrics still served")
    func routing() throws {
        let fixture = try ServiceFixture()
        #expect(fixture.call("GET", "/v1/nothing").status == 404)
        let wrong = fixture.call("PUT", "/v1/clients")
        #expect(wrong.status == 405)
        #expect(wrong.response.headers["Allow"] == "GET, POST")
        #expect(fixture.call("GET", "/v1/estimate").response.headers["Allow"] == "POST")
        #expect(fixture.call("GET", "/healthz").status == 200)
        #expect(fixture.call("GET", "/metrics").status == 200)
    }

    @Test("beyond loopback, changes need the bearer token; reads stay open")
    func bearerToken() throws {
        let open = try ServiceFixture()
        let refused = open.call(
            "POST", "/v1/clients", body: ServiceFixture.registration, isLocal: false)
        #expect(refused.status == 403)
        #expect(open.call("GET", "/v1/clients", isLocal: false).status == 200)

        let token = try BearerToken("s3cret-token-0123456789")
        let guarded = try ServiceFixture(token: token)
        #expect(
            guarded.call("POST", "/v1/clients", body: ServiceFixture.registration, isLocal: false)
                .status == 401)
        #expect(
            guarded.call(
                "POST", "/v1/clients", body: ServiceFixture.registration,
                headers: ["authorization": "Bearer wrong-token-0123456789"], isLocal: false
            ).status == 401)
        #expect(
            guarded.call(
                "POST", "/v1/clients", body: ServiceFixture.registration,
                headers: ["authorization": "Bearer s3cret-token-0123456789"], isLocal: false
            ).status == 201)
        #expect(
            guarded.call("POST", "/v1/clients", body: ServiceFixture.registration).status == 201)
    }

    @Test("a token file must be the owner's alone and hold a real token")
    func tokenFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "token-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("token").path
        try "s3cret-token-0123456789\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
        #expect(throws: (any Error).self) { try BearerToken.load(from: path) }
        chmod(path, 0o600)
        let token = try BearerToken.load(from: path)
        #expect(token.accepts(authorization: "Bearer s3cret-token-0123456789"))
        // The scheme in any case, more than one space, white space after the token.
        #expect(token.accepts(authorization: "bearer s3cret-token-0123456789"))
        #expect(token.accepts(authorization: "BEARER  s3cret-token-0123456789 "))
        #expect(!token.accepts(authorization: "Basic s3cret-token-0123456789"))
        #expect(!token.accepts(authorization: "Bearers3cret-token-0123456789"))
        #expect(!token.accepts(authorization: "Bearer s3cret-token-012345678"))
        try "short".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        #expect(throws: (any Error).self) { try BearerToken.load(from: path) }
    }
}
