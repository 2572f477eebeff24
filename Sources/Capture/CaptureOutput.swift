import Files

/// What a capture output does with a camera's frames.
public enum OutputKind: String, CaseIterable, Codable, Sendable {
    /// An on-screen preview, scaled to display size.
    case preview
    /// Every frame delivered to the app's own code (vision, tracking): a full-rate consumer.
    case videoData
    /// Still photos on request; idle cost is a ready high-resolution path.
    case photo
    /// A recording: every frame encoded to a file, a full-rate consumer with an encoder.
    case movie

    /// Decodes an output kind, listing the known kinds when it is not one of them.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let kind = OutputKind(rawValue: name) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown output kind \"\(name)\"; expected one of: \(known)"))
        }
        self = kind
    }
}

/// One output of a capture session, attached to a camera.
public struct CaptureOutput: Hashable, Codable, Sendable {
    /// What the output does.
    public var kind: OutputKind
    /// The id of the camera it consumes; `nil` means the session's first camera.
    public var camera: String?
    /// Whether the output is started after the first preview frame instead of before it.
    public var isDeferredStartEnabled: Bool
    /// Whether the planner may drop this output to make the session fit.
    public var isOptional: Bool
    /// For a movie: whether it records through the pro video storage reserve (the `Storage`
    /// module), so its writes never wait for block allocation.
    public var usesProVideoStorage: Bool

    /// Creates an output of `kind` on `camera` (`nil`: the first camera).
    public init(
        kind: OutputKind, camera: String? = nil, isDeferredStartEnabled: Bool = false,
        isOptional: Bool = false, usesProVideoStorage: Bool = false
    ) {
        self.kind = kind
        self.camera = camera
        self.isDeferredStartEnabled = isDeferredStartEnabled
        self.isOptional = isOptional
        self.usesProVideoStorage = usesProVideoStorage
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, camera
        case isDeferredStartEnabled = "deferredStart"
        case isOptional = "optional"
        case usesProVideoStorage
    }

    /// Decodes an output, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(OutputKind.self, forKey: .kind)
        camera = try container.decodeIfPresent(String.self, forKey: .camera)
        isDeferredStartEnabled =
            try container.decodeIfPresent(Bool.self, forKey: .isDeferredStartEnabled) ?? false
        isOptional = try container.decodeIfPresent(Bool.self, forKey: .isOptional) ?? false
        usesProVideoStorage =
            try container.decodeIfPresent(Bool.self, forKey: .usesProVideoStorage) ?? false
        if usesProVideoStorage && kind != .movie {
            throw decoder.invalidValue(
                CodingKeys.usesProVideoStorage, "only a movie output records to storage")
        }
    }

    /// Encodes the output, leaving out keys at their defaults.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(camera, forKey: .camera)
        if isDeferredStartEnabled { try container.encode(true, forKey: .isDeferredStartEnabled) }
        if isOptional { try container.encode(true, forKey: .isOptional) }
        if usesProVideoStorage { try container.encode(true, forKey: .usesProVideoStorage) }
    }
}
