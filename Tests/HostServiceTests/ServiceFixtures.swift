import Capture
import Foundation
import Governor
import HostService
import Pressure
import Telemetry
import TestSupport
import Units

/// A service on a manual clock with the built-in profiles, and readings to feed it.
struct ServiceFixture {
    let clock = ManualClock(start: 100)
    let service: HostService
    let routes: ServiceRoutes
    let metrics: HeadroomMetrics

    init(token: BearerToken? = nil, events: EventLog = EventLog(firstID: 1)) throws {
        metrics = try HeadroomMetrics()
        service = HostService(
            configuration: HostGovernorConfiguration(processorCount: 2), clock: clock,
            catalog: ProfileCatalog(calibratedDirectory: nil), metrics: metrics, events: events)
        routes = ServiceRoutes(
            service: service,
            metrics: MetricsEndpoint(registry: metrics.registry, status: { nil }), token: token)
    }

    /// A reading at `level` with `share` of the budget sustainable, at the clock's time.
    func reading(_ level: PressureLevel, share: Share = .whole) -> PressureReading {
        PressureReading(
            time: clock.now, level: level, factors: [],
            headroom: HeadroomEstimate(current: .nan, forecast: .nan, forecastSeconds: 10),
            sustainableShare: share, simulated: true, thermal: .none, sensors: [], notes: [])
    }

    /// The whole response to a request, as a status and a JSON object (or nil).
    func call(
        _ method: String, _ path: String, body: String = "", headers: [String: String] = [:],
        isLocal: Bool = true
    ) -> (status: Int, json: [String: Any]?, response: HTTPResponse) {
        let answer = routes.respond(
            to: HTTPRequest(
                method: method, path: path, headers: headers, body: Array(body.utf8),
                isLocal: isLocal))
        guard case .response(let response) = answer else {
            fatalError("\(method) \(path) answered with a stream")
        }
        let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (response.status, json, response)
    }

    static let registration = """
        {"name": "people", "priority": 5, "nominalFrameRate": 30, "minFrameRate": 10,
         "ladder": [{"name": "full", "cost": 184}, {"name": "0.75", "cost": 86},
                    {"name": "0.5", "cost": 31}], "share": 0.6}
        """
}
