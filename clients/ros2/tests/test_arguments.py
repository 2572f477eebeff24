"""The node's command line, without ROS: a bad option exits 2 naming it, and without rclpy the
node says how to get it (exit 1) rather than a traceback."""

import os
import subprocess
import sys
from typing import List

import pytest

NODE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "headroom_diagnostics.py")


def run_node(arguments: List[str]) -> subprocess.CompletedProcess:
    # -S and no PYTHONPATH: no site packages, so no rclpy, whatever this Python has; the node
    # finds Headroom's client in the checkout by itself.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-S", NODE, *arguments], capture_output=True,
                          text=True, timeout=30, env=environment)


@pytest.mark.parametrize("arguments, named", [
    (["--rate", "0"], "argument --rate: expected 0.1 to 10, got 0"),
    (["--rate", "fast"], "argument --rate: expected a number, got 'fast'"),
    (["--stale-after", "nan"], "argument --stale-after: expected 1 to 3600, got nan"),
    (["--url", "ftp://cam"], "argument --url: expected http://HOST:PORT or unix:PATH, got 'ftp://cam'"),
    (["--hardware-id", ""], "argument --hardware-id: expected printable text, got ''"),
    (["--colour", "red"], "unrecognized arguments: --colour red"),
])
def test_a_bad_option_exits_2_naming_it(arguments: List[str], named: str) -> None:
    result = run_node(arguments)
    assert result.returncode == 2, result
    assert named in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_without_rclpy_the_node_says_where_to_get_it() -> None:
    result = run_node(["--url", "unix:/run/headroom/api.sock", "--ros-args", "-r", "__ns:=/cam"])
    assert result.returncode == 1, result
    assert "source /opt/ros/DISTRO/setup.bash" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_lists_every_option() -> None:
    result = run_node(["--help"])
    assert result.returncode == 0
    for option in ("--url", "--hardware-id", "--rate", "--stale-after", "--timeout", "--ros-args"):
        assert option in result.stdout
