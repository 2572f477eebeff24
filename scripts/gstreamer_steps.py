"""The buffers headroomrate passed at each advice step, from `gst-launch-1.0 -m` output.

headroomrate posts a `headroom-advice` element message at every change of advice and a
`headroom-eos` one at end-of-stream, each with its counters (`in`, `out`, `drop`) and the
latest buffer's timestamp (`pts`). A step runs from one message to the next: it passed
`out` − `out` buffers in `pts` − `pts` of stream time, which must be the advised rate within
one buffer a second (plus the one buffer at the step's edge), none while paused, and every
buffer while the service was absent (fallback: nominal advice).

Usage: python3 scripts/gstreamer_steps.py LOG [--expect shed,pause,eos | fallback,return]
Prints the table; exits 1 when a step is off or an expected kind of step is missing.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import List, Optional

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)

_MARK = " (element): "


@dataclass(frozen=True)
class Message:
    """One headroom-advice or headroom-eos message."""

    name: str
    passed_in: int
    passed_out: int
    pts: int
    frame_rate: Optional[float] = None
    level: str = ""
    ladder_name: str = ""
    fallback: bool = False


@dataclass(frozen=True)
class Step:
    """The stretch of stream time between two messages, under the first one's advice."""

    advice: Message
    seconds: float
    received: int
    passed: int

    @property
    def expected(self) -> float:
        assert self.advice.frame_rate is not None
        return self.advice.frame_rate * self.seconds

    @property
    def problem(self) -> Optional[str]:
        """What is wrong with this step, or None."""
        if self.advice.fallback:
            if self.passed != self.received:
                return f"service absent: passed {self.passed} of {self.received}, expected all"
            return None
        if self.advice.frame_rate == 0:
            return None if self.passed == 0 else f"paused, yet {self.passed} passed"
        if self.received == 0:
            return None
        if abs(self.passed - self.expected) > self.seconds + 1:
            return (f"passed {self.passed}, expected {self.expected:.1f} ± "
                    f"{self.seconds + 1:.1f} (a buffer a second, and one at the edge)")
        return None


def messages(lines: List[str]) -> List[Message]:
    """The headroom-advice and headroom-eos messages in gst-launch -m output, in order."""
    found = []
    for line in lines:
        if _MARK not in line or "headroom-" not in line:
            continue
        text = line.split(_MARK, 1)[1].strip()
        structure = Gst.Structure.from_string(text)[0]
        if structure is None or structure.get_name() not in ("headroom-advice", "headroom-eos"):
            continue
        values = {key: structure.get_value(key) for key in
                  ("in", "out", "pts", "frame-rate", "level", "ladder-name", "fallback")
                  if structure.has_field(key)}
        found.append(Message(structure.get_name(), values["in"], values["out"], values["pts"],
                             values.get("frame-rate"), values.get("level", ""),
                             values.get("ladder-name", ""), bool(values.get("fallback", False))))
    return found


def steps(found: List[Message]) -> List[Step]:
    """A step per advice message that a later message closes (the first buffer's arrival
    opens the first one)."""
    result = []
    for start, end in zip(found, found[1:]):
        if start.name != "headroom-advice" or start.pts == Gst.CLOCK_TIME_NONE:
            continue
        result.append(Step(start, (end.pts - start.pts) / Gst.SECOND,
                           end.passed_in - start.passed_in, end.passed_out - start.passed_out))
    return result


def table(found: List[Step]) -> str:
    lines = ["step  from s  seconds  level     advised fps  step name  received  passed  "
             "passed fps  verdict"]
    origin = found[0].advice.pts if found else 0
    for index, step in enumerate(found, 1):
        advice = step.advice
        advised = "absent→all" if advice.fallback else f"{advice.frame_rate:g}"
        rate = step.passed / step.seconds if step.seconds > 0 else 0.0
        lines.append(
            f"{index:>4}  {(advice.pts - origin) / Gst.SECOND:>6.2f}  {step.seconds:>7.2f}  "
            f"{advice.level:<8}  {advised:>11}  {advice.ladder_name:<9}  {step.received:>8}  "
            f"{step.passed:>6}  {rate:>10.2f}  {step.problem or 'ok'}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--expect", default="",
                        help="kinds of step that must occur: shed (0 < advised < nominal), "
                             "pause, eos (the stream ended while paused), fallback (service "
                             "absent), return (advice again after a fallback)")
    arguments = parser.parse_args()
    with open(arguments.log, encoding="utf-8", errors="replace") as file:
        found = messages(file.readlines())
    judged = steps(found)
    print(table(judged))
    failures = [f"step {index}: {step.problem}" for index, step in enumerate(judged, 1)
                if step.problem]
    nominal = found[0].frame_rate if found else None
    served = [step for step in judged if not step.advice.fallback]
    expected = {kind for kind in arguments.expect.split(",") if kind}
    checks = {
        "shed": any(nominal and 0 < (s.advice.frame_rate or 0) < nominal and s.seconds >= 1
                    for s in served),
        "pause": any(s.advice.frame_rate == 0 and s.seconds >= 1 for s in served),
        "eos": bool(found) and found[-1].name == "headroom-eos" and bool(judged)
        and judged[-1].advice.frame_rate == 0 and not judged[-1].advice.fallback,
        "fallback": any(s.advice.fallback and s.received > 0 for s in judged),
        "return": any(a.fallback and not b.fallback
                      for a, b in zip(found, found[1:]) if b.name == "headroom-advice"),
    }
    for kind in sorted(expected):
        if kind not in checks:
            parser.error(f"--expect: unknown kind {kind!r}; expected {', '.join(checks)}")
        if not checks[kind]:
            failures.append(f"no {kind} step")
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
