import CLI
import Capture
import Daemon
import Files

/// A session file and the profile it is priced on: the session's own `profile`, or `--profile`.
struct SessionInput {
    /// The parsed, validated session (its `profile` replaced by `--profile` when given).
    var configuration: SessionConfiguration
    /// The resolved device profile.
    var profile: DeviceProfile

    /// `--profile`, which every session-reading command accepts.
    static let profileOption = Option<String?>.path(
        "--profile", "NAME|FILE", "price on this device profile instead of the session's own")

    /// Loads the session file at `path`, priced on `profileOverride` (`--profile`) when given.
    init(path: String, profileOverride: String?) throws {
        configuration = try SessionConfiguration.load(from: path)
        profile = try Self.profile(
            profileOverride ?? configuration.profile, override: profileOverride != nil, file: path)
        if let profileOverride { configuration.profile = profileOverride }
    }

    /// Resolves a profile reference: a mistake in `--profile` is a usage error; in a session
    /// file's `profile` field it names `file`.
    static func profile(_ reference: String, override: Bool, file: String?) throws -> DeviceProfile
    {
        let result = Result { () throws(ConfigurationError) in
            try ProfileCatalog.forThisUser.profile(
                reference, field: override ? "--profile" : "profile")
        }
        switch result {
        case .success(let profile):
            return profile
        case .failure(let error) where error.file != nil:
            throw error
        case .failure(let error):
            if override { throw UsageError(description: error.description) }
            throw file.map(error.inFile) ?? error
        }
    }
}
