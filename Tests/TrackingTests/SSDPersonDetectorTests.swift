import Foundation
import Testing

@testable import Tracking

/// The neural person detector on the real model (installed by `scripts/setup.sh`) and real
/// frames of OpenCV's `vtest.avi`, against 27 people counted by eye (Tests/Fixtures/people).
struct SSDPersonDetectorTests {
    /// The counted people: frame (1-based) → boxes.
    static func counted() throws -> [Int: [BoundingBox]] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/people/vtest-counted.txt").standardized.path
        let records = try MOTFile.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        return Dictionary(grouping: records, by: \.frame).mapValues { $0.map(\.box) }
    }

    static let model = try? PersonModel.installed(environment: ProcessInfo.processInfo.environment)

    /// A new data directory (`XDG_DATA_HOME`) with an empty `headroom/models` in it.
    static func modelDirectory(_ purpose: String) throws -> (share: String, models: String) {
        let share = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headroom-\(purpose)-model-\(UUID().uuidString)"
        ).path
        let models = share + "/headroom/models"
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        return (share, models)
    }

    @Test("the model is installed (setup.sh installs it; CI never skips the real model)")
    func installed() throws {
        _ = try PersonModel.installed(environment: ProcessInfo.processInfo.environment)
    }

    @Test("a missing model is an error that says where it looked and how to install it")
    func missing() {
        #expect(throws: PersonModelError.self) {
            try PersonModel.installed(environment: [
                "HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent",
            ])
        }
        do {
            _ = try PersonModel.installed(environment: [
                "HOME": "/nonexistent", "XDG_DATA_DIRS": "/x",
            ])
        } catch {
            #expect(error.description.contains("/nonexistent/.local/share/headroom/models"))
            #expect(error.description.hasSuffix("install it with scripts/person-model.sh"))
        }
    }

    @Test("a link to the installed model is the model; a right-sized corrupt one is refused")
    func linkedAndCorrupt() throws {
        let installed = try PersonModel.installed(environment: ProcessInfo.processInfo.environment)
        let (share, models) = try Self.modelDirectory("linked")
        defer { try? FileManager.default.removeItem(atPath: share) }
        try FileManager.default.createSymbolicLink(
            atPath: models + "/person-ssdlite.pb", withDestinationPath: installed.graph)
        try FileManager.default.copyItem(
            atPath: installed.textGraph, toPath: models + "/person-ssdlite-300.pbtxt")
        let linked = try PersonModel.installed(environment: ["XDG_DATA_HOME": share])
        _ = try SSDPersonDetector(model: linked)
        // The same size, other bytes: OpenCV refuses it, and so does the detector.
        try FileManager.default.removeItem(atPath: models + "/person-ssdlite.pb")
        let size = try #require(
            FileManager.default.attributesOfItem(atPath: installed.graph)[.size] as? Int)
        #expect(
            FileManager.default.createFile(
                atPath: models + "/person-ssdlite.pb", contents: Data(repeating: 7, count: size)))
        let corrupt = try PersonModel.installed(environment: ["XDG_DATA_HOME": share])
        #expect(throws: PersonModelError.self) { try SSDPersonDetector(model: corrupt) }
    }

    @Test("the library looks nothing up: the neural detector without a model given is an error")
    func modelIsGiven() throws {
        #expect(throws: PersonModelError.self) { try PipelineDetector(.personSSD, scale: 1) }
        let model = try PersonModel.installed(environment: ProcessInfo.processInfo.environment)
        let detector = try PipelineDetector(.personSSD, scale: 1, personModel: model)
        #expect(detector.kind == .personSSD)
    }

    @Test("a network that cannot be read at a new size is counted and named, not silent")
    func unreadableAtNewSize() throws {
        let installed = try PersonModel.installed(environment: ProcessInfo.processInfo.environment)
        let (share, models) = try Self.modelDirectory("changed")
        defer { try? FileManager.default.removeItem(atPath: share) }
        for file in [installed.graph, installed.textGraph] {
            try FileManager.default.copyItem(
                atPath: file, toPath: models + "/" + (file as NSString).lastPathComponent)
        }
        let model = try PersonModel.installed(environment: ["XDG_DATA_HOME": share])
        var detector = try SSDPersonDetector(model: model, scale: 1)
        // The model changes under the running detector; its next size must read it again.
        #expect(
            FileManager.default.createFile(
                atPath: model.graph, contents: Data(repeating: 7, count: 4096)))
        let frame = GrayFrame(
            width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48))
        _ = detector.detect(in: frame)
        #expect(detector.failure == nil, "the size it started at was read before the change")
        detector.scale = 0.8
        #expect(detector.detect(in: frame).isEmpty)
        #expect(detector.detect(in: frame).isEmpty)
        #expect(detector.framesUnseen == 2)
        let problem = try #require(PipelineDetector.personSSD(detector).problem)
        #expect(
            problem.hasPrefix("the person detector saw nothing in 2 frame(s): OpenCV cannot read"))
    }

    @Test("an installed program names the installed command; a source tree's build, the script")
    func installCommand() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headroom-install-command-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = directory + "/headroom"
        #expect(PersonModel.installCommand(besideProgram: program) == "scripts/person-model.sh")
        #expect(PersonModel.installCommand(besideProgram: nil) == "scripts/person-model.sh")
        let command = directory + "/headroom-person-model"
        #expect(FileManager.default.createFile(atPath: command, contents: Data("#!/bin/sh\n".utf8)))
        // Not executable: not a command.
        #expect(PersonModel.installCommand(besideProgram: program) == "scripts/person-model.sh")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: command)
        #expect(PersonModel.installCommand(besideProgram: program) == "headroom-person-model")
    }

    @Test(
        "at input 300, at least 90 % of the counted people found, no box wider than half the frame")
    func findsCountedPeople() throws {
        let model = try #require(Self.model)
        var detector = try SSDPersonDetector(model: model)
        var found = 0
        var total = 0
        for (frame, people) in try Self.counted().sorted(by: { $0.key < $1.key }) {
            // The fixture counts from 1; ffmpeg's select from 0.
            let boxes = detector.detect(in: try HOGDetectorTests.videoFrame(frame - 1)).map(\.box)
            for box in boxes { #expect(box.width <= 768 / 2, "frame \(frame): \(box)") }
            total += people.count
            // Each box finds one person at most: pairs by overlap, best first (as
            // scripts/person_detector_check.py pairs them).
            let pairs = people.indices.flatMap { person in
                boxes.indices.map { box in
                    (boxes[box].intersectionOverUnion(with: people[person]), person, box)
                }
            }.filter { $0.0 >= 0.3 }.sorted { $0.0 > $1.0 }
            var paired = (people: Set<Int>(), boxes: Set<Int>())
            for (_, person, box) in pairs
            where !paired.people.contains(person) && !paired.boxes.contains(box) {
                paired.people.insert(person)
                paired.boxes.insert(box)
            }
            found += paired.people.count
        }
        #expect(total == 27)
        #expect(Double(found) >= 0.9 * Double(total), "found \(found) of \(total)")
    }

    @Test("the lighter rung (320 × 240) still finds people, in the frame's coordinates")
    func lighterRung() throws {
        let model = try #require(Self.model)
        var detector = try SSDPersonDetector(model: model, scale: 0.8)
        let input = SSDPersonDetector.inputSize(scale: 0.8)
        #expect(input.width == 320 && input.height == 240)
        let people = detector.detect(in: try HOGDetectorTests.videoFrame(247))
        #expect(people.count >= 5, "\(people.map(\.box))")
        for person in people {
            #expect(person.box.height > person.box.width && person.box.minY >= 0)
            #expect(person.confidence >= 0.2 && person.confidence <= 1)
        }
    }

    @Test("video gets the neural detector where its model is installed, HOG where it is not")
    func defaultForVideo() throws {
        _ = try #require(Self.model)
        #expect(
            DetectorKind.forVideo(environment: ProcessInfo.processInfo.environment) == .personSSD)
        #expect(
            DetectorKind.forVideo(environment: ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/x"])
                == .hog)
        // Its tracker takes every box it reports into the first stage, and confirms in three.
        let tracker = DetectorKind.personSSD.trackerConfiguration
        #expect(tracker.highConfidence == SSDPersonDetector.defaultScoreThreshold)
        #expect(tracker.confirmationHits == 3)
        #expect(DetectorKind.hog.trackerConfiguration == TrackerConfiguration())
        try tracker.validate()
    }
}
