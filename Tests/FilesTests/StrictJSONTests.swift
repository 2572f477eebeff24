import Files
import Foundation
import Testing

/// The strict JSON layer as users meet it: every error names the field and what was expected.
struct StrictJSONTests {
    struct Format: Codable, Equatable {
        var width: Int
        var height: UInt16
        var rate: Double
        var name: String?
        var tags: [String]?
    }

    struct Session: Codable, Equatable {
        var cameras: [Format]
    }

    private func problem(_ json: String) -> ConfigurationError? {
        do {
            _ = try decodeStrictly(Session.self, from: Data(json.utf8), file: "s.json")
            return nil
        } catch {
            return error
        }
    }

    private func session(_ cameraFields: String) -> String {
        "{ \"cameras\": [ { \"width\": 640, \"height\": 480, \"rate\": 30 }, { \(cameraFields) } ] }"
    }

    @Test("a fraction or an out-of-range number in an integer field names the field and the range")
    func integerFields() {
        let fraction = problem(session("\"width\": 1.5, \"height\": 1, \"rate\": 1"))
        #expect(fraction?.description == "s.json: cameras[1].width: expected an integer, got 1.5")
        let huge = problem(session("\"width\": 1e30, \"height\": 1, \"rate\": 1"))
        #expect(huge?.path == "cameras[1].width")
        #expect(huge?.problem.contains("9223372036854775807") == true)
        let tooBigForField = problem(session("\"width\": 1, \"height\": 70000, \"rate\": 1"))
        #expect(
            tooBigForField?.description
                == "s.json: cameras[1].height: expected an integer from 0 to 65535, got 70000")
        let negative = problem(session("\"width\": 1, \"height\": -1, \"rate\": 1"))
        #expect(negative?.path == "cameras[1].height")
    }

    @Test("whole numbers written with an exponent or a zero fraction are integers")
    func wholeNumbers() throws {
        let decoded = try decodeStrictly(
            Session.self,
            from: Data(session("\"width\": 1e3, \"height\": 2.0, \"rate\": 1").utf8), file: nil)
        #expect(decoded.cameras[1].width == 1000)
        #expect(decoded.cameras[1].height == 2)
    }

    @Test("a number that overflows to infinity is refused, not read as inf")
    func infiniteNumbers() {
        let error = problem(session("\"width\": 1, \"height\": 1, \"rate\": 1e400"))
        #expect(error?.path == "cameras[1].rate")
        #expect(error?.problem.hasPrefix("expected a finite number") == true)
    }

    @Test("type mismatches say what was found")
    func mismatches() {
        #expect(
            problem(session("\"width\": \"wide\", \"height\": 1, \"rate\": 1"))?.description
                == "s.json: cameras[1].width: expected an integer, got a string \"wide\"")
        #expect(
            problem("{ \"cameras\": {} }")?.description
                == "s.json: cameras: expected an array, got an object")
        #expect(
            problem(session("\"height\": 1, \"rate\": 1"))?.description
                == "s.json: cameras[1].width: required key is missing")
    }

    @Test("a duplicate key is an error naming its path and both lines")
    func duplicateKeys() {
        let json =
            "{ \"cameras\": [ { \"width\": 1,\n \"height\": 1, \"rate\": 1,\n \"width\": 2 } ] }"
        let error = problem(json)
        #expect(error?.path == "cameras[0].width")
        #expect(error?.problem == "duplicate key (line 3; first at line 1)")
        #expect(error?.file == "s.json")
    }

    @Test("syntax errors give the line and column an editor shows")
    func syntax() {
        #expect(
            problem("{\n  \"cameras\": [\n    { \"width\": 1,, }\n  ]\n}")?.problem
                == "not valid JSON: expected a key in double quotes at line 3, column 18")
        #expect(
            problem("")?.problem
                == "not valid JSON: unexpected end of the document at line 1, column 1")
        #expect(problem("{} x")?.problem.hasPrefix("not valid JSON: unexpected text after") == true)
        #expect(problem("{\"a\": \"\u{01}\"}")?.problem.contains("control character") == true)
        #expect(problem("[01]")?.problem.hasPrefix("not valid JSON") == true)
        // Four hex digits exactly: no sign, no space.
        for escape in [#"\u+041"#, #"\u-041"#, #"\u 041"#, #"\u04G1"#] {
            #expect(
                problem("[\"\(escape)\"]")?.problem.contains("four hex digits") == true, "\(escape)"
            )
        }
    }

    @Test("nesting beyond the limit is refused without exhausting the stack")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = problem(deep)
        #expect(error?.problem.contains("nested deeper than \(JSONParser.maximumDepth)") == true)
    }

    @Test("a byte-order mark and CRLF line ends are accepted")
    func publishedFiles() throws {
        let text =
            "\u{FEFF}{\r\n \"cameras\": [ { \"width\": 2, \"height\": 3, \"rate\": 4.5,"
            + " \"name\": \"caf\\u00e9 \\ud83d\\ude00\", \"tags\": [] } ]\r\n}\r\n"
        let decoded = try decodeStrictly(Session.self, from: Data(text.utf8), file: nil)
        #expect(
            decoded.cameras == [Format(width: 2, height: 3, rate: 4.5, name: "café 😀", tags: [])])
    }

    @Test("strings and escapes round-trip through Foundation's encoder")
    func roundTrip() throws {
        let names = ["plain", "quote \" backslash \\ slash /", "tab\tnew\nline", "ünï 🎥", "\u{7F}"]
        for name in names {
            let value = Format(width: 1, height: 2, rate: 0.1, name: name, tags: ["a", name])
            let encoded = try JSONEncoder().encode(Session(cameras: [value]))
            let decoded = try decodeStrictly(Session.self, from: encoded, file: nil)
            #expect(decoded.cameras == [value])
        }
    }
}
