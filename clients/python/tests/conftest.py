"""A real `headroom serve` for the client's tests: $HEADROOM (the binary) on a free port and a
Unix socket, stopped after each test."""

import os
import subprocess
import sys
import tempfile
from typing import Iterator, List, Optional

import pytest

try:
    import headroom_client  # noqa: F401 (installed, as scripts/python-client-checks.sh does)
except ImportError:
    # Run from the checkout: the source tree, after anything installed, here and in the
    # Python programs the tests start.
    _source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.append(_source)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [os.environ.get("PYTHONPATH"), _source]))


class Service:
    def __init__(self, binary: str, socket_path: str, extra: List[str]) -> None:
        self.binary = binary
        self.socket_path = socket_path
        self.extra = extra
        self.process: Optional[subprocess.Popen] = None
        self.url = ""

    def start(self, port: int = 0) -> "Service":
        self.process = subprocess.Popen(
            [self.binary, "serve", "--listen", f"127.0.0.1:{port}", "--socket", self.socket_path,
             "--interval", "0.5", *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line.startswith("serving on 127.0.0.1:"), (line, self.process.stderr.read())
        self.port = int(line.split()[2].split(":")[1])
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def headroom_binary() -> str:
    binary = os.environ.get("HEADROOM")
    if not binary:
        pytest.fail("set HEADROOM to the headroom binary (scripts/python-client-checks.sh does)")
    return binary


@pytest.fixture
def service(headroom_binary: str, request) -> Iterator[Service]:
    extra = getattr(request, "param", [])
    with tempfile.TemporaryDirectory() as directory:
        running = Service(headroom_binary, os.path.join(directory, "api.sock"), extra).start()
        try:
            yield running
        finally:
            running.stop()
