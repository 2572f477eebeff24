"""The buffers headroomrate passed at each advice step, from `gst-launch-1.0 -m` output.

headroomrate posts a `headroom-advice` element message at every change of advice and a
`headroom-eos` one at end-of-stream, each with its counters (`in`, `out`, `drop`) and the
latest buffer's timestamp (`pts`). A step runs from one message to the next: it passed
`out` − `out` buffers in `pts` − `pts` of stream time, which must be the advised rate within
one buffer a second (plus the one buffer at the step's edge), none while paused, and every
buffer while the service was absent (fallback: nominal advice).

Usage: python3 scripts/gstreamer_steps.py LOG [--expect shed,pause,eos | fallback,return]
Prints the table; exits 1 when a step is off or an expected kind of step is missing.

With --seek RATE it plays a stream itself instead, to judge pacing where gst-launch-1.0 cannot
go (it cannot seek): `videotestsrc ! video/x-raw,framerate=FRAMERATE ! headroomrate
service=URL PROPERTY=VALUE… ! fakesink`, prerolled until the element has its first advice from
the service, then a flushing seek to [0, SECONDS] at RATE (−1: reverse playback, the timestamps
falling) and played to EOS as fast as it goes. The buffers that reach fakesink after the seek
are counted (no time is measured): of N received, a stream of FRAMERATE at RATE must pass
N × advised ÷ (FRAMERATE × |RATE|) within one buffer, and every one when that is N or more.

Usage: python3 scripts/gstreamer_steps.py --seek RATE --service URL [--framerate 30/1]
         [--seconds 4] [--set PROPERTY=VALUE]…
Prints what passed; exits 1 when it is not the advised rate, or the advice changed meanwhile.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Dict, List, Optional

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


# How long one stage of a --seek run may take: only a hang reaches it (the stream is not live).
_STAGE_NS = 60 * Gst.SECOND


class Stalled(Exception):
    """A --seek run did not get where it should: an error, a warning, or the deadline."""


def _advice(message: Gst.Message) -> Optional[Gst.Structure]:
    """The headroom-advice structure of an element message, or None."""
    structure = message.get_structure()
    if (message.type == Gst.MessageType.ELEMENT and structure is not None
            and structure.get_name() == "headroom-advice"):
        return structure
    return None


def _until(pipeline: Gst.Pipeline, what: str, done: Callable[[Gst.Message], bool],
           seen: Callable[[Gst.Message], None]) -> None:
    """Reads the bus until `done` is true of a message (each is `seen` first); Stalled on an
    error or a warning, or after _STAGE_NS."""
    bus = pipeline.get_bus()
    deadline = Gst.util_get_timestamp() + _STAGE_NS
    while True:
        left = deadline - Gst.util_get_timestamp()
        message = bus.timed_pop(max(left, 0)) if left > 0 else None
        if message is None:
            raise Stalled(f"{what}: not within {_STAGE_NS // Gst.SECOND} s")
        if message.type in (Gst.MessageType.ERROR, Gst.MessageType.WARNING):
            error, debug = (message.parse_error() if message.type == Gst.MessageType.ERROR
                            else message.parse_warning())
            raise Stalled(f"{what}: {message.type.first_value_nick} from "
                          f"{message.src.get_name()}: {error.message}")
        seen(message)
        if done(message):
            return


def play(arguments: argparse.Namespace) -> int:
    """The --seek run (see the module): prints what passed; 0 when it is the advised rate."""
    fps = Fraction(arguments.framerate)
    rate = arguments.seek
    stop = int(Fraction(arguments.seconds) * Gst.SECOND)
    properties = " ".join(arguments.set)
    pipeline = Gst.parse_launch(
        f"videotestsrc ! video/x-raw,width=16,height=16,framerate={arguments.framerate} "
        f"! headroomrate name=rate service={arguments.service} {properties} "
        f"! fakesink name=sink")
    counts: Dict[str, int] = {"received": 0, "passed": 0}
    rates: List[Optional[float]] = []  # the advised rates, in order (None: fallback advice)
    segments: List[float] = []  # the rate of each segment reaching fakesink

    def counter(key: str) -> Callable[[Gst.Pad, Gst.PadProbeInfo], Gst.PadProbeReturn]:
        def count(pad: Gst.Pad, info: Gst.PadProbeInfo) -> Gst.PadProbeReturn:
            if info.type & Gst.PadProbeType.BUFFER:
                counts[key] += 1
            elif info.get_event().type == Gst.EventType.FLUSH_STOP:
                counts[key] = 0  # the seek's: only the buffers after it count
            elif info.get_event().type == Gst.EventType.SEGMENT and key == "passed":
                segments.append(info.get_event().parse_segment().rate)
            return Gst.PadProbeReturn.OK
        return count

    kinds = (Gst.PadProbeType.BUFFER | Gst.PadProbeType.EVENT_DOWNSTREAM
             | Gst.PadProbeType.EVENT_FLUSH)
    pipeline.get_by_name("rate").get_static_pad("sink").add_probe(kinds, counter("received"))
    pipeline.get_by_name("sink").get_static_pad("sink").add_probe(kinds, counter("passed"))

    def seen(message: Gst.Message) -> None:
        advice = _advice(message)
        if advice is not None:
            rates.append(None if advice.get_value("fallback") else advice.get_value("frame-rate"))

    prerolled = [False]

    def ready(message: Gst.Message) -> bool:
        prerolled[0] = prerolled[0] or message.type == Gst.MessageType.ASYNC_DONE
        return prerolled[0] and bool(rates) and rates[-1] is not None

    try:
        pipeline.set_state(Gst.State.PAUSED)
        _until(pipeline, "prerolled with advice from the service", ready, seen)
        if not pipeline.seek(rate, Gst.Format.TIME, Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE,
                             Gst.SeekType.SET, 0, Gst.SeekType.SET, stop):
            raise Stalled(f"the seek at rate {rate:g} was refused")
        _until(pipeline, "prerolled after the seek",
               lambda message: message.type == Gst.MessageType.ASYNC_DONE, seen)
        advised_at_seek = len(rates)
        if rates[-1] is None:
            raise Stalled("the service went away before the stream played")
        pipeline.set_state(Gst.State.PLAYING)
        _until(pipeline, "EOS", lambda message: message.type == Gst.MessageType.EOS, seen)
    except Stalled as problem:
        print(f"FAIL {problem}")
        return 1
    finally:
        pipeline.set_state(Gst.State.NULL)
    received, passed = counts["received"], counts["passed"]
    advised = rates[advised_at_seek - 1]
    assert advised is not None
    # Buffers of a stream of `fps` played at `rate` come fps × |rate| a second of running time.
    arriving = float(fps) * abs(rate)
    expected = received * min(1.0, advised / arriving)
    print(f"seek at rate {rate:g} ({'reverse' if rate < 0 else 'forward'}), a {fps} fps stream "
          f"for {Fraction(stop, Gst.SECOND)} s: {received} buffers received, {passed} passed at "
          f"{advised:g} fps advised (expected {expected:.2f}"
          f"{'' if advised >= arriving else ' ± 1'})")
    failures = []
    if segments[-1:] != [rate]:
        failures.append(f"the segment after the seek has rate {segments[-1:]}, expected {rate:g}")
    if any(later != advised for later in rates[advised_at_seek - 1:]):
        failures.append(f"the advice changed during the run ({rates}): run it again")
    if received == 0:
        failures.append("no buffer received")
    elif advised >= arriving * (1 - 1e-9):
        if passed != received:
            failures.append(f"at its own advised rate (or faster) it passed {passed} of "
                            f"{received}, expected every one")
    elif abs(passed - expected) > 1:
        failures.append(f"passed {passed}, expected {expected:.2f} ± 1")
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", nargs="?")
    parser.add_argument("--expect", default="",
                        help="kinds of step that must occur: shed (0 < advised < nominal), "
                             "pause, eos (the stream ended while paused), fallback (service "
                             "absent), return (advice again after a fallback)")
    parser.add_argument("--seek", type=float, metavar="RATE",
                        help="play a stream with a seek at RATE (-1: reverse) instead of "
                             "reading LOG, and count what passed")
    parser.add_argument("--service", help="--seek: headroom serve's URL, http://HOST:PORT")
    parser.add_argument("--framerate", default="30/1",
                        help="--seek: the stream's frame rate, a fraction (default 30/1)")
    parser.add_argument("--seconds", default="4",
                        help="--seek: the stream time played, from 0 (default 4)")
    parser.add_argument("--set", action="append", default=[], metavar="PROPERTY=VALUE",
                        help="--seek: a headroomrate property (repeatable)")
    arguments = parser.parse_args()
    if arguments.seek is not None:
        if arguments.log is not None or not arguments.service or arguments.seek == 0:
            parser.error("--seek: expected a rate other than 0 and --service URL, and no LOG")
        return play(arguments)
    if arguments.log is None:
        parser.error("expected LOG (or --seek RATE --service URL)")
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
