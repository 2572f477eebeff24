"""headroom_client.launch speaks the trace-descriptor protocol: a Python program measured by
the real `headroom launch measure -- python3 …`, its phases in the history."""

import json
import os
import subprocess
import sys
import tempfile

from headroom_client import launch

PROGRAM = """
import threading, time
from headroom_client import launch
launch.begin("app.init")
time.sleep(0.02)
launch.end("app.init")
start = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
time.sleep(0.01)
launch.complete("model.load", start, time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000 - start)
worker = threading.Thread(target=lambda: launch.mark("worker.up"))
worker.start(); worker.join()
launch.mark("first_frame", camera="0")
launch.mark("ready")
time.sleep(60)
"""


def test_outside_measure_nothing_is_written():
    assert not launch.is_measured()
    launch.begin("x")
    launch.end("x")
    launch.mark("y")


def test_a_measured_python_program_has_its_phases_in_the_history(headroom_binary):
    with tempfile.TemporaryDirectory() as directory:
        script = os.path.join(directory, "app.py")
        with open(script, "w") as file:
            file.write(PROGRAM)
        database = os.path.join(directory, "history.sqlite3")
        measured = subprocess.run(
            [headroom_binary, "launch", "measure", "--runs", "3", "--db", database, "--json",
             "--", sys.executable, script],
            capture_output=True, text=True, timeout=120)
        assert measured.returncode == 0, measured.stderr
        document = json.loads(measured.stdout)
        assert document["label"] == "app.py"
        assert document["failed"] == 0 and len(document["runs"]) == 3
        # Stopped at ready, long before the program's own 60 s.
        assert all(run["launchSeconds"] < 30 for run in document["runs"])
        history = subprocess.run(
            [headroom_binary, "launch", "history", "--db", database, "--json"],
            capture_output=True, text=True, check=True)
        metrics = {metric["metric"]["name"]: metric for metric in json.loads(history.stdout)["metrics"]}
        for name in ["processStart", "appInit", "model.load", "worker.up", "firstPreviewFrame", "ready"]:
            assert name in metrics, sorted(metrics)
        assert metrics["appInit"]["p50"] >= 0.02
        assert metrics["model.load"]["p50"] >= 0.01


ATTACKED = r"""
import os, sys, json
from headroom_client import launch
mode = sys.argv[1]
reader, writer = os.pipe()
reader = os.dup2(reader, 20) or 20
os.dup2(writer, 3)
os.close(writer)
status = os.fstat(3)
os.environ["HEADROOM_TRACE_FD"] = "3"
os.environ["HEADROOM_TRACE_ID"] = f"{status.st_dev}:{status.st_ino}"
if mode == "full":
    for _ in range(20000):
        launch.mark("flood")
    print(json.dumps({"dropped": launch.dropped()}))
elif mode == "reused":
    launch.mark("before")
    os.close(3)
    path = sys.argv[2]
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    assert descriptor == 3, descriptor
    launch.mark("after")
    print(json.dumps({"dropped": launch.dropped(), "size": os.fstat(3).st_size}))
elif mode == "names":
    refused = 0
    for name in ["a\x00b", "\x1b[2J", "right\u202eleft", "x" * 1025, ""]:
        try:
            launch.mark(name)
        except ValueError:
            refused += 1
    launch.mark("fine \"name\"")
    line = os.read(reader, 4096).decode()
    print(json.dumps({"refused": refused, "line": line}))
"""


def _attacked(mode: str, *arguments: str) -> dict:
    finished = subprocess.run(
        [sys.executable, "-c", ATTACKED, mode, *arguments], capture_output=True, text=True,
        timeout=30, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert finished.returncode == 0, finished.stderr
    return json.loads(finished.stdout)


def test_a_full_pipe_drops_marks_and_never_blocks():
    assert _attacked("full")["dropped"] > 0


def test_a_reused_descriptor_gets_no_mark():
    with tempfile.TemporaryDirectory() as directory:
        result = _attacked("reused", os.path.join(directory, "data.bin"))
    assert result == {"dropped": 1, "size": 0}


def test_names_that_are_not_names_are_refused():
    result = _attacked("names")
    assert result["refused"] == 5
    assert result["line"].count("\n") == 1 and '"name":"fine \\"name\\""' in result["line"]
