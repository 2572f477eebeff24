extension Decoder {
    /// The number of seconds this value holds, refused with what was expected (`expected`,
    /// naming the range) when it lies outside `range`: how instants and durations read
    /// documents.
    func decodeSeconds(within range: ClosedRange<Double>, expected: String) throws -> Double {
        let container = try singleValueContainer()
        let seconds = try container.decode(Double.self)
        guard range.contains(seconds) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected \(expected), got \(seconds)")
        }
        return seconds
    }
}
