import Capture
import Files
import Foundation
import Testing
import Units

/// Parsing the session JSON: what is accepted, and every rejection names the field.
struct SessionConfigurationTests {
    static let valid = """
        {
          "profile": "generic-x86_64",
          "cameras": [
            { "id": "back",
              "format": { "width": 3840, "height": 2160, "maxFrameRate": 60,
                          "pixelFormat": "nv12", "binned": false },
              "frameRateOverride": 30 }
          ],
          "outputs": [
            { "kind": "preview" },
            { "kind": "videoData", "camera": "back" },
            { "kind": "photo", "camera": "back", "deferredStart": true }
          ]
        }
        """

    func decode(_ text: String) throws(ConfigurationError) -> SessionConfiguration {
        try SessionConfiguration.decode(Data(text.utf8), file: "session.json")
    }

    /// The error `text` produces; fails the test when it parses.
    func failure(_ text: String) -> ConfigurationError? {
        do {
            let session = try decode(text)
            Issue.record("expected an error, parsed \(session)")
            return nil
        } catch {
            return error
        }
    }

    /// The valid document with `old` replaced by `new`.
    func variant(_ old: String, _ new: String) -> String {
        precondition(Self.valid.contains(old), "fixture does not contain \(old)")
        return Self.valid.replacingOccurrences(of: old, with: new)
    }

    @Test("the design document's example parses with its meaning")
    func parsesDesignExample() throws {
        let session = try decode(Self.valid)
        #expect(session.profile == "generic-x86_64")
        #expect(session.cameras.count == 1)
        #expect(session.cameras[0].frameRate == 30)
        #expect(session.cameras[0].format.pixelFormat == .nv12)
        #expect(session.outputs.map(\.kind) == [.preview, .videoData, .photo])
        #expect(session.outputs[2].isDeferredStartEnabled)
        #expect(session.cameraID(of: session.outputs[0]) == "back")
    }

    @Test("a session survives encoding and decoding")
    func roundTrips() throws {
        let session = try decode(Self.valid)
        #expect(try SessionConfiguration.decode(session.jsonData()) == session)
    }

    @Test(
        "bad input names the file, the field path and what was expected",
        arguments: [
            ("{ \"cameras\": [", "", "not valid JSON"),
            (
                #""profile": "generic-x86_64","#, #""profile": "generic-x86_64", "colour": 1,"#,
                "unknown key"
            ),
            (#""maxFrameRate": 60"#, #""maxFrameRate": -60"#, "expected a frame rate above 0"),
            (
                #""frameRateOverride": 30"#, #""frameRateOverride": 90"#,
                "to its maxFrameRate (60), got 90"
            ),
            (#""binned": false"#, #""binned": "no""#, "expected true or false"),
            (#""pixelFormat": "nv12""#, #""pixelFormat": "nv21""#, "unknown pixel format"),
            (#"{ "kind": "preview" }"#, #"{ "kind": "hologram" }"#, "unknown output kind"),
            (#""camera": "back" }"#, #""camera": "side" }"#, #"no camera has id "side""#),
            (#""width": 3840, "#, "", "required key is missing"),
        ])
    func rejects(old: String, new: String, problem: String) throws {
        let text = old.hasPrefix("{ \"cameras\"") ? old : variant(old, new)
        let error = try #require(failure(text))
        #expect(error.file == "session.json")
        #expect(error.description.contains(problem), "\(error)")
    }

    @Test("field paths point at the offending value")
    func fieldPaths() throws {
        let cases: [(String, String, String)] = [
            (#""maxFrameRate": 60"#, #""maxFrameRate": -60"#, "cameras[0].format.maxFrameRate"),
            (
                #""frameRateOverride": 30"#, #""frameRateOverride": 90"#,
                "cameras[0].frameRateOverride"
            ),
            (#""camera": "back" }"#, #""camera": "side" }"#, "outputs[1].camera"),
            (#""binned": false"#, #""binned": false, "hdr": true"#, "cameras[0].format.hdr"),
            (#""width": 3840, "#, "", "cameras[0].format.width"),
        ]
        for (old, new, path) in cases {
            #expect(failure(variant(old, new))?.path == path)
        }
    }

    @Test("a camera id used twice is rejected at the second use")
    func duplicateCameraID() throws {
        let text = variant(
            #""frameRateOverride": 30 }"#,
            #""frameRateOverride": 30 }, { "id": "back", "format": { "width": 640, "height": 480, "maxFrameRate": 30 } }"#
        )
        let error = try #require(failure(text))
        #expect(error.path == "cameras[1].id")
        #expect(error.problem.contains("already used by cameras[0]"))
    }

    @Test("a session without cameras is rejected")
    func noCameras() throws {
        #expect(failure(#"{ "cameras": [] }"#)?.path == "cameras")
    }

    @Test("a missing file is named")
    func missingFile() {
        #expect(throws: ConfigurationError.self) {
            try SessionConfiguration.load(from: "/nonexistent/s.json")
        }
    }
}
