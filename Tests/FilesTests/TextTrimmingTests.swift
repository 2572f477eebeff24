import Files
import Testing

/// Text helpers that need no Foundation.
struct TextTrimmingTests {
    @Test("white space goes from both ends, and only from the ends")
    func trimming() {
        #expect("  a b\t\n".trimmingWhitespace() == "a b")
        #expect("\r\n".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
        #expect("x".trimmingWhitespace() == "x")
        #expect("\u{00A0}token\u{2003}".trimmingWhitespace() == "token")
        #expect(" \n\u{00A0} é \u{2003}\t".trimmingWhitespace() == "é")
        #expect(" \u{00A0}\u{2003} ".trimmingWhitespace() == "")
        #expect("  mid dle  "[...].dropFirst(1).trimmingWhitespace() == "mid dle")
    }

    @Test("runs of digits compare by value, the rest by character")
    func numericOrder() {
        let paths = ["hwmon10/temp1", "hwmon2/temp1", "hwmon1/temp10", "hwmon1/temp2", "hwmon02/a"]
        #expect(
            paths.sorted { $0.precedesNumerically($1) }
                == ["hwmon1/temp2", "hwmon1/temp10", "hwmon02/a", "hwmon2/temp1", "hwmon10/temp1"])
        #expect("a".precedesNumerically("ab"))
        #expect(!"ab".precedesNumerically("a"))
        #expect(!"a".precedesNumerically("a"))
    }

    @Test("a parsed document's members, by key, and its numbers")
    func jsonAccess() throws {
        let value = try JSONParser.parse(Array(#"{"a": {"b": 3}, "c": 1.5e1, "d": "x"}"#.utf8))
        #expect(value["a"]?["b"]?.number == 3)
        #expect(value["c"]?.number == 15)
        #expect(value["d"]?.number == nil)
        #expect(value["e"] == nil)
        #expect(value.members?.map(\.key) == ["a", "c", "d"])
        #expect(JSONValue.string("x").members == nil)
    }
}
