import Capture
import Files

/// A session file and the profile it is priced on: the session's own `profile`, or `--profile`.
struct SessionInput {
    /// The parsed, validated session (its `profile` replaced by `--profile` when given).
    var configuration: SessionConfiguration
    /// The resolved device profile.
    var profile: DeviceProfile

    /// The options every session-reading command accepts.
    static let profileOption = OptionSpec.option(
        "--profile", "NAME|FILE", "price on this device profile instead of the session's own")

    /// Loads the session file named by the single positional argument.
    init(_ arguments: Arguments) throws {
        let path = try arguments.single("FILE")
        var configuration = try SessionConfiguration.load(from: path)
        let override = arguments.value("--profile")
        let reference = override ?? configuration.profile
        let result = Result { () throws(ConfigurationError) in
            try ProfileCatalog().profile(
                reference, field: override == nil ? "profile" : "--profile")
        }
        switch result {
        case .success(let profile):
            self.profile = profile
        case .failure(let error) where error.file != nil:
            throw error
        case .failure(let error):
            // An unknown name: a mistake in the flag, or in the session file's "profile" field.
            if override != nil { throw UsageError(description: error.description) }
            throw error.inFile(path)
        }
        if let override { configuration.profile = override }
        self.configuration = configuration
    }
}
