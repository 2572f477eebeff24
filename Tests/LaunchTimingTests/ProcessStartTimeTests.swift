import LaunchTiming
import Testing
import Units

@Test func theProcessStartedBeforeNowAndAfterTheMachineBooted() throws {
    let start = try ProcessStartTime.read()
    let now = MonotonicClock.now()
    #expect(start <= now)
    #expect(start.nanoseconds > 0)
    // The test process was started by this test run, not days ago.
    #expect(now.seconds(since: start) < 24 * 3600)
}

@Test func theStartFieldIsFoundEvenWhenTheCommandHoldsSpacesAndParentheses() throws {
    let fields = (3...52).map { $0 == 22 ? "987654" : "\($0)" }.joined(separator: " ")
    let line = "4242 (evil) name (x)) " + fields
    #expect(try ProcessStartTime.startTicks(inStatLine: line) == 987_654)
}

@Test func aTruncatedStatLineIsAnErrorNamingTheFile() {
    #expect(throws: ProcessStartTimeError.self) {
        try ProcessStartTime.startTicks(inStatLine: "12 (sh) S 1 2 3", file: "stat")
    }
    #expect(
        throws: ProcessStartTimeError(
            file: "/nonexistent/stat", problem: "No such file or directory")
    ) {
        try ProcessStartTime.read(statPath: "/nonexistent/stat")
    }
}
