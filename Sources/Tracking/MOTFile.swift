import FoundationEssentials

/// Reading and writing MOTChallenge text files
/// (`frame,id,left,top,width,height,conf,x,y,z`, one box per line, pixels).
public enum MOTFile {
    /// The largest frame number accepted: over nine hours at 30 fps, far beyond any published
    /// sequence. Tracking and evaluation step through every frame up to the last, so a frame
    /// number costs like a length and is bounded like one.
    public static let maximumFrame = 1_000_000

    /// The coordinates a box may have, pixels: far beyond any frame, close enough that an IoU
    /// keeps its precision (at 1e17 a box's own IoU with itself rounds to 0).
    public static let coordinates = -1e6...1e6
    /// The sizes a box may have, pixels (or normalised units with `--image-size`): above a
    /// millionth, so no subnormal width can make an area 0.
    public static let sizes = 1e-6...1e6

    /// The largest MOT file read: about six million boxes (a box line is about 40 bytes).
    public static let maximumFileSize = 256 << 20

    /// Parses MOTChallenge text as published: LF or CRLF line ends, with or without a UTF-8
    /// byte-order mark. Blank lines are skipped; every other line needs at least the six fields
    /// `frame,id,left,top,width,height`, optionally followed by a confidence and more fields
    /// (which are ignored). Frames are limited to ``maximumFrame``.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the name to put in errors.
    /// - Throws: ``MOTFormatError`` for a line with too few fields, a non-numeric, non-finite
    ///   or fractional frame number, a frame below 1 or above ``maximumFrame``, non-finite
    ///   coordinates, a width or height that is not positive, and for text with no boxes at
    ///   all (an empty file is never a silent score).
    public static func parse(_ text: String, file: String) throws(MOTFormatError) -> [MOTRecord] {
        var records: [MOTRecord] = []
        // Bytes, not Characters: a published file has a million lines, and Foundation's
        // per-line trimming cost ~40 µs a line.
        let bytes = Array(text.utf8)
        var position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 0
        var fields: [Range<Int>] = []
        var numbers: [Double] = []
        while position < bytes.count {
            lineNumber += 1
            let lineEnd = bytes[position...].firstIndex(of: 0x0A) ?? bytes.count
            defer { position = lineEnd + 1 }
            fields.removeAll(keepingCapacity: true)
            var fieldStart = position
            for index in position...lineEnd where index == lineEnd || bytes[index] == 0x2C {
                fields.append(Self.trimmed(bytes, fieldStart..<index))
                fieldStart = index + 1
            }
            if fields.count == 1 && fields[0].isEmpty { continue }
            func text(_ field: Int) -> String {
                String(decoding: bytes[fields[field]], as: UTF8.self)
            }
            func fail(_ problem: String) -> MOTFormatError {
                MOTFormatError(file: file, line: lineNumber, problem: problem)
            }
            guard fields.count >= 6 else {
                throw fail(
                    "expected at least 6 comma-separated fields (frame,id,left,top,width,height), got \(fields.count)"
                )
            }
            numbers.removeAll(keepingCapacity: true)
            for (index, name) in Self.fieldNames.enumerated() where index < fields.count {
                guard let value = Self.number(bytes[fields[index]]) else {
                    throw fail("\(name): expected a number, got '\(text(index))'")
                }
                guard value.isFinite else {
                    throw fail("\(name): expected a finite number, got \(text(index))")
                }
                numbers.append(value)
            }
            guard numbers[0] >= 1, numbers[0] == numbers[0].rounded(),
                numbers[0] <= Double(maximumFrame)
            else {
                throw fail(
                    "frame: expected a whole number from 1 to \(maximumFrame), got \(text(0))")
            }
            guard numbers[1] == numbers[1].rounded(), abs(numbers[1]) < 1e15 else {
                throw fail("id: expected a whole number, got \(text(1))")
            }
            for index in 2...3 where !Self.coordinates.contains(numbers[index]) {
                throw fail(
                    "\(Self.fieldNames[index]): expected a number from -1e6 to 1e6, got \(text(index))"
                )
            }
            for index in 4...5 where !Self.sizes.contains(numbers[index]) {
                throw fail(
                    "\(Self.fieldNames[index]): expected a number from 1e-6 to 1e6, got \(text(index))"
                )
            }
            records.append(
                MOTRecord(
                    frame: Int(numbers[0]), id: Int(numbers[1]),
                    box: BoundingBox(
                        minX: numbers[2], minY: numbers[3], width: numbers[4], height: numbers[5]),
                    confidence: numbers.count > 6 ? numbers[6] : 1))
        }
        guard !records.isEmpty else {
            throw MOTFormatError(
                file: file, line: 0,
                problem: "no boxes found; expected lines of frame,id,left,top,width,height")
        }
        return records
    }

    /// The first id that appears twice in one frame, with the frame, or `nil`. Ground truth and
    /// tracker output name identities, so an id is one box a frame (TrackEval refuses a file
    /// otherwise); detections may repeat an id (`-1`).
    public static func repeatedIdentity(in records: [MOTRecord]) -> (frame: Int, id: Int)? {
        var seen = Set<MOTRecord.FrameIdentity>()
        seen.reserveCapacity(records.count)
        for record in records
        where !seen.insert(MOTRecord.FrameIdentity(frame: record.frame, id: record.id)).inserted {
            return (record.frame, record.id)
        }
        return nil
    }

    /// The fields read from each line, in order; the rest are ignored.
    private static let fieldNames = ["frame", "id", "left", "top", "width", "height", "confidence"]

    /// The part of `range` in `bytes` without the spaces, tabs and carriage return around it.
    private static func trimmed(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Exact powers of ten: a decimal with at most 15 digits divided by one of these is
    /// correctly rounded, the same double `strtod` gives.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// The number in `field`: plain decimals (`-12.375`, the MOT files' form) parsed here,
    /// anything else (exponents, `nan`, long fractions) by the standard library.
    private static func number(_ field: ArraySlice<UInt8>) -> Double? {
        var index = field.startIndex
        let isNegative = index < field.endIndex && field[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
        var mantissa = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < field.endIndex {
            let byte = field[index]
            if byte >= 0x30 && byte <= 0x39 {
                // Past 15 digits the standard library parses it; stop before Int overflows.
                if digits < 15 { mantissa = mantissa * 10 + Int(byte - 0x30) }
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard index == field.endIndex, digits > 0, digits <= 15 else {
            // Decimal notation only: Double(_:) also reads `0x10`, `inf` and `nan`.
            let isDecimal = field.allSatisfy { byte in
                (0x30...0x39).contains(byte) || [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains(byte)
            }
            return isDecimal ? Double(String(decoding: field, as: UTF8.self)) : nil
        }
        let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        return isNegative ? -magnitude : magnitude
    }

    /// Formats records as MOTChallenge text (`frame,id,left,top,width,height,conf,-1,-1,-1`),
    /// one line per record, in the order given.
    public static func format(_ records: [MOTRecord]) -> String {
        var text = ""
        text.reserveCapacity(records.count * 48)
        for record in records {
            let box = record.box
            text +=
                "\(record.frame),\(record.id),\(decimal(box.minX)),\(decimal(box.minY)),"
                + "\(decimal(box.width)),\(decimal(box.height)),\(decimal(record.confidence)),-1,-1,-1\n"
        }
        return text
    }

    /// Three decimals, enough for pixel boxes, without a trailing `.000`.
    private static func decimal(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}
