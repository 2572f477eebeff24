import Capture
import Files
import Governor
import Pressure
import Telemetry
import Units

/// The routes of `headroom serve`: version 1 of the host service API beside the metrics
/// endpoint's `/metrics`, `/healthz`, `/status` and `/`. A pure function from request to
/// answer, so every route and error is tested without a socket.
///
/// JSON in and out; a malformed body, an unknown key, a wrong type or an out-of-range value is
/// `400` with `{"error", "path", "problem"}` naming the field path. From beyond loopback, the
/// requests that change state (`POST`, `DELETE`) need the bearer token, and are refused
/// without one configured.
public struct ServiceRoutes: HTTPRequestHandler {
    /// The service the routes answer for.
    public let service: HostService
    /// The metrics routes, served as before.
    public let metrics: MetricsEndpoint
    /// The token state-changing requests from beyond loopback must carry; nil: such requests
    /// are refused.
    public let token: BearerToken?

    /// Routes for `service`, with the metrics endpoint beside them.
    public init(service: HostService, metrics: MetricsEndpoint, token: BearerToken?) {
        self.service = service
        self.metrics = metrics
        self.token = token
    }

    /// The answer to `request`.
    public func respond(to request: HTTPRequest) -> HTTPAnswer {
        // Every answer — a client list, a scrape — is of the clients whose lease still runs.
        service.expireLeases()
        guard request.path == "/v1" || request.path.hasPrefix("/v1/") else {
            if request.path == "/" && (request.method == "GET" || request.method == "HEAD") {
                return .response(
                    HTTPResponse(
                        status: 200, contentType: "text/plain; charset=utf-8",
                        body: "Headroom: /metrics /healthz /status /v1/pressure /v1/clients"
                            + " /v1/estimate /v1/events\n"))
            }
            return metrics.respond(to: request)
        }
        if request.method == "POST" || request.method == "DELETE",
            let refusal = authorization(of: request)
        {
            return .response(refusal)
        }
        let parts = Array(
            request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2))
        let isClient = parts.count >= 2 && parts[0] == "clients"
        switch request.method {
        case "GET" where parts == ["pressure"], "HEAD" where parts == ["pressure"]:
            return .response(pressure())
        case "GET" where parts == ["clients"]:
            return .response(clients())
        case "POST" where parts == ["clients"]:
            return .response(register(request.body))
        case "GET" where isClient && parts.count == 3 && parts[2] == "advice":
            return .response(advice(parts[1]))
        case "POST" where isClient && parts.count == 3 && parts[2] == "report":
            return .response(report(request.body, parts[1]))
        case "DELETE" where isClient && parts.count == 2:
            return .response(remove(parts[1]))
        case "POST" where parts == ["estimate"]:
            return .response(estimate(request.body))
        case "GET" where parts == ["events"]:
            return events(lastEventID: request.headers["last-event-id"])
        default:
            return .response(unrouted(request.method, parts))
        }
    }

    // MARK: - Routes

    private func pressure() -> HTTPResponse {
        guard let reading = service.latestReading else {
            return Self.error(503, path: "", "no pressure reading yet; try again in a second")
        }
        return Self.json(200, PressureDocument(reading: reading, from: nil))
    }

    private func clients() -> HTTPResponse {
        Self.json(
            200,
            ClientList(
                clients: service.clients.map {
                    ClientList.Entry(
                        id: $0.id, name: $0.registration.name, priority: $0.registration.priority,
                        share: $0.share, demand: $0.demand, advice: $0.advice)
                }))
    }

    private func register(_ body: [UInt8]) -> HTTPResponse {
        let registration: ClientRegistration
        do {
            registration = try ClientRegistration.decode(body)
        } catch {
            return Self.error(400, error)
        }
        do {
            let (id, advice) = try service.register(registration)
            return Self.json(
                201,
                Registered(
                    id: id, leaseSeconds: service.configuration.lease,
                    advice: advice),
                headers: ["Location": "/v1/clients/\(id)"])
        } catch {
            return Self.error(503, path: "", error.description)
        }
    }

    private func advice(_ text: Substring) -> HTTPResponse {
        guard let id = ClientID(text),
            let advice = service.advice(for: id)
        else { return Self.unknownClient(text) }
        return Self.json(200, advice)
    }

    private func report(_ body: [UInt8], _ text: Substring) -> HTTPResponse {
        guard let id = ClientID(text) else { return Self.unknownClient(text) }
        let report: WorkReport
        do {
            report = try WorkReport.decode(body)
        } catch {
            return Self.error(400, error)
        }
        guard let advice = service.report(report, for: id) else { return Self.unknownClient(text) }
        return Self.json(200, advice)
    }

    private func remove(_ text: Substring) -> HTTPResponse {
        guard let id = ClientID(text) else { return Self.unknownClient(text) }
        switch service.release(id) {
        case .released:
            return HTTPResponse(status: 204, contentType: Self.jsonType, body: "")
        case .unknown:
            return Self.unknownClient(text)
        case .held(let name):
            return Self.error(
                409, path: "id",
                "client \"\(id)\" (\(name)) is driven by this service itself and leaves when "
                    + "that integration stops, after handing back what it paused")
        }
    }

    private func estimate(_ body: [UInt8]) -> HTTPResponse {
        do {
            let session = try SessionConfiguration.decode(body)
            let profile = try service.catalog.profile(named: session.profile)
            return Self.json(200, HardwareCostEstimator(profile: profile).cost(of: session))
        } catch {
            return Self.error(400, error)
        }
    }

    private func events(lastEventID: String?) -> HTTPAnswer {
        var resumeAfter: Int?
        if let lastEventID {
            guard let id = Int(lastEventID.trimmingWhitespace()), id >= 0 else {
                return .response(
                    Self.error(400, path: "Last-Event-ID", "expected an event id (an integer ≥ 0)"))
            }
            resumeAfter = id
        }
        guard let reader = service.events.reader(after: resumeAfter) else {
            return .response(
                Self.error(
                    503, path: "",
                    "at most \(service.events.readerLimit) event readers at once; try again later"))
        }
        return .stream(
            HTTPStreamResponse(
                contentType: "text/event-stream; charset=utf-8",
                headers: ["Cache-Control": "no-cache", "X-Accel-Buffering": "no"],
                source: reader))
    }

    /// `405` for a known path with another method, `404` otherwise.
    private func unrouted(_ method: String, _ parts: [Substring]) -> HTTPResponse {
        let allowed: String? =
            switch parts.count {
            case 1 where parts[0] == "pressure" || parts[0] == "events": "GET"
            case 1 where parts[0] == "clients": "GET, POST"
            case 1 where parts[0] == "estimate": "POST"
            case 2 where parts[0] == "clients": "DELETE"
            case 3 where parts[0] == "clients" && parts[2] == "advice": "GET"
            case 3 where parts[0] == "clients" && parts[2] == "report": "POST"
            default: nil
            }
        guard let allowed else {
            return Self.error(
                404, path: "",
                "no such resource; expected /v1/pressure, /v1/clients, /v1/estimate or /v1/events")
        }
        var response = Self.error(405, path: "", "expected \(allowed)")
        response.headers["Allow"] = allowed
        return response
    }

    /// Nil when `request` may change state; else the refusal.
    private func authorization(of request: HTTPRequest) -> HTTPResponse? {
        guard !request.isLocal else { return nil }
        guard let token else {
            return Self.error(
                403, path: "",
                "requests that change state from beyond this machine need the service to be"
                    + " started with --token-file, and the token in Authorization: Bearer")
        }
        guard token.accepts(authorization: request.headers["authorization"]) else {
            var response = Self.error(
                401, path: "Authorization", "expected Bearer and the service's token")
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        }
        return nil
    }

    // MARK: - Documents

    private static let jsonType = "application/json"

    private static func json(
        _ status: Int, _ value: some Encodable, headers: [String: String] = [:]
    ) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: jsonType, bytes: ServiceJSON.document(value),
            headers: headers)
    }

    private static func error(_ status: Int, _ error: any Error) -> HTTPResponse {
        if let error = error as? ConfigurationError {
            return Self.error(status, path: error.path, error.problem)
        }
        return Self.error(status, path: "", "\(error)")
    }

    private static func error(_ status: Int, path: String, _ problem: String) -> HTTPResponse {
        json(status, ErrorDocument(path: path, problem: problem))
    }

    private static func unknownClient(_ text: Substring) -> HTTPResponse {
        // At most 32 characters of what the caller sent, no control characters: an id is
        // echoed, never a terminal escape or a megabyte.
        let printable = text.prefix(32).unicodeScalars.filter {
            $0.properties.generalCategory != .control
        }
        let shown = String(String.UnicodeScalarView(printable)) + (text.count > 32 ? "…" : "")
        return error(
            404, path: "id",
            "no client \"\(shown)\": never registered, removed, or its lease ended; register again")
    }
}

/// The body of every error: the field path (empty for the request as a whole), the problem,
/// and both together as people read them.
struct ErrorDocument: Encodable {
    var path: String
    var problem: String

    enum CodingKeys: String, CodingKey { case error, path, problem }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path.isEmpty ? problem : "\(path): \(problem)", forKey: .error)
        try container.encode(path, forKey: .path)
        try container.encode(problem, forKey: .problem)
    }
}

/// The answer to `POST /v1/clients`.
struct Registered: Encodable {
    var id: ClientID
    @SecondsCoded var leaseSeconds: Duration
    var advice: ClientAdvice
}

/// The answer to `GET /v1/clients`.
struct ClientList: Encodable {
    struct Entry: Encodable {
        var id: ClientID
        var name: String
        var priority: Int
        var share: Share
        var demand: Share
        var advice: ClientAdvice
    }

    var clients: [Entry]
}
