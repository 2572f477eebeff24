import CMosquitto
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// One message: a topic, its payload, whether the broker keeps it for later subscribers.
public struct MQTTMessage: Sendable, Hashable {
    /// The topic.
    public var topic: String
    /// The payload bytes (UTF-8 text for everything Headroom sends).
    public var payload: [UInt8]
    /// Whether the broker keeps it as the topic's last value.
    public var isRetained: Bool

    /// A message with `payload`.
    public init(topic: String, payload: [UInt8], isRetained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.isRetained = isRetained
    }

    /// A message with a text payload.
    public init(topic: String, text: String, isRetained: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), isRetained: isRetained)
    }

    /// The payload as text (invalid UTF-8 repaired).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// A connection to an MQTT broker through libmosquitto, on libmosquitto's own network thread:
/// ``start()`` returns at once and the thread connects, and reconnects with a growing delay
/// (1 s to 30 s) whenever the broker goes away. Publishing never blocks and never queues
/// without bound: QoS 0, and while disconnected a message is dropped (the caller's next state
/// replaces it; retained messages are published again on ``onConnect``). A last will, set
/// before ``start()``, is what the broker publishes when the connection dies uncleanly.
public final class MQTTConnection: Sendable {
    /// Called on the network thread each time the connection is made (again): re-send what
    /// the broker should hold, subscribe.
    public typealias ConnectHandler = @Sendable (MQTTConnection) -> Void
    /// Called on the network thread for each message of a subscribed topic.
    public typealias MessageHandler = @Sendable (MQTTMessage) -> Void
    /// Called on the network thread when a published message has been written to the broker.
    public typealias PublishedHandler = @Sendable () -> Void
    /// Called on the network thread when the connection changes: nil once connected, else
    /// why it is down (the broker refused it, or it was lost).
    public typealias StatusHandler = @Sendable (String?) -> Void

    /// The broker.
    public let broker: MQTTBroker
    private let handle: Handle
    /// libmosquitto's functions.
    private let mosquitto: headroom_mosquitto
    private let handlers: Handlers

    /// The library handle, used by one call at a time where libmosquitto asks for it.
    private final class Handle: @unchecked Sendable {
        // libmosquitto is thread-safe for publish/subscribe/disconnect with its threaded loop;
        // creation, options and destruction happen before start and after stop.
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }

    /// What the C callbacks reach through their user-data pointer.
    private final class Handlers: Sendable {
        struct State {
            var onConnect: ConnectHandler?
            var onMessage: MessageHandler?
            var onPublished: PublishedHandler?
            var onStatus: StatusHandler?
            var isConnected = false
            /// Messages handed to libmosquitto and not yet written to the broker.
            var unwritten = 0
            /// The connection, for the connect handler (weak: the connection owns this).
            weak var connection: MQTTConnection?
        }
        let state = LockedState(State())
    }

    /// A connection to `broker` as `clientID` (unique per broker), not yet started.
    ///
    /// - Parameters:
    ///   - will: published by the broker if the connection dies without a clean disconnect.
    ///   - credentials: user name and password, when the broker asks for them.
    ///   - certificateAuthority: the CA file that signs the broker's certificate (TLS); the
    ///     system's certificates in /etc/ssl/certs without one.
    /// - Throws: ``MQTTError/library(_:)`` when libmosquitto refuses an option.
    public init(
        broker: MQTTBroker, clientID: String, will: MQTTMessage? = nil,
        credentials: MQTTCredentials? = nil,
        certificateAuthority: String? = nil
    ) throws(MQTTError) {
        let mosquitto = try MosquittoLibrary.loaded.get()
        self.mosquitto = mosquitto
        self.broker = broker
        handlers = Handlers()
        let context = Unmanaged.passUnretained(handlers).toOpaque()
        guard let pointer = mosquitto.create(clientID, true, context) else {
            throw .library("mosquitto_new: out of memory or a bad client id")
        }
        handle = Handle(pointer)
        handlers.state.withLock { $0.connection = self }
        _ = mosquitto.int_option(pointer, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        _ = mosquitto.reconnect_delay_set(pointer, 1, 30, true)
        if let will {
            try Self.check(
                will.payload.withUnsafeBytes { bytes in
                    mosquitto.will_set(
                        pointer, will.topic, Int32(bytes.count), bytes.baseAddress, 1,
                        will.isRetained)
                }, "the last will")
        }
        if let credentials {
            try Self.check(
                mosquitto.username_pw_set(pointer, credentials.user, credentials.password),
                "the credentials")
        }
        if broker.usesTLS {
            try Self.check(
                // Without a CA file of its own, the system's certificates.
                mosquitto.tls_set(
                    pointer, certificateAuthority,
                    certificateAuthority == nil ? "/etc/ssl/certs" : nil, nil, nil, nil),
                "TLS (\(certificateAuthority ?? "/etc/ssl/certs"))")
        }
        mosquitto.connect_callback_set(pointer) { _, context, code in
            guard let context else { return }
            let handlers = Unmanaged<Handlers>.fromOpaque(context).takeUnretainedValue()
            let (onConnect, onStatus, connection) = handlers.state.withLock { state in
                state.isConnected = code == 0
                // What was queued before the connection dropped is gone.
                state.unwritten = 0
                return (state.onConnect, state.onStatus, state.connection)
            }
            onStatus?(
                code == 0
                    ? nil
                    : "the broker refused the connection: \(MosquittoLibrary.refusal(code))"
            )
            if code == 0, let connection { onConnect?(connection) }
        }
        mosquitto.disconnect_callback_set(pointer) { _, context, code in
            guard let context else { return }
            let handlers = Unmanaged<Handlers>.fromOpaque(context).takeUnretainedValue()
            let onStatus = handlers.state.withLock { state in
                state.isConnected = false
                return state.onStatus
            }
            // 0 is a disconnect asked for; anything else is a lost connection, said once (the
            // library's words for a plain loss only repeat it).
            if code != 0 {
                var why = MosquittoLibrary.error(code)
                while why.hasSuffix(".") { why.removeLast() }
                let cause = code == MOSQ_ERR_CONN_LOST.rawValue ? "" : " (\(why))"
                onStatus?("connection lost\(cause); reconnecting")
            }
        }
        mosquitto.publish_callback_set(pointer) { _, context, _ in
            guard let context else { return }
            let handlers = Unmanaged<Handlers>.fromOpaque(context).takeUnretainedValue()
            handlers.state.withLock { state in
                state.unwritten = max(0, state.unwritten - 1)
                return state.onPublished
            }?()
        }
        mosquitto.message_callback_set(pointer) { _, context, message in
            guard let context, let message else { return }
            let handlers = Unmanaged<Handlers>.fromOpaque(context).takeUnretainedValue()
            guard let onMessage = handlers.state.withLock({ $0.onMessage }) else { return }
            let raw = message.pointee
            let payload =
                raw.payload.map {
                    Array(
                        UnsafeRawBufferPointer(start: $0, count: Int(raw.payloadlen)).bindMemory(
                            to: UInt8.self))
                } ?? []
            onMessage(
                MQTTMessage(
                    topic: String(cString: raw.topic), payload: payload, isRetained: raw.retain))
        }
    }

    deinit {
        mosquitto.destroy(handle.pointer)
    }

    /// What to do each time the connection is made.
    public func onConnect(_ handler: @escaping ConnectHandler) {
        handlers.state.withLock { $0.onConnect = handler }
    }

    /// What to do with each message of a subscribed topic.
    public func onMessage(_ handler: @escaping MessageHandler) {
        handlers.state.withLock { $0.onMessage = handler }
    }

    /// What to do each time a published message has been written (a publisher that holds its
    /// newest state back while ``unwrittenCount`` is not 0 publishes it then).
    public func onPublished(_ handler: @escaping PublishedHandler) {
        handlers.state.withLock { $0.onPublished = handler }
    }

    /// What to do when the connection comes up (nil) or is refused or lost (why).
    public func onStatus(_ handler: @escaping StatusHandler) {
        handlers.state.withLock { $0.onStatus = handler }
    }

    /// Whether the connection is up now.
    public var isConnected: Bool { handlers.state.withLock { $0.isConnected } }

    /// Messages published and not yet written to the broker. A publisher whose newest state
    /// replaces the last sends nothing while it is not 0 (newest wins), so that a broker that
    /// stops reading never makes libmosquitto's queue, and memory, grow.
    public var unwrittenCount: Int { handlers.state.withLock { $0.unwritten } }

    /// Starts the network thread, which connects (and reconnects) on its own; returns at once.
    ///
    /// - Throws: ``MQTTError/library(_:)`` when the thread cannot start or the broker's
    ///   address cannot be used at all (a name that does not resolve yet is tried again).
    public func start() throws(MQTTError) {
        let result = mosquitto.connect_async(handle.pointer, broker.host, Int32(broker.port), 30)
        let error = errno
        // A broker that is down now, or whose name does not resolve yet (at boot, before the
        // network), is no error: the thread keeps trying. It is said, though: libmosquitto's
        // thread retries in silence, and no callback would ever say why nothing connects.
        var why: String?
        switch result {
        case MOSQ_ERR_SUCCESS.rawValue: why = nil
        case MOSQ_ERR_EAI.rawValue: why = "\(broker.host) does not resolve"
        case MOSQ_ERR_ERRNO.rawValue: why = String(cString: strerror(error))
        default: try Self.check(result, "connecting to \(broker)")
        }
        if let why {
            // Said before the thread starts, so that a later "connected" comes after it.
            let onStatus = handlers.state.withLock { $0.onStatus }
            onStatus?("cannot connect (\(why)); trying again every 1 to 30 s")
        }
        try Self.check(mosquitto.loop_start(handle.pointer), "the network thread")
    }

    /// Publishes `message` at QoS 0; false when it was dropped (not connected).
    @discardableResult
    public func publish(_ message: MQTTMessage) -> Bool {
        // Counted before it is handed over: the network thread may have written it before
        // mosquitto_publish returns.
        handlers.state.withLock { $0.unwritten += 1 }
        let isQueued = message.payload.withUnsafeBytes { bytes in
            mosquitto.publish(
                handle.pointer, nil, message.topic, Int32(bytes.count), bytes.baseAddress, 0,
                message.isRetained) == MOSQ_ERR_SUCCESS.rawValue
        }
        if !isQueued { handlers.state.withLock { $0.unwritten = max(0, $0.unwritten - 1) } }
        return isQueued
    }

    /// Subscribes to `topic` (wildcards allowed); call it from ``onConnect(_:)`` so that it
    /// holds across reconnections.
    public func subscribe(_ topic: String) {
        _ = mosquitto.subscribe(handle.pointer, nil, topic, 0)
    }

    /// Disconnects cleanly (the broker does not publish the will) and stops the thread.
    public func stop() {
        _ = mosquitto.disconnect(handle.pointer)
        _ = mosquitto.loop_stop(handle.pointer, false)
    }

    private static func check(_ result: Int32, _ what: String) throws(MQTTError) {
        guard result == MOSQ_ERR_SUCCESS.rawValue else {
            throw .library("\(what): \(MosquittoLibrary.error(result))")
        }
    }
}
