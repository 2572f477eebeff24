import Foundation
import LaunchTiming
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real child processes measured through the trace descriptor.
struct TracedLaunchTests {
    /// A launch whose child is not ready within `timeout` failed; by default only a hang is
    /// (a loaded machine may take seconds to start a shell).
    private func launch(
        _ script: String, ready: String = "ready", timeout: Duration = .seconds(300),
        output: ChildOutput = .passThrough
    ) async -> LaunchReport {
        await TracedLaunch.run(
            TracedLaunchRequest(
                command: ["/bin/sh", "-c", script], label: "test", readyName: ready,
                timeout: timeout, output: output,
                environment: ProcessInfo.processInfo.environment))
    }

    @Test("a shell child's phases, with times from its process start; it is stopped at ready")
    func readyEndsTheLaunch() async throws {
        let report = await launch(
            """
            [ "$HEADROOM_TRACE_FD" = 3 ] || exit 9
            printf '{"ph":"B","name":"app.init"}\\n' >&3
            sleep 0.05
            printf '{"ph":"E","name":"app.init"}\\n{"ph":"i","name":"first_frame"}\\n' >&3
            printf '{"ph":"i","name":"ready"}\\n' >&3
            exec sleep 30
            """)
        #expect(report.failure == nil)
        #expect(report.origin == .processStart)
        let appInit = try #require(report.phase(named: "appInit"))
        #expect(appInit.isComplete)
        // Lines without `ts` are stamped when read, so a begin read late shortens its phase
        // by that lag (the 50 ms sleep is not a lower bound here; a `ts` would be exact).
        #expect(appInit.duration > .zero)
        #expect(report.phase(named: "processStart") != nil)
        let ready = try #require(report.time(of: "ready"))
        #expect(ready + .nanoseconds(1) >= appInit.end)
        #expect(report.timeToFirstPreviewFrame! <= ready)
        #expect(report.metadata["readyEvent"] == "ready")
        // `exec sleep 30` was ended at ready: the launch returns only once the child is reaped,
        // and it is not a timeout.
    }

    @Test("a clean exit without ready ends the launch at the exit")
    func cleanExit() async {
        let report = await launch(#"printf '{"ph":"i","name":"first_frame"}\n' >&3"#)
        #expect(report.failure == nil)
        #expect(report.time(of: TracedLaunch.exitMarkName) != nil)
        #expect(report.timeToFirstPreviewFrame != nil)
    }

    @Test("a non-zero exit, a signal and a timeout are failed launches with what they recorded")
    func failures() async {
        let exited = await launch(#"printf '{"ph":"B","name":"app.init"}\n' >&3; exit 3"#)
        #expect(exited.failure == .exited(status: 3))
        #expect(exited.phase(named: "appInit")?.isComplete == false)
        let crashed = await launch("kill -SEGV $$")
        #expect(crashed.failure == .signalled(SIGSEGV))
        let hung = await launch("exec sleep 30", timeout: .milliseconds(300))
        #expect(hung.failure == .timedOut(seconds: 0.3))
        #expect(hung.totalDuration < .seconds(5))
        let missing = await TracedLaunch.run(
            TracedLaunchRequest(command: ["/nonexistent/program"], label: "x", environment: [:]))
        #expect(missing.failure == .notStarted("No such file or directory"))
    }

    @Test("the lines a child writes just before it exits are read")
    func linesBeforeExit() async {
        let report = await launch(
            #"for i in 1 2 3 4 5; do printf '{"ph":"i","name":"m%s"}\n' $i; done >&3; printf '{"ph":"i","name":"tail"}' >&3"#
        )
        #expect(
            report.marks.map(\.name).filter { $0.hasPrefix("m") } == ["m1", "m2", "m3", "m4", "m5"])
        // The last line had no newline; the exit ends it.
        #expect(report.time(of: "tail") != nil)
    }

    @Test("megabytes of output and of trace never block the child or the measurer")
    func bigOutputs() async throws {
        let path = NSTemporaryDirectory() + "traced-\(UUID().uuidString).log"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        defer {
            close(descriptor)
            unlink(path)
        }
        let report = await launch(
            """
            head -c 4000000 /dev/zero | tr '\\0' o
            head -c 3000000 /dev/zero | tr '\\0' e >&2
            yes '{"ph":"i","name":"tick"}' | head -n 50000 >&3
            printf '{"ph":"i","name":"ready"}\\n' >&3
            """, output: .descriptor(descriptor))
        #expect(report.failure == nil)
        #expect(report.time(of: "ready") != nil)
        #expect(report.droppedEvents == 50_000 - TraceAssembler.eventLimit)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == 7_000_000)
    }

    @Test("the child's whole process group is stopped, grandchildren included")
    func processGroup() async throws {
        let pidFile = NSTemporaryDirectory() + "grandchild-\(UUID().uuidString)"
        defer { unlink(pidFile) }
        let report = await launch(
            """
            sleep 60 &
            echo $! > '\(pidFile)'
            printf '{"ph":"i","name":"ready"}\\n' >&3
            wait
            """)
        #expect(report.failure == nil)
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        let grandchild = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        // SIGKILL went to the group; wait (boundedly) until the grandchild has died (gone, or
        // a zombie when nobody reaps orphans here).
        func isRunning() -> Bool {
            let path = "/proc/\(grandchild)/stat"
            guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }
        var alive = true
        for _ in 0..<1000 where alive {
            alive = isRunning()
            if alive { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(!alive)
    }

    @Test("cancelling the measuring task stops the child and reports an interrupted launch")
    func cancellation() async {
        let task = Task { await launch("exec sleep 30") }
        try? await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let report = await task.value
        #expect(report.failure == .interrupted)
        #expect(report.totalDuration < .seconds(10))
    }
}
