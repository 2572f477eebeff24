import Files
import Foundation
import Governor
import Testing

/// A policy file: every bad value refused by its field's path.
struct GovernorPolicyTests {
    @Test("a policy file with a bad value names the field")
    func policyValidation() throws {
        let error = try #require(throws: Files.ConfigurationError.self) {
            try GovernorPolicy.decode(
                Data(#"{ "restoreDwellSeconds": -1 }"#.utf8), file: "policy.json")
        }
        #expect(error.path == "restoreDwellSeconds")
        #expect(throws: Files.ConfigurationError.self) {
            try GovernorPolicy.decode(Data(#"{ "hysteresis": 3 }"#.utf8))
        }
        #expect(try GovernorPolicy.decode(Data("{}".utf8)) == GovernorPolicy())
    }

    @Test(
        "a ladder setting beyond its bounds names its index and field (no overflow, no 26 TB)",
        arguments: [
            (#"[{"stride": 9223372036854775807, "scale": 1}]"#, "inferenceLadder[0].stride"),
            (
                #"[{"stride": 1, "scale": 1}, {"stride": 1099511627776, "scale": 1}]"#,
                "inferenceLadder[1].stride"
            ),
            (#"[{"stride": 0, "scale": 1}]"#, "inferenceLadder[0].stride"),
            (#"[{"stride": 1, "scale": 1e-300}]"#, "inferenceLadder[0].scale"),
            (#"[{"stride": 1, "scale": 1, "model": "x"}]"#, "inferenceLadder[0].model"),
            ("[]", "inferenceLadder"),
        ])
    func ladderBounds(ladder: String, path: String) throws {
        let error = try #require(throws: Files.ConfigurationError.self) {
            try GovernorPolicy.decode(Data(#"{ "inferenceLadder": \#(ladder) }"#.utf8))
        }
        #expect(error.path == path)
    }
}
