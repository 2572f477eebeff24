import Foundation

/// Reading and writing MOTChallenge text files
/// (`frame,id,left,top,width,height,conf,x,y,z`, one box per line, pixels).
public enum MOTFile {
    /// The largest frame number accepted: over nine hours at 30 fps, far beyond any published
    /// sequence. Tracking and evaluation step through every frame up to the last, so a frame
    /// number costs like a length and is bounded like one.
    public static let maximumFrame = 1_000_000

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
        var lineNumber = 0
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        // `isNewline` splits at "\n" and at "\r\n", which Swift treats as one character.
        for rawLine in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            func fail(_ problem: String) -> MOTFormatError {
                MOTFormatError(file: file, line: lineNumber, problem: problem)
            }
            guard fields.count >= 6 else {
                throw fail(
                    "expected at least 6 comma-separated fields (frame,id,left,top,width,height), got \(fields.count)"
                )
            }
            let names = ["frame", "id", "left", "top", "width", "height", "confidence"]
            var numbers: [Double] = []
            for (index, name) in names.enumerated() where index < fields.count {
                guard let value = Double(fields[index]) else {
                    throw fail("\(name): expected a number, got '\(fields[index])'")
                }
                guard value.isFinite else {
                    throw fail("\(name): expected a finite number, got \(fields[index])")
                }
                numbers.append(value)
            }
            guard numbers[0] >= 1, numbers[0] == numbers[0].rounded(),
                numbers[0] <= Double(maximumFrame)
            else {
                throw fail(
                    "frame: expected a whole number from 1 to \(maximumFrame), got \(fields[0])")
            }
            guard numbers[1] == numbers[1].rounded(), abs(numbers[1]) < 1e15 else {
                throw fail("id: expected a whole number, got \(fields[1])")
            }
            guard numbers[4] > 0 else { throw fail("width: expected > 0, got \(fields[4])") }
            guard numbers[5] > 0 else { throw fail("height: expected > 0, got \(fields[5])") }
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
