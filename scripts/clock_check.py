"""Checks that no module reads a clock it was not given.

Time in Headroom comes from one injected clock (`RunClock`, in Units; `ThreadWaitingClock` is
its refinement for the observer's thread). A direct read of a system clock is allowed only in
the places below, each for its reason; a read anywhere else fails this check, naming the file
and line. Comments are not reads. Usage: python3 scripts/clock_check.py [--self-test]
"""

import re
import sys
from pathlib import Path

from allowed_places import report

REPO = Path(__file__).resolve().parent.parent
READ = re.compile(
    r"MonotonicClock\.now\(\)|ContinuousClock\(\)|SuspendingClock\(\)|\bDate\(\)"
    r"|clock_gettime|DispatchTime\.now|monotonicNanoseconds\(\)|ContinuousRunClock\(\)")
# A clock as a parameter's default counts as a read: a library that defaults its clock reads
# real time for every caller who forgets to give one (the caller chooses).
DEFAULT = re.compile(r"(clock|Clock): any \w*Clock = ")

# file (under Sources/) → why it may read a clock itself.
ALLOWED = {
    "Units/MonotonicClock.swift": "the monotonic clock itself",
    "Units/RunClock.swift": "the real run clock, and the virtual clock's start",
    "Pressure/ThreadWaitingClock.swift": "the real clock's thread wait",
    "Pressure/WaitSet.swift": "the kernel wait under the real clock's thread wait",
    "Pressure/LoadSource.swift": "CPU time used by this process (a CPU clock, not time)",
    "Pipeline/CPUTime.swift": "thread and process CPU clocks for calibration",
    "Pipeline/RunTiming.swift": "makes a run's clock, real or virtual, as --clock says",
    "Pipeline/HostCalibration.swift": "calibration measures real work on this host",
    "LaunchTiming/LaunchTimeline.swift": "launch phases are real time by definition",
    "LaunchTiming/ProcessStartTime.swift": "the process's start, from the boot clock",
    "LaunchTiming/LaunchReport.swift": "the wall-clock date a launch report carries",
    "LaunchTiming/TracedLaunch.swift": "a child's launch, measured in real time",
    "LaunchTiming/WatchedChild.swift": "a child's launch, measured in real time",
    "LaunchTiming/TraceRecorder.swift": "a child's launch, measured in real time",
    "HeadroomC/TraceDescriptor.swift": "libheadroom's launch marks, real time by definition",
    "HeadroomC/Observer.swift": "libheadroom's observer samples on real time (C has no clock to give)",
    "Pipeline/MovieRecorder.swift": "the disk's time is real time, whatever the run's clock",
    "Telemetry/HTTPEventLoop.swift": "a connection's silence (the idle timeout) is real time",
    "Units/MonotonicTimers.swift": "the real clock's sleeps, woken by a thread of its own",
    "Lifecycle/TaskThreads.swift": "Task.sleep's delays and deadlines, real time by definition",
}
# Directories whose every file may: the command line is where clocks are chosen and given.
ALLOWED_DIRECTORIES = {
    "headroom/": "the command line chooses the clocks it gives",
    "Daemon/": "serve's command line (which headroomd runs alone) chooses the clocks it gives",
}


def reads(root):
    """(file, line number, text) of every direct clock read under `root`/Sources."""
    found = []
    for path in sorted((root / "Sources").rglob("*.swift")):
        relative = path.relative_to(root / "Sources").as_posix()
        if relative.startswith("headroom-bench/"):
            continue  # benchmarks measure real time: that is their job
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if READ.search(code) or DEFAULT.search(code):
                found.append((relative, number, line.strip()))
    return found


def problems(found):
    return [f"Sources/{file}:{number}: reads a clock it was not given (or defaults one): {text}"
            for file, number, text in found
            if file not in ALLOWED and not any(map(file.startswith, ALLOWED_DIRECTORIES))]


def main():
    if sys.argv[1:] == ["--self-test"]:
        planted = [("Pressure/CPUFrequencySource.swift", 40, "let now = MonotonicClock.now()")]
        assert problems(planted), "a planted read was not reported"
        assert READ.search("clock_gettime(CLOCK_MONOTONIC, &spec)")
        assert not problems([("Units/RunClock.swift", 1, "MonotonicClock.now()")])
        assert problems([("Capture/CaptureSession.swift", 56,
                          "clock: any RunClock = ContinuousRunClock()")]), "a default clock"
        assert DEFAULT.search("interval: Duration, clock: any RunClock = VirtualRunClock(),")
        assert READ.search("private let clock = ContinuousRunClock()")
        print("clock-check self-test: passed (a planted read and a defaulted clock are reported)")
        return
    found = reads(REPO)
    report(problems(found), found, ALLOWED, "read a clock")
    print(f"clock-check: {len(found)} direct clock reads, all in the places allowed "
          f"({len(ALLOWED)} files and the command line)")


if __name__ == "__main__":
    main()
