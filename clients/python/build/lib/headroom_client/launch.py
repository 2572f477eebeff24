"""Launch marks for `headroom launch measure -- CMD`: the trace-descriptor protocol.

Under `launch measure` the variable HEADROOM_TRACE_FD names a pipe; each call writes one JSON
object a line in Chrome trace-event shape with its time on CLOCK_MONOTONIC in microseconds.
Anywhere else the functions do nothing, so a program can leave its marks in::

    from headroom_client import launch

    launch.begin("detector.load"); load(); launch.end("detector.load")
    launch.mark("first_frame")
    launch.mark("ready")  # the launch ends here (or at `--ready NAME`)
"""

import json
import os
import threading
import time
from typing import Any, Dict, Optional

__all__ = ["begin", "end", "mark", "complete", "is_measured"]

_lock = threading.Lock()
_descriptor: Optional[int] = None
_resolved = False


def _trace_descriptor() -> Optional[int]:
    global _descriptor, _resolved
    if not _resolved:
        _resolved = True
        text = os.environ.get("HEADROOM_TRACE_FD", "")
        _descriptor = int(text) if text.isdigit() else None
    return _descriptor


def is_measured() -> bool:
    """Whether the program runs under `headroom launch measure`."""
    return _trace_descriptor() is not None


def _now() -> int:
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def _write(event: Dict[str, Any]) -> None:
    descriptor = _trace_descriptor()
    if descriptor is None:
        return
    line = (json.dumps(event, separators=(",", ":")) + "\n").encode()
    with _lock:
        try:
            os.write(descriptor, line)
        except OSError:
            pass  # the measurer went away: the program goes on.


def begin(name: str, **args: Any) -> None:
    """A phase starts now."""
    _write({"ph": "B", "name": name, "ts": _now(), **({"args": args} if args else {})})


def end(name: str, **args: Any) -> None:
    """The phase begun last under `name` ends now."""
    _write({"ph": "E", "name": name, "ts": _now(), **({"args": args} if args else {})})


def mark(name: str, **args: Any) -> None:
    """An instant: `first_frame`, `ready`, …"""
    _write({"ph": "i", "name": name, "ts": _now(), **({"args": args} if args else {})})


def complete(name: str, start_us: int, duration_us: int, **args: Any) -> None:
    """A phase measured by the program itself: began at `start_us` (CLOCK_MONOTONIC µs),
    lasted `duration_us`."""
    _write({"ph": "X", "name": name, "ts": start_us, "dur": duration_us,
            **({"args": args} if args else {})})
