import Files

/// A capture session before it is committed: the device profile it runs on, its cameras and
/// its outputs. Parsed from the session JSON described in docs/pricing.md.
public struct SessionConfiguration: Hashable, Codable, Sendable {
    /// The device profile: a built-in profile's name, or a path to a profile JSON file.
    public var profile: String
    /// The cameras, in order; ids are unique.
    public var cameras: [CameraConfiguration]
    /// The outputs; each names one of ``cameras`` (or none, meaning the first).
    public var outputs: [CaptureOutput]

    /// The profile a session names when it names none.
    public static let defaultProfile = "generic-x86_64"

    /// Creates a session; see ``validate()`` for the rules it must follow to be used.
    public init(
        profile: String = SessionConfiguration.defaultProfile, cameras: [CameraConfiguration],
        outputs: [CaptureOutput]
    ) {
        self.profile = profile
        self.cameras = cameras
        self.outputs = outputs
    }

    /// The id of the camera `output` consumes.
    public func cameraID(of output: CaptureOutput) -> String? {
        output.camera ?? cameras.first?.id
    }

    /// The index in ``cameras`` of the camera with `id`.
    public func cameraIndex(id: String) -> Int? {
        cameras.firstIndex { $0.id == id }
    }

    /// The most cameras a session may have: more than any board has camera ports.
    public static let maximumCameras = 64
    /// The most outputs a session may have: real sessions have a handful; the planner prices
    /// a full one in well under a second.
    public static let maximumOutputs = 1000

    /// Checks the rules that span several fields: one to ``maximumCameras`` cameras, unique
    /// camera ids, at most ``maximumOutputs`` outputs, outputs that name existing cameras.
    public func validate() throws(ConfigurationError) {
        guard !cameras.isEmpty else {
            throw ConfigurationError(path: "cameras", problem: "expected at least one camera")
        }
        guard cameras.count <= Self.maximumCameras else {
            throw ConfigurationError(
                path: "cameras",
                problem: "expected at most \(Self.maximumCameras) cameras, got \(cameras.count)")
        }
        guard outputs.count <= Self.maximumOutputs else {
            throw ConfigurationError(
                path: "outputs",
                problem: "expected at most \(Self.maximumOutputs) outputs, got \(outputs.count)")
        }
        var firstUse: [String: Int] = [:]
        for (index, camera) in cameras.enumerated() {
            if let first = firstUse[camera.id] {
                throw ConfigurationError(
                    path: "cameras[\(index)].id",
                    problem: "camera id \"\(camera.id)\" is already used by cameras[\(first)]")
            }
            firstUse[camera.id] = index
        }
        for (index, output) in outputs.enumerated() {
            if let id = output.camera, firstUse[id] == nil {
                let known = cameras.map { "\"\($0.id)\"" }.joined(separator: ", ")
                throw ConfigurationError(
                    path: "outputs[\(index)].camera",
                    problem: "no camera has id \"\(id)\"; expected one of: \(known)")
            }
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case profile, cameras, outputs
    }

    /// Decodes a session, rejecting unknown keys; run ``validate()`` (or use ``load(from:)``)
    /// for the rules that span fields.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        profile =
            try container.decodeIfPresent(String.self, forKey: .profile) ?? Self.defaultProfile
        cameras = try container.decode([CameraConfiguration].self, forKey: .cameras)
        outputs = try container.decodeIfPresent([CaptureOutput].self, forKey: .outputs) ?? []
    }

    /// Parses and validates session JSON; errors name `file` and the field path.
    public static func decode(
        _ data: some Sequence<UInt8>, file: String? = nil
    ) throws(ConfigurationError) -> SessionConfiguration {
        let session = try decodeStrictly(SessionConfiguration.self, from: data, file: file)
        do {
            try session.validate()
        } catch {
            throw file.map(error.inFile) ?? error
        }
        return session
    }

    /// Reads, parses and validates a session JSON file.
    public static func load(from path: String) throws(ConfigurationError) -> SessionConfiguration {
        try decode(InputFile.read(path), file: path)
    }

    /// The session as pretty-printed JSON with sorted keys, in the same schema it is read from.
    public func jsonData() -> [UInt8] {
        JSONStyle.document.encodeExplainingFailure(self)
    }
}
