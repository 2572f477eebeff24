import Governor

/// The keys registered clients go by on the broker: an entity's key must stay the same while
/// the client is registered and say which pipeline it is, so it is made from the client's
/// name (`people_detector`), with `_2`, `_3`… when two clients share a name. A client keeps the
/// key it was given for as long as it is registered, whoever comes or goes beside it.
struct ClientKeys {
    /// The key each registered client was given.
    private var keys: [ClientID: String] = [:]

    /// Each client's state under its key: clients seen before keep theirs, those gone give
    /// theirs up, new ones (in id order) take the first free key of their name.
    mutating func assign(_ clients: [HostGovernor.ClientSummary]) -> [String: ClientStateDocument] {
        let present = Set(clients.map(\.id))
        keys = keys.filter { present.contains($0.key) }
        var taken = Set(keys.values)
        for client in clients.sorted(by: { $0.id < $1.id }) where keys[client.id] == nil {
            let base = Self.slug(client.registration.name)
            var key = base
            var suffix = 2
            while taken.contains(key) {
                key = "\(base)_\(suffix)"
                suffix += 1
            }
            keys[client.id] = key
            taken.insert(key)
        }
        return Dictionary(
            uniqueKeysWithValues: clients.map { (keys[$0.id]!, ClientStateDocument($0)) })
    }

    /// `name` in lower-case letters, digits and `_`, at most 40 characters.
    static func slug(_ name: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            let kept = character.isASCII && (character.isLetter || character.isNumber)
            if kept {
                slug.append(character)
            } else if !slug.isEmpty, slug.last != "_" {
                slug.append("_")
            }
            if slug.count == 40 { break }
        }
        while slug.last == "_" { slug.removeLast() }
        return slug.isEmpty ? "client" : slug
    }
}
