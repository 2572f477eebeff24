import LaunchTiming
import Testing
import Units

@Test func phasesAreReportedInOrderWithTheirNesting() throws {
    let timeline = LaunchTimeline()
    timeline.begin(.appInit)
    timeline.begin(.sessionConfiguration)
    timeline.end(.sessionConfiguration)
    timeline.end(.appInit)
    timeline.begin(.sessionStart)
    let photo = LaunchPhase.outputInitialization(named: "photo")
    timeline.measure(photo) {}
    timeline.end(.sessionStart)
    timeline.mark(.firstPreviewFrame)

    let report = timeline.report(label: "unit")
    #expect(report.origin == .timelineStart)
    #expect(
        report.phases.map(\.name) == [
            "appInit", "sessionConfiguration", "sessionStart", "outputInitialization.photo",
        ])
    #expect(report.phases.map(\.depth) == [0, 1, 0, 1])
    #expect(report.phases.map(\.parent) == [nil, "appInit", nil, "sessionStart"])
    #expect(report.phases.allSatisfy { $0.isComplete })
    let configuration = try #require(report.phase(named: "sessionConfiguration"))
    let appInit = try #require(report.phase(named: "appInit"))
    #expect(configuration.start >= appInit.start && configuration.end <= appInit.end)
    let first = try #require(report.timeToFirstPreviewFrame)
    let sessionStart = try #require(report.phase(named: "sessionStart"))
    #expect(first >= sessionStart.end)
}

@Test func anUnfinishedPhaseIsReportedAsIncomplete() {
    let timeline = LaunchTimeline()
    timeline.begin(.deferredStart)
    let report = timeline.report()
    #expect(report.phases.count == 1)
    #expect(report.phases[0].isComplete == false)
}

@Test func anEndWithoutABeginIsIgnored() {
    let timeline = LaunchTimeline()
    timeline.end(.sessionStart)
    #expect(timeline.report().phases.isEmpty)
}

@Test func customPhasesKeepTheirNamesAndIdentity() {
    let first = LaunchPhase(named: "modelLoad")
    #expect(LaunchPhase(named: "modelLoad") == first)
    #expect(first.name == "modelLoad")
    #expect(!first.isStandard)
    #expect(LaunchPhase(named: "sessionStart") == .sessionStart)
    #expect(LaunchPhase.standard.map(\.name).first == "processStart")
    #expect(LaunchPhase.standard.allSatisfy { $0.isStandard })
}

@Test func aKnownProcessStartBecomesTheOriginAndTheFirstPhase() throws {
    let start = try ProcessStartTime.read()
    let timeline = LaunchTimeline(processStart: start)
    timeline.mark(.firstPreviewFrame)
    let report = timeline.report()
    #expect(report.origin == .processStart)
    let processStart = try #require(report.phases.first)
    #expect(processStart.name == "processStart")
    #expect(processStart.start.seconds == 0)
    #expect(processStart.duration.seconds > 0)
    let first = try #require(report.timeToFirstPreviewFrame)
    #expect(first >= processStart.end)
}

@Test func concurrentMarksAreAllKept() async {
    let timeline = LaunchTimeline()
    let phases = (0..<8).map { LaunchPhase(named: "worker\($0)") }
    await withTaskGroup(of: Void.self) { group in
        for phase in phases {
            group.addTask {
                for _ in 0..<100 { timeline.mark(phase) }
            }
        }
    }
    let events = timeline.events()
    #expect(events.count == 800)
    for phase in phases {
        let times = events.filter { $0.phase == phase }.map(\.instant)
        #expect(times.count == 100)
        #expect(times == times.sorted(), "one thread's marks keep their order")
    }
    #expect(timeline.droppedEventCount == 0)
}

@Test func eventsBeyondTheCapacityAreCountedAsDropped() {
    let timeline = LaunchTimeline()
    for _ in 0..<(LaunchTimeline.capacity + 76) { timeline.mark(.firstCaptureReady) }
    #expect(timeline.events().count == LaunchTimeline.capacity)
    #expect(timeline.droppedEventCount == 76)
    #expect(timeline.report().droppedEvents == 76)
}

@Test func marksAtExplicitInstantsBeforeTheOriginCountAsTheOrigin() {
    let timeline = LaunchTimeline()
    timeline.mark(.firstPreviewFrame, at: MonotonicInstant(nanoseconds: 1))
    #expect(timeline.report().marks == [PhaseMark(name: "firstPreviewFrame", time: .seconds(0))])
}
