import Files

/// How a frame's pixels are laid out in memory, which fixes its size in bytes.
public enum PixelFormat: String, CaseIterable, Codable, Sendable {
    /// 8-bit Y plane plus interleaved half-resolution CbCr (4:2:0); what ISPs and encoders prefer.
    case nv12
    /// 10-bit 4:2:0 in 16-bit containers (HDR pipelines).
    case p010
    /// 8-bit packed 4:2:2, what most UVC webcams deliver uncompressed.
    case yuyv
    /// 8-bit packed RGB.
    case rgb24
    /// 8-bit BGRA, the usual format for CPU-side vision code.
    case bgra
    /// 8-bit luminance only.
    case gray8

    /// Average bytes one pixel occupies in memory.
    public var bytesPerPixel: Double {
        switch self {
        case .nv12: 1.5
        case .p010: 3
        case .yuyv: 2
        case .rgb24: 3
        case .bgra: 4
        case .gray8: 1
        }
    }

    /// Decodes a format name, listing the known names when it is not one of them.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let format = PixelFormat(rawValue: name) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown pixel format \"\(name)\"; expected one of: \(known)")
            )
        }
        self = format
    }
}
