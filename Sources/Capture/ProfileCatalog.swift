import Files

/// Finds a device profile by name — built-in, or calibrated (a `NAME.json` file in
/// ``calibratedDirectory``, which `headroom calibrate` writes) — or by the path of a profile
/// JSON file.
public struct ProfileCatalog: Sendable {
    /// The profiles known by name without reading any file, by default the built-in ones.
    public var profiles: [DeviceProfile]
    /// The directory of calibrated profiles, each `NAME.json` with `"name": "NAME"`; `nil` for
    /// none. Looked in after the built-ins, so a calibrated file cannot shadow one.
    public var calibratedDirectory: String?

    /// The name `headroom calibrate` gives the profile it measures.
    public static let hostProfileName = "host"

    /// A catalog of `profiles` (by default the built-in ones) and the calibrated profiles in
    /// `calibratedDirectory` (nil for none): the caller says where, a library reads no
    /// environment.
    public init(
        profiles: [DeviceProfile] = DeviceProfile.builtIn, calibratedDirectory: String?
    ) {
        self.profiles = profiles
        self.calibratedDirectory = calibratedDirectory
    }

    /// The built-in profiles and this user's calibrated ones, where `environment` says they
    /// are (``defaultCalibratedDirectory(environment:)``): the catalog a command uses.
    public static func user(environment: [String: String]) -> ProfileCatalog {
        ProfileCatalog(calibratedDirectory: defaultCalibratedDirectory(environment: environment))
    }

    /// `$XDG_CONFIG_HOME/headroom/profiles`, with XDG's default `~/.config` when the variable
    /// is unset or empty; `nil` when neither it nor `HOME` is set.
    public static func defaultCalibratedDirectory(
        environment: [String: String]
    ) -> String? {
        let base: String
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty {
            base = config
        } else if let home = environment["HOME"], !home.isEmpty {
            base = home + "/.config"
        } else {
            return nil
        }
        return base + "/headroom/profiles"
    }

    /// Where the calibrated profile `name` lives (`nil` without a calibrated directory).
    public func calibratedPath(for name: String) -> String? {
        calibratedDirectory.map { "\($0)/\(name).json" }
    }

    /// The profile named `reference` (built-in first, then calibrated), or the one in the JSON
    /// file at that path (a reference containing `/` or ending in `.json` is a path).
    ///
    /// - Throws: ``ConfigurationError`` naming `field` (e.g. `profile`) when the name is unknown
    ///   (listing the known names), or the file and field when a profile file is invalid or a
    ///   calibrated file's `name` differs from its file name.
    public func profile(
        _ reference: String, field: String = "profile"
    ) throws(ConfigurationError) -> DeviceProfile {
        if let profile = profiles.first(where: { $0.name == reference }) { return profile }
        if reference.contains("/") || reference.hasSuffix(".json") {
            return try DeviceProfile.decode(InputFile.read(reference), file: reference)
        }
        if let path = calibratedPath(for: reference), FileSystem.exists(path) {
            return try calibrated(at: path, name: reference)
        }
        var known = profiles.map(\.name)
        known += (try? calibratedNames()) ?? []
        throw ConfigurationError(
            path: field,
            problem:
                "unknown profile \"\(reference)\"; expected one of: \(known.joined(separator: ", ")),"
                + " or a path to a profile JSON file (`headroom calibrate` creates"
                + " \"\(Self.hostProfileName)\" from measurements of this machine)"
        )
    }

    /// The profile named `reference`, built-in or calibrated, never a file the reference
    /// names: for references that come from someone else than the one who runs Headroom (an
    /// API request, a library call's session), which must not make Headroom read, or tell of,
    /// any file they like.
    ///
    /// - Throws: ``ConfigurationError`` naming `field` when the reference is a path or an
    ///   unknown name.
    public func profile(named reference: String, field: String = "profile")
        throws(ConfigurationError) -> DeviceProfile
    {
        guard !reference.contains("/"), !reference.hasSuffix(".json") else {
            throw ConfigurationError(
                path: field,
                problem: "expected a profile name, built-in or calibrated; no file is read here")
        }
        return try profile(reference, field: field)
    }

    /// The built-in profiles followed by the calibrated ones (sorted by name; a calibrated file
    /// whose name a built-in already has is left out).
    ///
    /// - Throws: ``ConfigurationError`` naming the file and field of an invalid calibrated
    ///   profile.
    public func allProfiles() throws(ConfigurationError) -> [DeviceProfile] {
        var all = profiles
        for name in try calibratedNames() where !all.contains(where: { $0.name == name }) {
            if let path = calibratedPath(for: name) {
                all.append(try calibrated(at: path, name: name))
            }
        }
        return all
    }

    /// The names of the calibrated profile files (`NAME.json`), sorted; none when the
    /// directory does not exist.
    private func calibratedNames() throws(ConfigurationError) -> [String] {
        guard let directory = calibratedDirectory,
            let entries = FileSystem.entries(of: directory)
        else { return [] }
        return
            entries
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .map { String($0.dropLast(".json".count)) }
            .sorted()
    }

    private func calibrated(at path: String, name: String) throws(ConfigurationError)
        -> DeviceProfile
    {
        let profile = try DeviceProfile.decode(InputFile.read(path), file: path)
        guard profile.name == name else {
            throw ConfigurationError(
                file: path, path: "name",
                problem: "expected \"\(name)\" (the file's name), got \"\(profile.name)\"")
        }
        return profile
    }
}
