import CMosquitto

/// libmosquitto, opened with `dlopen` when the first connection is made rather than linked: a
/// process that never publishes maps neither it nor the OpenSSL it links (see
/// `Sources/CMosquitto/shim.h`).
enum MosquittoLibrary {
    /// Its functions, initialised (`mosquitto_lib_init`), or why they could not be.
    static let loaded: Result<headroom_mosquitto, MQTTError> = {
        let functions = UnsafeMutablePointer<headroom_mosquitto>.allocate(capacity: 1)
        defer { functions.deallocate() }
        var error = [CChar](repeating: 0, count: 512)
        guard headroom_mosquitto_load(functions, &error, error.count) else {
            let why = String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
            return .failure(.library("libmosquitto cannot be loaded: \(why)"))
        }
        let loaded = functions.pointee
        guard loaded.lib_init() == MOSQ_ERR_SUCCESS.rawValue else {
            return .failure(.library("libmosquitto could not start"))
        }
        return .success(loaded)
    }()

    /// libmosquitto's words for error `code` (a `MOSQ_ERR_*`).
    static func error(_ code: Int32) -> String {
        words { $0.strerror(code) }
    }

    /// libmosquitto's words for the broker's refusal `code` (a CONNACK code).
    static func refusal(_ code: Int32) -> String {
        words { $0.connack_string(code) }
    }

    /// The text one of the functions gives, or nothing where there is none; only a loaded
    /// library has codes to describe.
    private static func words(
        _ text: (headroom_mosquitto) -> UnsafePointer<CChar>?
    ) -> String {
        guard case .success(let functions) = loaded, let words = text(functions) else { return "" }
        return String(cString: words)
    }
}
