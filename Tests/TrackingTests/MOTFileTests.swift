import Foundation
import Testing
import Tracking

@Suite struct MOTFileTests {
    @Test func parsesDetectionsAndGroundTruth() throws {
        let text = """
            1,-1,10.5,20,30,60,0.9,-1,-1,-1
            1,3,100,20,30,60

            2,3,102,21,30,60,1,1,0.8
            """
        let records = try MOTFile.parse(text, file: "det.txt")
        #expect(records.count == 3)
        #expect(
            records[0]
                == MOTRecord(
                    frame: 1, id: -1, box: BoundingBox(minX: 10.5, minY: 20, width: 30, height: 60),
                    confidence: 0.9))
        #expect(records[1].confidence == 1)
        #expect(records[2].frame == 2)
    }

    @Test(arguments: [
        ("1,2,3", 1, "at least 6"),
        ("x,2,3,4,5,6", 1, "frame"),
        ("1,2,nan,4,5,6", 1, "left: expected a number, got 'nan'"),
        ("1,2,3,inf,5,6", 1, "top: expected a number, got 'inf'"),
        ("1,2,3,1e400,5,6", 1, "top: expected a finite number"),
        ("1,2,0x10,4,5,6", 1, "left: expected a number, got '0x10'"),
        ("1,2,1e17,4,5,6", 1, "left: expected a number from -1e6 to 1e6"),
        ("1,2,3,4,-5,6", 1, "width: expected a number from 1e-6 to 1e6"),
        ("1,2,3,4,1e-320,6", 1, "width: expected a number from 1e-6 to 1e6"),
        ("1,2,3,4,5,0", 1, "height: expected a number from 1e-6 to 1e6"),
        ("0,2,3,4,5,6", 1, "frame: expected a whole number"),
        ("1.5,2,3,4,5,6", 1, "frame: expected a whole number"),
    ])
    func malformedLinesNameFileAndLine(line: String, number: Int, problem: String) {
        let text = "1,1,0,0,10,10\n\n" + line + "\n"
        do {
            _ = try MOTFile.parse(text, file: "gt.txt")
            Issue.record("expected an error for \(line)")
        } catch {
            #expect(error.file == "gt.txt")
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("gt.txt:3: "))
            #expect(error.problem.contains(problem))
        }
    }

    @Test func formatRoundTrips() throws {
        let records = [
            MOTRecord(frame: 1, id: 4, box: BoundingBox(minX: 1.25, minY: 2, width: 3, height: 4)),
            MOTRecord(
                frame: 7, id: 9, box: BoundingBox(minX: -3, minY: 0.5, width: 10.125, height: 4),
                confidence: 0.75),
        ]
        #expect(try MOTFile.parse(MOTFile.format(records), file: "x") == records)
    }

    @Test func crlfAndByteOrderMarkReadAsPublished() throws {
        let lf = "1,1,10,20,30,40,0.9,-1,-1,-1\n2,1,12,20,30,40,0.8,-1,-1,-1\n"
        let published = "\u{FEFF}" + lf.replacingOccurrences(of: "\n", with: "\r\n")
        let expected = try MOTFile.parse(lf, file: "lf.txt")
        #expect(expected.count == 2)
        #expect(try MOTFile.parse(published, file: "crlf.txt") == expected)
    }

    @Test func textWithoutBoxesIsAnErrorNamingTheFile() {
        for text in ["", "\r\n\r\n", "\u{FEFF}"] {
            #expect(throws: MOTFormatError.self) { try MOTFile.parse(text, file: "empty.txt") }
            do {
                _ = try MOTFile.parse(text, file: "empty.txt")
            } catch {
                #expect(error.description.hasPrefix("empty.txt: no boxes found"))
            }
        }
    }

    /// Found by the fuzzer: a field of 20 digits overflowed the fast decimal path.
    @Test func longNumbersParseLikeTheStandardLibrary() throws {
        let text = "1,1,123456.789012345678901234,0.12345678901234567890,30,40\n"
        let record = try #require(try MOTFile.parse(text, file: "x").first)
        #expect(record.box.minX == Double("123456.789012345678901234"))
        #expect(record.box.minY == Double("0.12345678901234567890"))
    }

    @Test func frameNumbersAreBounded() throws {
        let last = MOTFile.maximumFrame
        #expect(try MOTFile.parse("\(last),1,0,0,1,1\n", file: "x").first?.frame == last)
        #expect(throws: MOTFormatError.self) {
            try MOTFile.parse("\(last + 1),1,0,0,1,1\n", file: "x")
        }
        #expect(throws: MOTFormatError.self) { try MOTFile.parse("1e8,1,0,0,1,1\n", file: "x") }
    }

    @Test("an id twice in one frame is found; detections' repeated -1 are for the caller to allow")
    func repeatedIdentities() throws {
        let records = try MOTFile.parse(
            "1,1,0,0,5,5\n1,2,9,9,5,5\n2,1,0,0,5,5\n2,1,4,4,5,5\n", file: "gt")
        let repeated = try #require(MOTFile.repeatedIdentity(in: records))
        #expect(repeated.frame == 2 && repeated.id == 1)
        #expect(MOTFile.repeatedIdentity(in: Array(records.prefix(3))) == nil)
    }
}
