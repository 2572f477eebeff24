"""Launch marks for `headroom launch measure -- CMD`: the trace-descriptor protocol.

Under `launch measure` the variable HEADROOM_TRACE_FD names a pipe (HEADROOM_TRACE_ID its
identity, checked before every line); each call writes one JSON object a line in Chrome
trace-event shape with its time on CLOCK_MONOTONIC in microseconds, never blocking (a full
pipe drops the line; `dropped()` counts them). A name that is not 1-1024 bytes of text
without control or invisible characters is a ValueError. Anywhere else the functions do
nothing, so a program can leave its marks in::

    from headroom_client import launch

    launch.begin("detector.load"); load(); launch.end("detector.load")
    launch.mark("first_frame")
    launch.mark("ready")  # the launch ends here (or at `--ready NAME`)
"""

import json
import os
import stat
import threading
import time
import unicodedata
from typing import Any, Dict, Optional, Tuple

__all__ = ["begin", "end", "mark", "complete", "is_measured", "dropped"]

_lock = threading.Lock()
_pipe: Optional[Tuple[int, int, int]] = None  # descriptor, device, inode
_resolved = False
_dropped = 0
# A name: 1-1024 bytes of UTF-8 without control or invisible characters (as `measure` wants).
_NAME_LIMIT = 1024
_HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs", "Cn"}


def _is_the_pipe(descriptor: int, device: int, inode: int) -> bool:
    try:
        status = os.fstat(descriptor)
    except OSError:
        return False
    return stat.S_ISFIFO(status.st_mode) and (status.st_dev, status.st_ino) == (device, inode)


def _trace_pipe() -> Optional[Tuple[int, int, int]]:
    """The pipe `measure` gave (HEADROOM_TRACE_FD, its identity in HEADROOM_TRACE_ID), made
    non-blocking; None when the program is not measured."""
    global _pipe, _resolved
    if not _resolved:
        _resolved = True
        text = os.environ.get("HEADROOM_TRACE_FD", "")
        identity = os.environ.get("HEADROOM_TRACE_ID", "").split(":")
        if text.isascii() and text.isdigit() and len(identity) == 2 and all(
            part.isascii() and part.isdigit() for part in identity
        ):
            pipe = (int(text), int(identity[0]), int(identity[1]))
            if _is_the_pipe(*pipe):
                os.set_blocking(pipe[0], False)  # a full pipe drops a line, never blocks
                _pipe = pipe
    return _pipe


def is_measured() -> bool:
    """Whether the program runs under `headroom launch measure`."""
    return _trace_pipe() is not None


def dropped() -> int:
    """How many events were dropped: the pipe was full, its reader gone, or descriptor 3 no
    longer the trace pipe (the program closed it and opened something else there)."""
    return _dropped


def _now() -> int:
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name or len(name.encode("utf-8", "replace")) > _NAME_LIMIT:
        raise ValueError(f"name: expected 1 to {_NAME_LIMIT} bytes of text, got {name!r:.80}")
    for character in name:
        if unicodedata.category(character) in _HIDDEN:
            raise ValueError(
                f"name: expected no control or invisible characters, got U+{ord(character):04X}")


def _write(event: Dict[str, Any]) -> None:
    global _dropped
    _check_name(event["name"])
    pipe = _trace_pipe()
    if pipe is None:
        return
    line = (json.dumps(event, separators=(",", ":")) + "\n").encode()
    with _lock:
        # Only into the pipe `measure` gave: never into a file that took its number since.
        if not _is_the_pipe(*pipe):
            _dropped += 1
            return
        try:
            os.write(pipe[0], line)
        except OSError:
            _dropped += 1  # full, or the measurer went away: the program goes on.


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
