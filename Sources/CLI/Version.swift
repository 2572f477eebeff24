/// `headroom --version`: the release this source tree is. Raised with every release; scripts
/// and bug reports quote it.
public let headroomVersion = "0.5.0"
