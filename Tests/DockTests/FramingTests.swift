import Dock
import Testing
import Tracking

@Suite struct FramingTests {
    private func subject(
        _ id: Int, x: Double, width: Double = 0.1, velocityX: Double = 0, age: Int = 10
    ) -> TrackedObject {
        TrackedObject(
            id: TrackID(id), box: BoundingBox(minX: x, minY: 0.3, width: width, height: 0.4),
            velocityX: velocityX, age: age)
    }

    @Test(arguments: [
        (FramingMode.left, 1.0 / 3), (.center, 0.5), (.right, 2.0 / 3),
    ])
    func modesPlaceTheSubjectOnTheirThird(mode: FramingMode, expectedX: Double) throws {
        let framing = try #require(Framer(mode: mode).frame([subject(1, x: 0.45)]))
        #expect(abs(framing.target.x - expectedX) < 1e-12)
        #expect(abs(framing.target.y - 0.5) < 1e-12)
        #expect(abs(framing.errorX - (0.5 - expectedX)) < 1e-12)
    }

    @Test func regionOfInterestMovesTheTarget() throws {
        let region = try RegionOfInterest(BoundingBox(minX: 0.5, minY: 0, width: 0.5, height: 0.5))
        let framing = try #require(
            Framer(mode: .center, region: region).frame([subject(1, x: 0.2)]))
        #expect(abs(framing.target.x - 0.75) < 1e-12)
        #expect(abs(framing.target.y - 0.25) < 1e-12)
        let right = try #require(Framer(mode: .right, region: region).frame([subject(1, x: 0.2)]))
        #expect(abs(right.target.x - (0.5 + 0.5 * 2 / 3)) < 1e-12)
    }

    @Test(arguments: [
        BoundingBox(minX: -0.1, minY: 0, width: 0.5, height: 0.5),
        BoundingBox(minX: 0.6, minY: 0, width: 0.5, height: 0.5),
        BoundingBox(minX: 0, minY: 0, width: 0, height: 0.5),
        BoundingBox(minX: .nan, minY: 0, width: 0.2, height: 0.5),
    ])
    func invalidRegionsAreRejected(box: BoundingBox) {
        #expect(throws: RegionOfInterestError.self) { try RegionOfInterest(box) }
    }

    @Test func automaticLeadsAMovingSubject() throws {
        let framer = Framer(mode: .automatic)
        let walkingRight = try #require(framer.frame([subject(1, x: 0.4, velocityX: 0.01)]))
        #expect(abs(walkingRight.target.x - 1.0 / 3) < 1e-12)
        let walkingLeft = try #require(framer.frame([subject(1, x: 0.4, velocityX: -0.01)]))
        #expect(abs(walkingLeft.target.x - 2.0 / 3) < 1e-12)
        let standing = try #require(framer.frame([subject(1, x: 0.4)]))
        #expect(abs(standing.target.x - 0.5) < 1e-12)
    }

    @Test func primarySubjectIsKeptWhenSomeoneElseIsNearerTheCentre() {
        var selector = SubjectSelector(patience: 3)
        let first = selector.select(from: [subject(1, x: 0.1, width: 0.2), subject(2, x: 0.7)])
        #expect(first.first?.id == TrackID(1))
        // Person 2 walks to the centre and grows; the primary subject stays.
        for step in 0..<10 {
            let frame = selector.select(from: [
                subject(1, x: 0.1, width: 0.2),
                subject(2, x: 0.45 - Double(step) * 0.001, width: 0.3),
            ])
            #expect(frame.first?.id == TrackID(1))
        }
        // Person 1 leaves; after the patience runs out, person 2 becomes primary.
        for _ in 0..<3 { #expect(selector.select(from: [subject(2, x: 0.45)]).isEmpty) }
        #expect(selector.select(from: [subject(2, x: 0.45)]).first?.id == TrackID(2))
    }

    @Test func interactingSubjectsAreFramedTogether() throws {
        var selector = SubjectSelector()
        let group = selector.select(from: [
            subject(1, x: 0.3), subject(2, x: 0.42), subject(3, x: 0.9),
        ])
        #expect(group.map(\.id) == [TrackID(1), TrackID(2)])
        let framing = try #require(Framer(mode: .center).frame(group))
        #expect(abs(framing.framedBox.minX - 0.3) < 1e-12)
        #expect(abs(framing.framedBox.maxX - 0.52) < 1e-12)
    }

    @Test func controllerTurnsTowardTheSubject() throws {
        let controller = PanTiltController()
        let framing = try #require(Framer(mode: .center).frame([subject(1, x: 0.7)]))
        let command = controller.command(for: framing, pose: CameraPose())
        #expect(command.yaw > 0)
        #expect(controller.command(for: nil, pose: CameraPose()) == (0, 0))
    }
}
