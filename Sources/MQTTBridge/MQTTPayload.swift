import Files

/// How the bridge writes its JSON payloads: one line, keys sorted (the same state is the same
/// bytes, so an unchanged state is seen as unchanged), slashes unescaped.
enum MQTTPayload {
    /// `value` as one line of JSON.
    static func json(_ value: some Encodable) -> [UInt8] {
        JSONStyle.line.encodeExplainingFailure(value)
    }
}
