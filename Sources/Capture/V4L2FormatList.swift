import Files
import Units

/// The capture formats a V4L2 camera offers, read from what `v4l2-ctl --list-formats-ext`
/// prints: one ``CameraFormat`` per pixel format and frame size, with the frame-rate range of
/// its intervals. Stepwise sizes give their largest size. Compressed formats (MJPEG, H.264)
/// count as 4:2:0 frames (what ffmpeg decodes them into); formats Headroom cannot price are
/// listed in ``skipped``. Lines may end in CRLF.
public struct V4L2FormatList: Sendable, Hashable {
    /// The formats, in the order listed.
    public var formats: [CameraFormat]
    /// Four-character codes of the formats left out, with why.
    public var skipped: [String]

    /// Parses the text; `file` names it in errors.
    ///
    /// - Throws: ``ConfigurationError`` when the text lists no capture format.
    public init(parsing text: String, file: String? = nil) throws(ConfigurationError) {
        var formats: [CameraFormat] = []
        var skipped: [String] = []
        var pixelFormat: PixelFormat?
        var size: (width: Int, height: Int)?
        var rates: [Double] = []
        func close() {
            guard let pixelFormat, let size, let low = rates.min(), let high = rates.max() else {
                return
            }
            // A listing may claim what no profile can hold (99999999², 1e9 fps): such a mode
            // is skipped and said, never written into a profile `--profile` would refuse.
            let sides = 1...CameraFormat.maximumDimension
            guard sides.contains(size.width), sides.contains(size.height),
                high <= CameraFormat.maximumFrameRate.framesPerSecond
            else {
                skipped.append(
                    "\(size.width)x\(size.height) up to \(high) fps: beyond what Headroom prices"
                        + " (sides up to \(sides.upperBound), up to \(Int(CameraFormat.maximumFrameRate.framesPerSecond)) fps)"
                )
                return
            }
            let format = CameraFormat(
                width: size.width, height: size.height,
                minFrameRate: FrameRate(framesPerSecond: low),
                maxFrameRate: FrameRate(framesPerSecond: high),
                pixelFormat: pixelFormat)
            if !formats.contains(format) { formats.append(format) }
        }
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace()
            if line.hasPrefix("["), let code = Self.quoted(line) {
                close()
                size = nil
                rates = []
                pixelFormat = Self.pixelFormat(fourCC: code)
                if pixelFormat == nil { skipped.append("\(code): not a format Headroom prices") }
            } else if line.hasPrefix("Size:") {
                close()
                rates = []
                size = Self.largestSize(in: line)
            } else if line.hasPrefix("Interval:") {
                rates += Self.framesPerSecond(in: line)
            }
        }
        close()
        guard !formats.isEmpty else {
            throw ConfigurationError(
                file: file, path: "",
                problem:
                    "expected `v4l2-ctl --list-formats-ext` output with at least one capture format and frame size"
            )
        }
        self.formats = formats
        self.skipped = skipped
    }

    /// The text between the first pair of single quotes.
    private static func quoted(_ line: String) -> String? {
        let parts = line.split(separator: "'", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }

    /// How a four-character code's frames sit in memory once captured (and decoded).
    static func pixelFormat(fourCC: String) -> PixelFormat? {
        switch fourCC.trimmingWhitespace() {
        case "YUYV", "YUY2", "UYVY": .yuyv
        case "NV12", "YU12", "YV12", "MJPG", "JPEG", "H264": .nv12
        case "GREY", "Y8": .gray8
        case "RGB3", "BGR3": .rgb24
        case "BGR4", "AR24", "XR24", "RGB4": .bgra
        case "P010": .p010
        default: nil
        }
    }

    /// `Size: Discrete 640x480` or `Size: Stepwise 16x16 - 1280x800 with step 16/16`: the
    /// largest `WxH` on the line.
    private static func largestSize(in line: String) -> (width: Int, height: Int)? {
        let sizes = line.split(whereSeparator: { $0 == " " || $0 == "-" }).compactMap {
            word -> (width: Int, height: Int)? in
            let parts = word.split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                width > 0, height > 0
            else { return nil }
            return (width, height)
        }
        // Areas compared as doubles: 99999999999x99999999999 overflows Int (found by the fuzzer).
        return sizes.max {
            Double($0.width) * Double($0.height) < Double($1.width) * Double($1.height)
        }
    }

    /// The frame rates in an interval line's parentheses: `(30.000 fps)` or
    /// `(1.000-120.000 fps)`.
    private static func framesPerSecond(in line: String) -> [Double] {
        guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"),
            open < close, line[open..<close].includes("fps")
        else { return [] }
        let inside = line[line.index(after: open)..<close].replacingEvery("fps", with: "")
        return inside.split(separator: "-").compactMap {
            Double($0.trimmingWhitespace())
        }.filter { $0 > 0 && $0.isFinite }
    }
}

extension DeviceProfile {
    /// This profile with one V4L2 camera, named `sensor`, offering `formats`: the budgets of
    /// the machine, the modes of the camera plugged into it.
    public func withV4L2Camera(_ formats: V4L2FormatList, sensor: String, from source: String)
        -> DeviceProfile
    {
        var profile = self
        profile.sensors = [SensorModes(name: sensor, formats: formats.formats)]
        profile.sources["sensors"] = "v4l2-ctl --list-formats-ext (\(source))"
        return profile
    }
}
