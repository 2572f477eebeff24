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
