import CSpawn
import Files
import Locking
import Units

#if canImport(Glibc)
    import Glibc
#endif

/// Where a measured program's stdout and stderr go.
public enum ChildOutput: Sendable, Hashable {
    /// Where Headroom's own go.
    case passThrough
    /// Both to Headroom's stderr, so Headroom's stdout stays its own (for `--json`).
    case standardError
    /// Both into this open descriptor (a file opened for appending).
    case descriptor(Int32)
}

/// One launch of someone else's program to measure: what to run and when it is over.
public struct TracedLaunchRequest: Sendable {
    /// The program and its arguments; the program is searched in `PATH` unless it has a `/`.
    public var command: [String]
    /// The label the run is stored under.
    public var label: String
    /// The event that ends the launch (the program's "I am ready").
    public var readyName: String
    /// How long the program has to say ready before it is stopped and the run stored as
    /// failed.
    public var timeout: Duration
    /// Where its output goes.
    public var output: ChildOutput
    /// Its environment, to which ``TracedLaunch/descriptorVariable`` is added.
    public var environment: [String: String]

    /// A request; `environment` is normally the measuring process's own.
    public init(
        command: [String], label: String, readyName: String = "ready",
        timeout: Duration = .seconds(60),
        output: ChildOutput = .passThrough, environment: [String: String]
    ) {
        self.command = command
        self.label = label
        self.readyName = readyName
        self.timeout = timeout
        self.output = output
        self.environment = environment
    }
}

/// Measures the launch of any program through the trace-descriptor protocol, which needs no
/// library: the program is started in a fresh process with a pipe open as descriptor 3 and
/// `HEADROOM_TRACE_FD=3` in its environment, and writes newline-delimited JSON trace events
/// (``TraceEvent``) into it — from bash, `printf '{"ph":"i","name":"ready"}\n' >&3`.
///
/// The launch ends at the event named ``TracedLaunchRequest/readyName`` (the program is then
/// stopped: SIGTERM to its process group, SIGKILL after ``stopGrace``) or when the program
/// exits; a non-zero exit, a signal or no ready within the timeout make a failed report
/// (``LaunchReport/failure``) holding what was recorded until then. Times count from the
/// process's creation: the later of two lower bounds of it, the instant just before
/// `posix_spawn` and the start time in `/proc/PID/stat` (rounded down to a clock tick), so
/// exec and the dynamic loader are counted. The pipe and the exit are watched on a thread of
/// the launch's own (with a pidfd, so the exit is seen at once), never on the cooperative pool;
/// the program's output is not read by Headroom at all, so no size of it can block either side.
public enum TracedLaunch {
    /// The environment variable naming the trace descriptor.
    public static let descriptorVariable = "HEADROOM_TRACE_FD"
    /// The environment variable holding the trace pipe's identity, `DEVICE:INODE` as `fstat`
    /// gives them: a writer checks that the descriptor is still that pipe before each line
    /// (a program may close descriptor 3 and open a file of its own there).
    public static let identityVariable = "HEADROOM_TRACE_ID"
    /// The descriptor number the program finds its trace pipe at.
    public static let descriptorNumber: Int32 = 3
    /// How long a program has to exit after SIGTERM before it is killed, in seconds.
    public static let stopGrace = 2.0
    /// The mark a launch ended by a clean exit (without a ready event) gets.
    public static let exitMarkName = "exit"

    /// Starts the program, measures its launch and stops it; cancelling the calling task
    /// stops the program and reports the launch as interrupted.
    public static func run(_ request: TracedLaunchRequest) async -> LaunchReport {
        var stop: [Int32] = [-1, -1]
        guard headroom_pipe(&stop, 1) == 0 else {
            return notStarted(request, reason: String(cString: strerror(errno)))
        }
        let (stopReader, stopWriter) = (stop[0], stop[1])
        defer {
            close(stopReader)
            close(stopWriter)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<LaunchReport, Never>) in
                DetachedThread.start(name: "headroom-launch") {
                    done.resume(returning: measure(request, stopDescriptor: stopReader))
                }
            }
        } onCancel: {
            var byte: UInt8 = 1
            _ = write(stopWriter, &byte, 1)
        }
    }

    /// The report of a launch that could not even start.
    private static func notStarted(_ request: TracedLaunchRequest, reason: String) -> LaunchReport {
        LaunchReport(
            label: request.label, startedAt: LaunchReport.secondsSince1970(),
            origin: .timelineStart, phases: [], marks: [], metadata: metadata(request),
            failure: .notStarted(reason))
    }

    private static func metadata(_ request: TracedLaunchRequest) -> [String: String] {
        let command = request.command.joined(separator: " ")
        return [
            "command": command.count > 512 ? String(command.prefix(512)) + "…" : command,
            "readyEvent": request.readyName,
            "host": ProcessFacts.hostName ?? "localhost",
        ]
    }

    /// The whole launch, on the calling (dedicated) thread.
    private static func measure(_ request: TracedLaunchRequest, stopDescriptor: Int32)
        -> LaunchReport
    {
        var trace: [Int32] = [-1, -1]
        guard !request.command.isEmpty, headroom_pipe(&trace, 0) == 0 else {
            return notStarted(request, reason: "no command, or no pipe: \(errnoText())")
        }
        var environment = request.environment
        environment[descriptorVariable] = String(descriptorNumber)
        var pipeStatus = stat()
        if fstat(trace[1], &pipeStatus) == 0 {
            environment[identityVariable] = "\(pipeStatus.st_dev):\(pipeStatus.st_ino)"
        }
        let startedAt = LaunchReport.secondsSince1970()
        let spawnedAt = MonotonicClock.now()
        var pid: pid_t = 0
        let spawnError = withCStrings(request.command) { arguments in
            withCStrings(environment.map { "\($0.key)=\($0.value)" }.sorted()) { variables in
                let (output, toStandardError): (Int32, Int32) =
                    switch request.output {
                    case .passThrough: (-1, 0)
                    case .standardError: (-1, 1)
                    case .descriptor(let descriptor): (descriptor, 0)
                    }
                return headroom_spawn(
                    &pid, arguments[0], arguments, variables, trace[1], output, toStandardError)
            }
        }
        close(trace[1])
        guard spawnError == 0 else {
            close(trace[0])
            return notStarted(request, reason: String(cString: strerror(spawnError)))
        }
        let child = WatchedChild(pid: pid)
        defer { child.close() }
        let kernelStart = try? ProcessStartTime.read(statPath: "/proc/\(pid)/stat")
        let origin = max(kernelStart ?? spawnedAt, spawnedAt)

        var recorder = TraceRecorder(
            assembler: TraceAssembler(
                originMicroseconds: Double(origin.nanoseconds) / 1000,
                readyName: request.readyName))
        let deadline = spawnedAt.advanced(by: request.timeout).nanoseconds
        var traceDescriptor: Int32? = trace[0]
        defer { if let traceDescriptor { close(traceDescriptor) } }
        var failure: LaunchFailure?
        var end = MonotonicClock.now()
        loop: while true {
            let now = MonotonicClock.now()
            guard now.nanoseconds < deadline else {
                failure = .timedOut(seconds: request.timeout.seconds)
                end = now
                break
            }
            let remaining = Int32(min((deadline - now.nanoseconds) / 1_000_000 + 1, 1000))
            var watched = [
                pollfd(fd: traceDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(
                &watched, 3, child.exitDescriptor >= 0 ? remaining : min(remaining, 10))
            if ready < 0 && errno != EINTR {
                // The measurement itself failed (not the program): like an interruption, the
                // run is not a launch to store.
                failure = .interrupted
                end = MonotonicClock.now()
                break
            }
            if watched[2].revents != 0 {
                failure = .interrupted
                end = MonotonicClock.now()
                break
            }
            if let descriptor = traceDescriptor, watched[0].revents != 0 {
                switch recorder.read(from: descriptor) {
                case .ready:
                    end = MonotonicClock.now()
                    break loop
                case .closed:
                    // Every writer has closed it: an unterminated last line is whole now.
                    recorder.finish()
                    close(descriptor)
                    traceDescriptor = nil
                case .more, .empty: break
                }
            }
            if let status = child.exitStatus(wait: false) {
                end = MonotonicClock.now()
                if let descriptor = traceDescriptor {
                    // What the program wrote before it exited is still in the pipe.
                    _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
                    while case .more = recorder.read(from: descriptor) {}
                }
                recorder.finish()
                failure = failureOfExit(status)
                if !recorder.assembler.isReady {
                    // A program that exits cleanly without saying ready launched until then;
                    // one that fails failed then.
                    recorder.assembler.add(
                        TraceEvent(phase: .instant, name: exitMarkName),
                        receivedAt: Double(end.nanoseconds) / 1000)
                }
                break
            }
        }
        child.stop(grace: stopGrace)
        return recorder.assembler.report(
            label: request.label, startedAt: startedAt - spawnedAt.seconds(since: origin),
            origin: .processStart, endMicroseconds: Double(end.nanoseconds) / 1000,
            addsProcessStart: true, failure: recorder.assembler.isReady ? nil : failure,
            metadata: metadata(request))
    }

    /// `nil` for a clean exit, else why it failed.
    private static func failureOfExit(_ status: Int32) -> LaunchFailure? {
        if headroom_signalled(status) != 0 {
            return .signalled(headroom_terminating_signal(status))
        }
        let code = headroom_exit_status(status)
        return code == 0 ? nil : .exited(status: code)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

}
