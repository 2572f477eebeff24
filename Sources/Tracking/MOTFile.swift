import Foundation

/// Reading and writing MOTChallenge text files
/// (`frame,id,left,top,width,height,conf,x,y,z`, one box per line, pixels).
public enum MOTFile {
    /// Reads and validates a file.
    ///
    /// - Throws: ``MOTFormatError`` naming the file (and line) when it cannot be read or a line
    ///   is malformed.
    public static func read(_ path: String) throws(MOTFormatError) -> [MOTRecord] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw MOTFormatError(file: path, line: 0, problem: "cannot read the file (\(error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MOTFormatError(file: path, line: 0, problem: "expected UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Parses MOTChallenge text. Blank lines are skipped; every other line needs at least the
    /// six fields `frame,id,left,top,width,height`, optionally followed by a confidence and
    /// more fields (which are ignored).
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the name to put in errors.
    /// - Throws: ``MOTFormatError`` for a line with too few fields, a non-numeric, non-finite
    ///   or fractional frame number, a frame below 1, non-finite coordinates, or a width or
    ///   height that is not positive.
    public static func parse(_ text: String, file: String) throws(MOTFormatError) -> [MOTRecord] {
        var records: [MOTRecord] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
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
            guard numbers[0] >= 1, numbers[0] == numbers[0].rounded(), numbers[0] < 1e9 else {
                throw fail("frame: expected a whole number ≥ 1, got \(fields[0])")
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
