import Files

/// Finds a device profile by built-in name or by the path of a profile JSON file.
public struct ProfileCatalog: Sendable {
    /// The profiles known by name.
    public var profiles: [DeviceProfile]

    /// A catalog of `profiles`, by default the built-in ones.
    public init(profiles: [DeviceProfile] = DeviceProfile.builtIn) {
        self.profiles = profiles
    }

    /// The profile named `reference`, or the one in the JSON file at that path (a reference
    /// containing `/` or ending in `.json` is a path).
    ///
    /// - Throws: ``ConfigurationError`` naming `field` (e.g. `profile`) when the name is unknown,
    ///   or the file and field when the profile file is invalid.
    public func profile(
        _ reference: String, field: String = "profile"
    ) throws(ConfigurationError) -> DeviceProfile {
        if let profile = profiles.first(where: { $0.name == reference }) { return profile }
        if reference.contains("/") || reference.hasSuffix(".json") {
            return try DeviceProfile.decode(readConfigurationFile(reference), file: reference)
        }
        let known = profiles.map(\.name).joined(separator: ", ")
        throw ConfigurationError(
            path: field,
            problem:
                "unknown profile \"\(reference)\"; expected one of: \(known), or a path to a profile JSON file"
        )
    }
}
