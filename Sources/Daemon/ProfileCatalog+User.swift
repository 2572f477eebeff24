import CLI
import Capture
import Files

extension ProfileCatalog {
    /// The built-in profiles and this user's calibrated ones (`$XDG_CONFIG_HOME` or
    /// `~/.config`): the catalog every command prices on. The command line reads the
    /// environment; the libraries are given the catalog.
    public static var forThisUser: ProfileCatalog {
        .user(environment: ProcessFacts.environment)
    }
}
