"""The node under ROS 2 (rclpy), against a real `headroom serve` replaying the thermal ramp: an
rclpy subscriber here records every DiagnosticArray on /diagnostics while the host goes from
fair to serious to critical, the service is killed (everything STALE), and started again.

Needs rclpy and diagnostic_msgs (scripts/ros2-checks.sh installs them and runs this in a
network namespace of its own) and $HEADROOM, the headroom binary. No sleeps stand in for
conditions: every wait polls what was received, with a deadline.
"""

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import pytest
import rclpy
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rclpy.context import Context
from rclpy.executors import SingleThreadedExecutor

from headroom_client import Client, LadderStep

HERE = os.path.dirname(os.path.abspath(__file__))
NODE = os.path.join(os.path.dirname(HERE), "headroom_diagnostics.py")
RAMP = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))),
                    "examples", "traces", "thermal-ramp.jsonl")
# From the 65th sample (77 °C, fair): serious about 5 s later, critical about 23 s later.
RAMP_FROM_LINE = 65
HOST = "headroom: host pressure"
CLIENT = "headroom: client people"
HARDWARE_ID = "ros2-checks"
STALE_AFTER = 3.0
LEVELS = {DiagnosticStatus.OK: "OK", DiagnosticStatus.WARN: "WARN",
          DiagnosticStatus.ERROR: "ERROR", DiagnosticStatus.STALE: "STALE"}


@dataclass
class Received:
    """One DiagnosticArray as received: when (monotonic seconds), its header's stamp (seconds
    and nanoseconds) and its statuses by name."""

    at: float
    stamp: Tuple[int, int]
    statuses: Dict[str, DiagnosticStatus]

    def level(self, name: str) -> Optional[str]:
        status = self.statuses.get(name)
        return None if status is None else LEVELS[status.level]


class Recorder:
    """An rclpy node subscribed to /diagnostics (or `topic`), in a context of its own, spun in
    its own thread."""

    def __init__(self, topic: str = "/diagnostics", name: str = "headroom_diagnostics_test") -> None:
        self.context = Context()
        self.context.init()
        self.node = rclpy.create_node(name, context=self.context)
        self.lock = threading.Lock()
        self.received: List[Received] = []
        self.node.create_subscription(DiagnosticArray, topic, self._take, 50)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.thread = threading.Thread(target=self.executor.spin, daemon=True)
        self.thread.start()

    def _take(self, message: DiagnosticArray) -> None:
        with self.lock:
            self.received.append(Received(
                time.monotonic(), (message.header.stamp.sec, message.header.stamp.nanosec),
                {status.name: status for status in message.status}))

    def since(self, start: int = 0) -> List[Received]:
        with self.lock:
            return list(self.received[start:])

    def wait_for(self, what: str, condition: Callable[[Received], bool], seconds: float,
                 start: int = 0) -> Tuple[int, Received]:
        """The index and array of the first array from `start` on that meets `condition`,
        polled every 50 ms until `seconds` pass; the test fails naming `what` otherwise."""
        deadline = time.monotonic() + seconds
        while True:
            for index, received in enumerate(self.since(start), start):
                if condition(received):
                    return index, received
            if time.monotonic() > deadline:
                seen = [r.level(HOST) for r in self.since(start)]
                pytest.fail(f"no {what} within {seconds:g} s; host levels seen: {seen}")
            threading.Event().wait(0.05)

    def close(self) -> None:
        self.executor.shutdown()
        # The spinning thread out of rcl before the node and context go: a thread still in
        # rcl's wait when the interpreter exits ends it in std::terminate (SIGABRT after every
        # test passed, seen once on a loaded machine).
        self.thread.join(timeout=10)
        self.node.destroy_node()
        self.context.try_shutdown()


class Serve:
    """`headroom serve` replaying `trace` on 127.0.0.1 (the given port, or a free one)."""

    def __init__(self, binary: str, trace: str, port: int = 0) -> None:
        self.process = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{port}", "--trace", trace, "--lease", "600"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line.startswith("serving on 127.0.0.1:"), (line, self.process.stderr.read())
        self.port = int(line.split()[2].split(":")[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@dataclass
class Run:
    """What the scenario recorded: every array, and the indices and times that split it."""

    received: List[Received]
    critical_index: int
    killed_at: float
    killed_index: int
    stale_index: int
    restarted_index: int
    fresh_index: int
    client_id: str
    node_exit: int
    node_log: str


def timeline(run: Run) -> str:
    """The host's and the pipeline's level in each array, seconds from the first."""
    first = run.received[0].at
    lines = []
    for index, received in enumerate(run.received):
        host = received.statuses.get(HOST)
        client = received.statuses.get(CLIENT)
        mark = " <- serve killed before this" if index == run.killed_index else (
            " <- serve started again before this" if index == run.restarted_index else "")
        lines.append(
            f"{received.at - first:6.2f} s  host {received.level(HOST) or '-':5} "
            f"{host.message if host else '':<86.86}  people {received.level(CLIENT) or '-':5} "
            f"{client.message if client else ''}{mark}")
    return "\n".join(lines)


def echo(received: Received) -> str:
    """One array's statuses in `ros2 topic echo /diagnostics`'s layout (no ros2 CLI here)."""
    lines = ["header:", "  stamp:", f"    sec: {received.stamp[0]}",
             f"    nanosec: {received.stamp[1]}", "  frame_id: ''", "status:"]
    for status in received.statuses.values():
        lines += [f"- level: \"\\x{ord(status.level):02x}\"", f"  name: '{status.name}'",
                  f"  message: '{status.message}'", f"  hardware_id: {status.hardware_id}",
                  "  values:"]
        for pair in status.values:
            lines += [f"  - key: {pair.key}", f"    value: '{pair.value}'"]
    return "\n".join(lines + ["---"])


@pytest.fixture(scope="module")
def run() -> Iterator[Run]:
    binary = os.environ.get("HEADROOM")
    if not binary:
        pytest.fail("set HEADROOM to the headroom binary (scripts/ros2-checks.sh does)")
    with tempfile.TemporaryDirectory() as directory:
        trace = os.path.join(directory, "ramp.jsonl")
        with open(RAMP) as source, open(trace, "w") as target:
            target.writelines(source.readlines()[RAMP_FROM_LINE - 1:])
        recorder = Recorder()
        serve = Serve(binary, trace)
        node_log = os.path.join(directory, "node.log")
        with open(node_log, "w") as log:
            node = subprocess.Popen(
                # The hardware id as a ROS parameter, the rest as options.
                [sys.executable, NODE, "--url", serve.url, "--stale-after", str(STALE_AFTER),
                 "--ros-args", "-p", f"hardware_id:={HARDWARE_ID}"],
                stdout=log, stderr=subprocess.STDOUT)
        again: Optional[Serve] = None
        try:
            recorder.wait_for("first array", lambda r: r.level(HOST) is not None, 20)
            # A pipeline, registered once the node runs: its first advice comes as an event.
            pipeline = Client(serve.url)
            pipeline.register("people", priority=5, nominal_frame_rate=10, min_frame_rate=2,
                              share=0.6, ladder=[LadderStep("full", 150), LadderStep("small", 24)])
            assert pipeline.client_id is not None
            critical, _ = recorder.wait_for(
                "host ERROR (critical)",
                lambda r: r.level(HOST) == "ERROR" and r.level(CLIENT) is not None, 60)
            # Two more arrays at critical, then the service dies.
            recorder.wait_for("arrays after critical", lambda r: True, 5, start=critical + 2)
            killed_index = len(recorder.since())
            killed_at = time.monotonic()
            serve.kill()
            stale, _ = recorder.wait_for(
                "host STALE", lambda r: r.level(HOST) == "STALE", STALE_AFTER + 5,
                start=killed_index)
            recorder.wait_for("a second STALE array", lambda r: True, 5, start=stale + 1)
            restarted_index = len(recorder.since())
            again = Serve(binary, trace, port=serve.port)
            fresh, _ = recorder.wait_for(
                "host fresh again", lambda r: r.level(HOST) != "STALE", 10,
                start=restarted_index)
            node.send_signal(signal.SIGINT)
            node_exit = node.wait(timeout=15)
            with open(node_log) as log:
                yield Run(recorder.since(), critical, killed_at, killed_index, stale,
                          restarted_index, fresh, pipeline.client_id, node_exit, log.read())
        finally:
            if node.poll() is None:
                node.kill()
                node.wait()
            serve.kill()
            if again is not None:
                again.kill()
            recorder.close()


def test_print_the_run(run: Run) -> None:
    # The record, for the test's output and docs/ros2.md (seen with pytest -s).
    print("\n" + timeline(run))
    print("\nOne array at critical, as `ros2 topic echo /diagnostics` lays it out:")
    print(echo(run.received[run.critical_index]))
    print("\nThe node's log:\n" + run.node_log)


def test_host_levels_go_ok_warn_error_under_the_ramp(run: Run) -> None:
    levels = [received.level(HOST) for received in run.received[:run.killed_index]]
    assert None not in levels
    fresh = [level for level in levels if level != "STALE"]
    # At most the node's first publication (before its first poll answered) is STALE.
    assert levels.index(fresh[0]) <= 1 and "STALE" not in levels[levels.index(fresh[0]):]
    deduplicated = [level for index, level in enumerate(fresh)
                    if index == 0 or fresh[index - 1] != level]
    assert deduplicated == ["OK", "WARN", "ERROR"]


def test_host_status_levels_agree_with_the_pressure_level_and_message(run: Run) -> None:
    expected = {"fair": "OK", "nominal": "OK", "serious": "WARN", "critical": "ERROR"}
    for received in run.received[:run.killed_index]:
        status = received.statuses[HOST]
        if LEVELS[status.level] == "STALE":
            continue
        values = {pair.key: pair.value for pair in status.values}
        assert expected[values["level"]] == LEVELS[status.level]
        assert status.message.startswith(values["level"])
        assert status.hardware_id == HARDWARE_ID
        if values["level"] != "nominal":
            # The top factor, the simulated CPU, in the message.
            assert "simulated CPU (thermal model)" in status.message


def test_host_key_values_are_present(run: Run) -> None:
    required = {"level", "factor systemTemperature", "factor cpuPressure", "temperature_c",
                "headroom", "headroom_forecast", "forecast_seconds", "sustainable_percent",
                "throttled", "simulated", "clients"}
    for received in run.received[:run.killed_index]:
        status = received.statuses[HOST]
        if LEVELS[status.level] != "STALE":
            values = {pair.key: pair.value for pair in status.values}
            assert required <= set(values), required - set(values)
            assert values["simulated"] == "true"
            assert 70 <= float(values["temperature_c"]) <= 95
    at_critical = {pair.key: pair.value
                   for pair in run.received[run.critical_index].statuses[HOST].values}
    assert float(at_critical["temperature_c"]) >= 90
    assert at_critical["factor systemTemperature"].startswith("critical: ")
    assert at_critical["clients"] == "1"


def test_the_pipeline_has_its_own_status_with_its_advice(run: Run) -> None:
    statuses = [received.statuses[CLIENT] for received in run.received[:run.killed_index]
                if CLIENT in received.statuses]
    assert statuses, "no status for the registered pipeline"
    for status in statuses:
        values = {pair.key: pair.value for pair in status.values}
        assert values["id"] == run.client_id
        assert values["ladder_name"] in {"full", "small"}
        assert {"advised_rate_fps", "ladder_step", "acting_level", "reason"} <= set(values)
        shed = values["acting_level"] in {"serious", "critical"}
        assert LEVELS[status.level] == ("ERROR" if values["paused"] == "true" else
                                        "WARN" if shed else "OK")
    # Its priority once the service listed it (an advice event does not carry it).
    assert {pair.key: pair.value for pair in statuses[-1].values}["priority"] == "5"
    # At critical the pipeline is shed: its status warns.
    assert run.received[run.critical_index].level(CLIENT) == "WARN"


def test_arrays_come_once_a_second(run: Run) -> None:
    times = [received.at for received in run.received[:run.killed_index]]
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    assert len(gaps) >= 10
    assert 0.85 <= statistics.median(gaps) <= 1.15, gaps
    # Over the whole span, one array a second give or take two.
    assert abs(len(gaps) - (times[-1] - times[0])) <= 2, (len(gaps), times[-1] - times[0])
    # Stamped with the node's clock, later each time.
    stamps = [received.stamp for received in run.received]
    assert stamps[0][0] > 0 and all(a < b for a, b in zip(stamps, stamps[1:]))


def test_everything_goes_stale_when_the_service_is_killed(run: Run) -> None:
    stale = run.received[run.stale_index]
    # Not before the limit (the arrays just after the kill still show the last reading) ...
    assert stale.at - run.killed_at >= STALE_AFTER - 1
    # ... and within the limit, a publication period and the poll's back-off.
    assert stale.at - run.killed_at <= STALE_AFTER + 3
    host = stale.statuses[HOST]
    assert host.message.startswith("headroom service gone: no answer from http://127.0.0.1:")
    values = {pair.key: pair.value for pair in host.values}
    assert values["last_level"] == "critical" and "error" in values
    assert stale.level(CLIENT) == "STALE"
    assert stale.statuses[CLIENT].message.startswith("headroom service gone; last: ")
    # Every array after it, until the service is back, is STALE too.
    assert all(received.level(HOST) == "STALE"
               for received in run.received[run.stale_index:run.restarted_index])


def test_the_node_follows_the_service_again_when_it_returns(run: Run) -> None:
    fresh = run.received[run.fresh_index]
    assert fresh.level(HOST) == "OK"  # the ramp's start again: fair
    # The restarted service governs no pipeline: the dead one's pipeline is gone with it.
    assert fresh.level(CLIENT) is None
    assert fresh.at - run.received[run.restarted_index].at <= 8


def test_the_node_stops_cleanly_on_sigint(run: Run) -> None:
    assert run.node_exit == 0, run.node_log
    # Following it, losing it, and following it again.
    assert run.node_log.count("following the headroom service at http://127.0.0.1:") == 2
    assert "the headroom service does not answer" in run.node_log
    assert "Traceback" not in run.node_log


@pytest.mark.parametrize("parameter, named", [
    ("rate:=0", "parameter rate: expected 0.1 to 10, got 0"),
    ("stale_after:=true", "parameter stale_after: expected a number, got 'True'"),
    ("url:=ftp://cam", "parameter url: expected http://HOST:PORT or unix:PATH, got 'ftp://cam'"),
])
def test_a_bad_parameter_exits_2_naming_it(parameter: str, named: str) -> None:
    result = subprocess.run([sys.executable, NODE, "--ros-args", "-p", parameter],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2, result
    assert named in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_over_the_unix_socket_remapped_and_stopped_by_sigterm() -> None:
    binary = os.environ.get("HEADROOM")
    if not binary:
        pytest.fail("set HEADROOM to the headroom binary (scripts/ros2-checks.sh does)")
    with tempfile.TemporaryDirectory() as directory:
        api = os.path.join(directory, "api.sock")
        serve = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--socket", api],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert serve.stdout.readline().startswith("serving on "), serve.stderr.read()
        node = recorder = None
        try:
            recorder = Recorder("/headroom/diagnostics", "headroom_diagnostics_unix_test")
            node = subprocess.Popen(
                [sys.executable, NODE, "--url", "unix:" + api, "--ros-args",
                 "-r", "/diagnostics:=/headroom/diagnostics"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            _, received = recorder.wait_for(
                "a fresh host status on /headroom/diagnostics",
                lambda r: r.level(HOST) not in (None, "STALE"), 20)
            assert received.statuses[HOST].hardware_id == os.uname().nodename
            node.send_signal(signal.SIGTERM)
            assert node.wait(timeout=15) == 0
            assert "Traceback" not in node.stdout.read()
        finally:
            if node is not None and node.poll() is None:
                node.kill()
                node.wait()
            serve.kill()
            serve.wait()
            if recorder is not None:
                recorder.close()
