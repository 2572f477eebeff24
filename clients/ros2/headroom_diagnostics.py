#!/usr/bin/env python3
"""headroom_diagnostics: a ROS 2 node that publishes the host's pressure and every governed
pipeline's advice from Headroom's host service (``headroom serve``) on ``/diagnostics`` as
``diagnostic_msgs/DiagnosticArray``, once a second.

One thread follows ``/v1/events`` (reconnecting, resuming with ``Last-Event-ID``), another
polls ``/v1/pressure`` and ``/v1/clients`` at the publishing rate (the values between two
changes of level, the pipelines that left, and whether the service still answers); the node's
timer publishes what they last saw. The statuses are made by ``diagnostics_mapping`` (no ROS
there); this file is the only one that needs ``rclpy``. docs/ros2.md says how to run it.

    source /opt/ros/humble/setup.bash
    python3 clients/ros2/headroom_diagnostics.py [--url URL] [--hardware-id ID] [--rate HZ]
        [--stale-after S] [--timeout S] [--ros-args [-p NAME:=VALUE] ...]

Each option is also a ROS parameter (``url``, ``hardware_id``, ``rate``, ``stale_after``,
``timeout``), which wins over the option, so a launch file can set them.
"""

from __future__ import annotations

import argparse
import math
import os
import socket
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Tuple

NODE_NAME = "headroom_diagnostics"
TOPIC = "/diagnostics"
DEFAULT_URL = "http://127.0.0.1:9464"

# Run from a checkout without installing the client: clients/python beside this folder.
_HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import headroom_client  # noqa: F401
except ImportError:
    _checkout = os.path.join(os.path.dirname(_HERE), "python")
    if os.path.isdir(os.path.join(_checkout, "headroom_client")):
        sys.path.append(_checkout)

try:
    from headroom_client import BackingOff, Client
    from diagnostics_mapping import DiagnosticsState, Level, Status
except ImportError as error:  # pragma: no cover - said plainly instead
    sys.exit(f"{NODE_NAME}: {error}: install Headroom's Python client (pip install "
             "clients/python, or the Debian package), or put clients/python on PYTHONPATH")


def _number(low: float, high: float) -> Callable[[str], float]:
    """A parser of a number from `low` to `high`."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(f"expected {low:g} to {high:g}, got {text}")
        return value
    return parse


def _url(text: str) -> str:
    try:
        Client(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("url: ")) from None
    return text


def _hardware_id(text: str) -> str:
    if not text or not text.isprintable():
        raise argparse.ArgumentTypeError(f"expected printable text, got {text!r}")
    return text


@dataclass(frozen=True)
class Option:
    """One setting of the node, declared once: a command-line option ``--NAME`` (``_`` as
    ``-``) and a ROS parameter ``NAME`` (which wins when both are given), parsed from text by
    ``parse`` (argparse.ArgumentTypeError for a bad value)."""

    name: str
    metavar: str
    parse: Callable[[str], Any]
    default: Callable[[], Any]
    help: str

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


OPTIONS = (
    Option("url", "URL", _url, lambda: DEFAULT_URL,
           f"the service: http://HOST:PORT or unix:PATH (default {DEFAULT_URL})"),
    Option("hardware_id", "ID", _hardware_id, socket.gethostname,
           "each status's hardware_id (default the host name)"),
    Option("rate", "HZ", _number(0.1, 10), lambda: 1.0,
           "publications a second (0.1 to 10, default 1)"),
    Option("stale_after", "S", _number(1, 3600), lambda: 3.0,
           "seconds without an answer from the service before every status is STALE "
           "(1 to 3600, default 3)"),
    Option("timeout", "S", _number(0.1, 60), lambda: 2.0,
           "seconds a request to the service may take (0.1 to 60, default 2)"),
)


def parse_arguments(argv: Sequence[str]) -> Tuple[argparse.Namespace, List[str]]:
    """The node's options, and the arguments for rclpy (``--ros-args`` and what follows it).
    A bad option exits with status 2, naming it."""
    ours, ros = list(argv), []
    if "--ros-args" in ours:
        index = ours.index("--ros-args")
        ours, ros = ours[:index], ours[index:]
    parser = argparse.ArgumentParser(
        prog=NODE_NAME,
        description="Publishes Headroom's host pressure and each governed pipeline's advice "
                    f"on {TOPIC} (diagnostic_msgs/DiagnosticArray). Each option is also a "
                    "ROS parameter (--ros-args -p rate:=2), which wins; the other arguments "
                    "after --ros-args go to ROS (remapping, namespace, logging).")
    for option in OPTIONS:
        parser.add_argument(option.flag, dest=option.name, metavar=option.metavar,
                            type=option.parse, default=option.default(), help=option.help)
    return parser.parse_args(ours), ros


class SettingError(Exception):
    """A ROS parameter's value the node cannot use; the message names the parameter."""


def settings(node: Any, arguments: argparse.Namespace) -> argparse.Namespace:
    """The settings: each option declared as a ROS parameter of `node` (any type, its default
    the command line's value) and checked as the command line's are. Raises SettingError."""
    from rcl_interfaces.msg import ParameterDescriptor

    result = argparse.Namespace()
    for option in OPTIONS:
        default = getattr(arguments, option.name)
        node.declare_parameter(option.name, default, ParameterDescriptor(
            description=option.help, dynamic_typing=True))
        value = node.get_parameter(option.name).value
        try:
            setattr(result, option.name, option.parse(str(value)))
        except argparse.ArgumentTypeError as error:
            raise SettingError(f"parameter {option.name}: {error}") from None
    return result


class ServiceFollower:
    """The two threads that keep `state` up to date from the service at `url`: one follows
    ``/v1/events``, one polls ``/v1/pressure`` and ``/v1/clients`` every `period` seconds
    (the first at once). Both are daemon threads: the events thread may be waiting on the
    stream when the node stops, and is left to end with the process."""

    def __init__(self, url: str, state: DiagnosticsState, period: float, timeout: float,
                 log: Callable[[str], None]) -> None:
        self.url = url
        self.state = state
        self.period = period
        self.timeout = timeout
        self.log = log
        self.stopping = threading.Event()

    def start(self) -> None:
        """Starts both threads."""
        for target, name in ((self._follow_events, "headroom-events"),
                             (self._poll, "headroom-poll")):
            threading.Thread(target=target, name=name, daemon=True).start()

    def stop(self) -> None:
        """Ends the polling thread at once and the events thread at its next event."""
        self.stopping.set()

    def _follow_events(self) -> None:
        client = Client(self.url, timeout=self.timeout, max_backoff=2.0)
        for event in client.events():
            if self.stopping.is_set():
                return
            try:
                if event.name == "pressure":
                    self.state.pressure_event(event.data)
                elif event.name == "advice":
                    self.state.advice_event(event.data)
            except Exception as error:  # noqa: BLE001 - one bad event must not end the thread
                self.log(f"skipped an {event.name} event: {error}")

    def _poll(self) -> None:
        # Backing off at most 2 s: a service that comes back is seen within a few seconds.
        client = Client(self.url, timeout=min(self.timeout, self.period * 2), max_backoff=2.0)
        was_answering: Optional[bool] = None
        while True:
            try:
                reading, clients = client.pressure(), client.clients()
            except Exception as error:  # noqa: BLE001 - the thread must outlive any failure
                # While the client backs off, its error repeats the cause: the cause, as
                # first seen, is what the STALE message tells.
                if was_answering is not False or not isinstance(error, BackingOff):
                    self.state.failed(str(error))
                if was_answering is not False:
                    self.log(f"the headroom service does not answer: {error}")
                was_answering = False
            else:
                self.state.polled(reading, clients)
                if was_answering is not True:
                    self.log(f"following the headroom service at {self.url}")
                was_answering = True
            if self.stopping.wait(self.period):
                return


def to_message(statuses: Sequence[Status], stamp: Any) -> Any:
    """The DiagnosticArray of `statuses`, stamped `stamp` (a builtin_interfaces/Time)."""
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

    levels = {Level.OK: DiagnosticStatus.OK, Level.WARN: DiagnosticStatus.WARN,
              Level.ERROR: DiagnosticStatus.ERROR, Level.STALE: DiagnosticStatus.STALE}
    message = DiagnosticArray()
    message.header.stamp = stamp
    message.status = [
        DiagnosticStatus(level=levels[status.level], name=status.name, message=status.message,
                         hardware_id=status.hardware_id,
                         values=[KeyValue(key=key, value=value) for key, value in status.values])
        for status in statuses
    ]
    return message


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the node until SIGINT or SIGTERM; the exit status (2 for a bad option or
    parameter, 1 without rclpy)."""
    arguments, ros_arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray
        from rclpy.executors import ExternalShutdownException
    except ImportError as error:
        print(f"{NODE_NAME}: {error}: run it with ROS 2's Python (source "
              "/opt/ros/DISTRO/setup.bash first), see docs/ros2.md", file=sys.stderr)
        return 1

    rclpy.init(args=[NODE_NAME, *ros_arguments])
    node = rclpy.create_node(NODE_NAME)
    logger = node.get_logger()
    try:
        arguments = settings(node, arguments)
    except SettingError as error:
        print(f"{NODE_NAME}: {error}", file=sys.stderr)
        node.destroy_node()
        rclpy.try_shutdown()
        return 2
    period = 1 / arguments.rate
    state = DiagnosticsState(arguments.url, arguments.hardware_id, arguments.stale_after)
    follower = ServiceFollower(arguments.url, state, period, arguments.timeout, logger.info)
    publisher = node.create_publisher(DiagnosticArray, TOPIC, 10)

    def publish() -> None:
        publisher.publish(to_message(state.statuses(), node.get_clock().now().to_msg()))

    follower.start()
    node.create_timer(period, publish)
    logger.info(f"publishing {TOPIC} every {period:g} s from {arguments.url} "
                f"as hardware_id {arguments.hardware_id!r}")
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        follower.stop()
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
