/// One Server-Sent Event of the service: its sequence number, its name and its data (one
/// line of JSON).
public struct ServiceEvent: Hashable, Sendable {
    /// The event's sequence number, sent as its `id:`; increases by one with each event.
    public var id: Int
    /// `pressure` or `advice`.
    public var name: String
    /// The event's JSON, on one line.
    public var data: String

    /// An event with every field given.
    public init(id: Int, name: String, data: String) {
        self.id = id
        self.name = name
        self.data = data
    }

    /// The event in the `text/event-stream` format.
    public var wireText: String {
        "id: \(id)\nevent: \(name)\ndata: \(data)\n\n"
    }
}
