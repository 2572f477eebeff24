import Capture
import Files
import Foundation
import Governor
import HostServer
import HostService
import LaunchTiming
import Lifecycle
import Locking
import MQTT
import MQTTBridge
import Pipeline
import Pressure
import Synchronization
import Telemetry
import TestSupport
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// The host service's cost: `headroom serve` as it runs, against the floor of any 10 Hz
/// observer of the same sources.
let serviceBenchmarks: [Benchmark] = [
    serveBenchmark(
        name: "service.serve-10hz-cpu", withMQTT: false,
        summary:
            "headroom serve's CPU per sample at a fixed 10 Hz with 8 event-stream readers, 4"
            + " registered clients and a scrape of /metrics every 5 s of each round (observer,"
            + " service, exporter, HTTP server)"),
    serveBenchmark(
        name: "service.serve-10hz-mqtt-cpu", withMQTT: true,
        summary:
            "the same with --mqtt: the state published to a real mosquitto on loopback with"
            + " Home Assistant discovery (its publisher and libmosquitto's thread)"),
    serveBenchmark(
        name: "service.serve-10hz-drifting-cpu", withMQTT: false, drifting: true,
        summary:
            "headroom serve with a temperature that drifts by 0.1 °C every sample (a synthetic"
            + " sensor added to this host's), without MQTT: the thermal path's own cost, the"
            + " like to compare publishing with"),
    serveBenchmark(
        name: "service.serve-10hz-mqtt-publishing-cpu", withMQTT: true, drifting: true,
        summary:
            "the same with a temperature that drifts by 0.1 °C every sample (a synthetic"
            + " sensor added to this host's), so that the state published changes every second:"
            + " publishing priced too"),
]

/// `headroom serve` at 10 Hz against the floor, with or without an MQTT publisher.
private func serveBenchmark(
    name: String, withMQTT: Bool, drifting: Bool = false, summary: String
) -> Benchmark {
    Benchmark(
        name: name, summary: summary,
        baselineSummary:
            "the floor: a thread waking at 10 Hz to pread the same value files (PSI at 2 Hz), nothing else",
        targetNanoseconds: nil, targetRatio: 2,
        measure: {
            let sensors = try SensorTree.prepare()
            let seconds = observerSeconds()
            let broker: MosquittoBroker?
            do {
                broker = withMQTT ? try MosquittoBroker() : nil
            } catch {
                throw BenchmarkSetupError(
                    description:
                        "no mosquitto to publish to (Debian's mosquitto: apt install mosquitto):"
                        + " \(error)")
            }
            var readers = 0
            var scrapes = 0
            var published = 0
            let (served, floor) = try await interleavedWithFloor(rounds: 5, seconds: seconds) {
                let round = try await serveCPU(
                    seconds: $0, broker: broker?.broker, drifting: drifting)
                readers = round.readers
                scrapes += round.scrapes
                published += round.published
                return round.cpu
            }
            let parts = try warmParts()
            var extras = [
                "sensors": sensors,
                "samples": String(served.samples),
                "event readers connected": String(readers),
                "scrapes answered": String(scrapes),
                "cpu": String(
                    format: "%.4f%% of one core over %.0f s (the median of 5 rounds)",
                    served.share * 100, served.wall),
                "floor": String(format: "%.4f%% of one core", floor.share * 100),
                "warm: reading offered for export": format(parts.offer),
                "warm: a scrape's status (made and published)": format(parts.status),
                "warm: service consume": format(parts.consume),
            ]
            if withMQTT {
                extras["MQTT messages published (5 rounds)"] = String(published)
                extras["warm: the state's payload encoded"] = format(parts.statePayload)
                extras["warm: the same by Foundation's JSONEncoder"] = format(
                    parts.foundationPayload)
            }
            return Measurement(
                nanoseconds: served.cpuPerSample * 1e9,
                baselineNanoseconds: floor.cpuPerSample * 1e9, extras: extras)
        })
}

/// Where time goes when warm: a reading offered for export (what a sample pays), the status
/// a scrape then makes and publishes (a reading unlike the last, as after 15 s of readings),
/// and the reading consumed by a service with 4 clients.
private func warmParts() throws -> (
    offer: Double, status: Double, consume: Double, statePayload: Double,
    foundationPayload: Double
) {
    let sampler = PressureSampler.system()
    var classifier = PressureClassifier()
    let reading = classifier.classify(
        sampler.sample(at: .origin) ?? PressureSample(time: .origin))
    let metrics = try HeadroomMetrics()
    let exported = ExportedPressure(metrics: metrics)
    let offer = nanosecondsPerCall(iterations: 2_000) { exported.offer(reading) }
    var hotter = reading
    hotter.level = .serious
    var isHot = false
    let status = nanosecondsPerCall(iterations: 2_000) {
        isHot.toggle()
        exported.offer(isHot ? hotter : reading)
        blackHole(exported.current())
    }
    let service = HostService(
        configuration: HostGovernorConfiguration(lease: .seconds(3600), processorCount: 2),
        clock: ContinuousRunClock(), catalog: ProfileCatalog(calibratedDirectory: nil),
        metrics: metrics)
    for index in 0..<4 {
        _ = try service.register(benchRegistration(index))
    }
    let consume = nanosecondsPerCall(iterations: 2_000) { service.consume(reading) }
    // What the publisher does with a changed state before `mosquitto_publish`.
    let statePayload = nanosecondsPerCall(iterations: 2_000) {
        blackHole(try? JSONStyle.line.encode(HostStateDocument(reading)))
    }
    // Like with like: the bytes Headroom wrote with Foundation before it had its own writer.
    let foundation = JSONEncoder()
    foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    foundation.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    let foundationPayload = nanosecondsPerCall(iterations: 2_000) {
        blackHole(try? foundation.encode(HostStateDocument(reading)))
    }
    return (offer, status - offer, consume, statePayload, foundationPayload)
}

/// The registration of the benchmark's client `index`.
private func benchRegistration(_ index: Int) -> ClientRegistration {
    ClientRegistration(
        name: "pipeline-\(index)", priority: index * 10, nominalFrameRate: 30, minFrameRate: 5,
        ladder: [
            LadderStep(name: "full", cost: 4), LadderStep(name: "half", cost: 2),
            LadderStep(name: "quarter", cost: 1),
        ], share: 0.2)
}

/// Process CPU while a service like `headroom serve`'s runs for `seconds` at a fixed 10 Hz,
/// with 4 registered clients and 8 readers of `/v1/events` on real loopback connections, and
/// `/metrics` scraped every 5 s from the round's start (Prometheus scrapes every 15 s by
/// default).
private func serveCPU(seconds: Double, broker: MQTTBroker?, drifting: Bool) async throws -> (
    cpu: ObserverCPU, readers: Int, scrapes: Int, published: Int
) {
    var configuration = PressureConfiguration()
    configuration.sampling.slowInterval = .milliseconds(100)
    let system = PressureSampler.system()
    let source = CountingSource(drifting ? DriftingTemperature(system) : system)
    let observer = PressureObserver(
        source: source, classifier: PressureClassifier(configuration: configuration),
        interval: .milliseconds(100), clock: ContinuousRunClock())
    let metrics = try HeadroomMetrics()
    let service = HostService(
        configuration: HostGovernorConfiguration(lease: .seconds(3600), processorCount: 2),
        clock: ContinuousRunClock(), catalog: ProfileCatalog(calibratedDirectory: nil),
        metrics: metrics)
    // The server as `serve` composes it (HostServer): bound, its first reading taken.
    let server = HostServer(
        service: service, metrics: metrics, exported: ExportedPressure(metrics: metrics),
        listeners: [HTTPServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:0"))],
        observer: observer)
    let port = try server.bind()
    for index in 0..<4 {
        _ = try service.register(benchRegistration(index))
    }
    let readers = (0..<8).compactMap { _ in EventStreamReader(port: port) }
    defer { for reader in readers { reader.close() } }
    // With a broker, the state published as `serve --mqtt` does, from the first reading on.
    let topics = try MQTTTopics(node: "headroom_bench")
    let publisher = try broker.map {
        HostStatePublisher(
            connection: try MQTTConnection(
                broker: $0, clientID: "headroom-bench", will: HostStatePublisher.will(for: topics)),
            topics: topics, service: service, hostName: "bench", version: "bench",
            heartbeat: .seconds(60))
    }
    let publishing = publisher.map { publisher in
        [
            Service("mqtt", ending: .runsUntilCancelled, isOnClock: false) {
                try await publisher.run()
            }
        ]
    }
    let samplesAtBind = source.count.load(ordering: .relaxed)
    let serving = Task { try await server.run(alongside: publishing ?? []) }
    // From the observer's first reading on: starting its thread and discovering every sensor
    // are not what a sample costs.
    while source.count.load(ordering: .relaxed) == samplesAtBind {
        await sleepOnAThread(seconds: 0.01)
    }
    // And once connected and announced (availability, discovery, state, clients): a
    // connection is made once in a service's life, not per sample.
    while let publisher, publisher.publishedCount < 4 { await sleepOnAThread(seconds: 0.01) }
    let publishedBefore = publisher?.publishedCount ?? 0
    let samplesBefore = source.count.load(ordering: .relaxed)
    let before = processCPUSeconds()
    let wallStart = MonotonicClock.now()
    let (scrapes, scraperCPU) = await scraping(port: port, every: 5, for: seconds)
    let cpu = processCPUSeconds() - before - scraperCPU
    let wall = MonotonicClock.now().seconds(since: wallStart)
    let samples = source.count.load(ordering: .relaxed) - samplesBefore
    // Counted while serving: stopping ends every stream.
    let readersConnected = service.events.readerCount
    serving.cancel()
    try await serving.value
    return (
        ObserverCPU(samples: samples, cpu: cpu, wall: wall), readersConnected, scrapes,
        (publisher?.publishedCount ?? 0) - publishedBefore
    )
}

/// Suspends for `seconds` while a thread of its own scrapes `/metrics` every `every` seconds,
/// each on a new loopback connection read to the end, as Prometheus does; the count of
/// answers that carried the pressure level, and the CPU seconds the scraper itself used (a
/// client's, in Prometheus's process, not the service's).
private func scraping(port: UInt16, every: Double, for seconds: Double) async -> (
    scrapes: Int, scraperCPU: Double
) {
    await withCheckedContinuation { (done: CheckedContinuation<(Int, Double), Never>) in
        Thread {
            let start = MonotonicClock.now()
            let cpuBefore = threadCPUSeconds()
            var scrapes = 0
            var next = every
            while next < seconds {
                sleep(until: start.advanced(by: .seconds(next)).nanoseconds)
                let answer = LoopbackConnection(port: port).map { connection in
                    defer { connection.close() }
                    connection.send(
                        "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    return connection.receiveToEnd()
                }
                if answer?.contains("\nheadroom_pressure_level ") == true { scrapes += 1 }
                next += every
            }
            let scraperCPU = threadCPUSeconds() - cpuBefore
            sleep(until: start.advanced(by: .seconds(seconds)).nanoseconds)
            done.resume(returning: (scrapes, scraperCPU))
        }.start()
    }
}

/// A TCP connection to the loopback address.
private final class LoopbackConnection: Sendable {
    private let descriptor: Int32

    /// Connects to `127.0.0.1:port`; nil when it cannot.
    init?(port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            return nil
        }
    }

    /// Sends all of `text`.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, 0)
            }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// What arrives until the other end closes (or the connection is shut down).
    func receiveToEnd() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads and drops what arrives until the other end closes (or the connection is shut
    /// down).
    func discardUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(descriptor, &buffer, buffer.count, 0) > 0 {}
    }

    /// Ends the connection: a thread blocked in ``receiveToEnd()`` or
    /// ``discardUntilClosed()`` returns.
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
    }
}

/// A reader of `/v1/events` on a loopback connection: a thread blocked in `recv`, as a
/// client waiting for events is (it costs nothing while nothing comes).
private final class EventStreamReader: Sendable {
    private let connection: LoopbackConnection

    init?(port: UInt16) {
        guard let connection = LoopbackConnection(port: port) else { return nil }
        self.connection = connection
        connection.send("GET /v1/events HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread { connection.discardUntilClosed() }.start()
    }

    func close() { connection.close() }
}

/// This host's samples with one more temperature, which climbs 0.1 °C a sample from 45 °C and
/// falls back every 50 samples (far below any threshold): the state a publisher sends changes
/// every second, as on a machine warming and cooling.
private final class DriftingTemperature: SampleSource {
    let inner: any SampleSource
    let count = Atomic<Int>(0)

    init(_ inner: any SampleSource) { self.inner = inner }

    func sample(at time: MonotonicInstant) -> PressureSample? {
        guard var sample = inner.sample(at: time) else { return nil }
        let step = count.add(1, ordering: .relaxed).newValue % 50
        sample.sensors.append(
            SensorReading(
                id: SensorID("bench/drift"), source: .thermalZone, label: "bench drift",
                celsius: Celsius(45 + 0.1 * Double(step))))
        return sample
    }
}
