import Governor

/// The keys registered clients go by on the broker: an entity's key must stay the same while
/// the client is registered and say which pipeline it is, so it is made from the client's
/// name (`people_detector`), with `_2`, `_3`… when two clients share a name.
enum ClientKeys {
    /// Each client's state under its key.
    static func assign(_ clients: [HostGovernor.ClientSummary]) -> [String: ClientStateDocument] {
        var keyed: [String: ClientStateDocument] = [:]
        // In id order: the same clients get the same keys at every publication.
        for client in clients.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
            let base = slug(client.registration.name)
            var key = base
            var suffix = 2
            while keyed[key] != nil {
                key = "\(base)_\(suffix)"
                suffix += 1
            }
            keyed[key] = ClientStateDocument(client)
        }
        return keyed
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
