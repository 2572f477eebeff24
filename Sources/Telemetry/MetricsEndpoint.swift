/// The routes `headroom serve` answers, as a pure function from request to response so they
/// can be tested without a socket.
///
/// - `GET /metrics`: the registry, in the format the `Accept` header asks for.
/// - `GET /healthz`: `ok`, as long as the process answers.
/// - `GET /status`: the current status's JSON (the latest pressure reading), 503 before the first.
/// - `GET /`: a short index. Other paths are 404; other methods than GET and HEAD are 405.
public struct MetricsEndpoint: HTTPRequestHandler {
    /// The metrics served on `/metrics`.
    public let registry: MetricsRegistry
    private let status: @Sendable () -> PressureStatus?

    /// Creates the endpoint; `status` returns the current pressure status, nil when there is
    /// none yet. It is called on a server thread before each `/metrics` and `/status` answer,
    /// so a status made on demand is in `registry` when it is served (see the Pipeline
    /// module's `ExportedPressure`).
    public init(registry: MetricsRegistry, status: @escaping @Sendable () -> PressureStatus?) {
        self.registry = registry
        self.status = status
    }

    /// The answer to `request`: ``response(method:path:accept:)`` of its method, path and
    /// `Accept` header (the body is ignored).
    public func respond(to request: HTTPRequest) -> HTTPAnswer {
        .response(
            response(method: request.method, path: request.path, accept: request.headers["accept"]))
    }

    /// The response to a request with this method, path (no query string) and `Accept` header.
    public func response(method: String, path: String, accept: String?) -> HTTPResponse {
        guard method == "GET" || method == "HEAD" else {
            return HTTPResponse(
                status: 405, contentType: Self.textType, body: "method not allowed\n",
                headers: ["Allow": "GET, HEAD"])
        }
        switch path {
        case "/metrics":
            _ = status()  // brings the registry up to the current status
            let format = ExpositionFormat.negotiated(accept: accept)
            return HTTPResponse(
                status: 200, contentType: format.contentType,
                bytes: registry.expositionBytes(format))
        case "/healthz":
            return HTTPResponse(status: 200, contentType: Self.textType, body: "ok\n")
        case "/status":
            guard let json = status()?.json else {
                return HTTPResponse(
                    status: 503, contentType: Self.jsonType,
                    body: "{\"error\":\"no reading yet\"}\n")
            }
            return HTTPResponse(status: 200, contentType: Self.jsonType, body: json)
        case "/":
            return HTTPResponse(
                status: 200, contentType: Self.textType,
                body: "Headroom exporter: /metrics /healthz /status\n")
        default:
            return HTTPResponse(status: 404, contentType: Self.textType, body: "not found\n")
        }
    }

    private static let textType = "text/plain; charset=utf-8"
    private static let jsonType = "application/json"
}
