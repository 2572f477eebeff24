"""headroomrate: a GStreamer element that runs a stream at the frame rate `headroom serve` advises.

The element registers its pipeline with Headroom's host service through ``headroom_client``
(docs/api.md) and follows the advice: buffers above the advised rate are dropped by their
running time (their timestamps through the segment, so reverse playback and other rates are
paced as forward playback is), without renegotiating caps (the caps keep their frame rate, as
with ``valve``); at rate 0 every buffer is dropped while events (caps, segments, tags, EOS)
pass. Rates are exact fractions (a stream of 1/10000 fps at its advised rate passes every
buffer). The advice, the ladder step the governor picks and the host's level are readable
properties that notify, an ``advice-changed`` signal and a ``headroom-advice`` element message,
so application code can turn its own knobs (an inference interval, a smaller engine) along the
ladder.

Advice is fetched by a thread of the element, never on the streaming thread: the buffer path
reads one immutable snapshot (an attribute read under the GIL) and never waits on HTTP. With
the service absent or gone, the client gives nominal advice, so everything passes, and the
thread keeps trying (with the client's back-off) and registers again when it returns. A
registration the service refuses (HTTP 400: a stream above the 1000 fps it governs, say) is
not retried: the element warns once and passes every buffer, ungoverned.

Installed by ``scripts/install.sh`` as ``$prefix/lib/gstreamer-1.0/python/headroomrate.py``
(with ``headroom_client`` beside it), where GStreamer finds it through ``GST_PLUGIN_PATH``
(``$prefix/lib/gstreamer-1.0``); by the Debian package ``gstreamer1.0-headroom`` into GStreamer's
own plugin directory, where it finds it by itself (``headroom_client`` from ``headroom``).
Either way it needs ``gstreamer1.0-python3-plugin-loader`` and ``python3-gst-1.0``. See
docs/gstreamer.md.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstBase", "1.0")
from gi.repository import GLib, GObject, Gst, GstBase  # noqa: E402

try:
    from headroom_client import Advice, Client, LadderStep, RequestError
except ImportError as error:  # the loader shows this, instead of a missing element
    raise ImportError(
        "headroomrate needs the Python client headroom_client: scripts/install-gstreamer.sh "
        "installs it beside the element (or pip install clients/python)") from error

Gst.init(None)

__all__ = ["HeadroomRate"]

DEFAULT_SERVICE = "http://127.0.0.1:9464"
DEFAULT_LADDER = "full:1"
# Buffer timestamps are within this many nanoseconds of their frame's exact instant (a
# source's rounding of k / fps to whole nanoseconds); slots are counted with this tolerance.
_TIMESTAMP_TOLERANCE_NS = 1000
# A rate the service advises (a JSON number) is read as the simplest fraction within one part
# in this of it (30000/1001, 1/10000, 15/2), and as the nominal rate's exact fraction when it is
# that within a double's rounding.
_RATE_PRECISION = 10 ** 6
_SAME_RATE = 1e-9
# Looked up once: the buffer path reads module globals, not Gst's enum attributes.
_CLOCK_TIME_NONE = Gst.CLOCK_TIME_NONE
_FORMAT_TIME = Gst.Format.TIME
# The largest ladder file read (a registration is a few hundred bytes; the API takes 64 KiB).
_MAX_LADDER_FILE_BYTES = 64 << 10
# The client's back-off after the service fails: from 0.5 s, doubling up to this, so the
# element registers again within a few seconds of the service's return.
_MAX_BACKOFF_SECONDS = 5.0
# How long one request to the service may take.
_REQUEST_SECONDS = 1.0
# The registration keys a ladder file may hold (those of POST /v1/clients).
_FILE_KEYS = {"name", "priority", "nominalFrameRate", "minFrameRate", "ladder", "share",
              "shedFirst", "followsLevels"}


class PropertyError(ValueError):
    """A property's value is not valid: names the property and what was expected."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name


@dataclass(frozen=True)
class Ladder:
    """The inference ladder (heaviest step first) and what a ladder file also declared."""

    steps: Tuple[LadderStep, ...]
    # Registration fields from a file (`advise --ladder`'s format), by their API names.
    declared: Tuple[Tuple[str, Any], ...] = ()
    # The file, for errors about its fields ("" for a ladder written in the property).
    path: str = ""

    def field(self, key: str) -> Any:
        """A field the ladder file declared, or None."""
        return dict(self.declared).get(key)


def _step_name(name: str, where: str) -> str:
    if not (1 <= len(name) <= 64) or not name.isprintable() or name != name.strip():
        raise PropertyError(where, f"expected a step name of 1 to 64 printable characters, "
                                   f"got {name!r}")
    return name


def _positive(text: Any, where: str, what: str) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise PropertyError(where, f"expected {what}, got {text!r}") from None
    if not (math.isfinite(value) and 0 < value <= 1e6):
        raise PropertyError(where, f"expected {what}, got {text!r}")
    return value


def parse_ladder(text: str) -> Ladder:
    """The ladder of the ``ladder`` property: ``NAME:COST[:QUALITY],…`` (heaviest first, 1 to
    16 steps, costs > 0, qualities 0 to 1), or the path of a JSON registration as
    ``headroom advise --ladder`` reads it. Raises PropertyError naming what is wrong."""
    text = text.strip()
    if text.startswith(("/", "./", "../", "~")) or text.endswith(".json"):
        return _ladder_file(os.path.expanduser(text))
    steps: List[LadderStep] = []
    for index, part in enumerate(text.split(",")):
        fields = part.strip().split(":")
        where = f"ladder[{index}]"
        if len(fields) not in (2, 3):
            raise PropertyError(where, f"expected NAME:COST or NAME:COST:QUALITY (as in "
                                       f"\"full:150,coarse:44\") or a .json file, got {part!r}")
        name = _step_name(fields[0].strip(), where + ".name")
        cost = _positive(fields[1], where + ".cost", "a cost > 0 (at most 1e6)")
        quality = None
        if len(fields) == 3:
            quality = _positive(fields[2], where + ".quality", "a quality > 0 (at most 1)")
            if quality > 1:
                raise PropertyError(where + ".quality", f"expected at most 1, got {fields[2]!r}")
        steps.append(LadderStep(name, cost, quality))
    if not 1 <= len(steps) <= 16:
        raise PropertyError("ladder", f"expected 1 to 16 steps, got {len(steps)}")
    return Ladder(tuple(steps))


def _ladder_file(path: str) -> Ladder:
    where = f"ladder ({path})"
    try:
        with open(path, "rb") as file:
            data = file.read(_MAX_LADDER_FILE_BYTES + 1)
    except OSError as error:
        raise PropertyError(where, f"cannot read it: {error.strerror}") from None
    if len(data) > _MAX_LADDER_FILE_BYTES:
        raise PropertyError(where, f"expected at most {_MAX_LADDER_FILE_BYTES} bytes")
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise PropertyError(where, f"expected JSON, {error}") from None
    if not isinstance(value, dict):
        raise PropertyError(where, "expected a JSON object (a registration, as for "
                                   "`headroom advise --ladder`)")
    unknown = sorted(set(value) - _FILE_KEYS)
    if unknown:
        raise PropertyError(f"{where}: {unknown[0]}",
                            f"unknown key; expected one of {', '.join(sorted(_FILE_KEYS))}")
    # The fields without a property of their own are checked here, as the service would.
    share = value.get("share")
    if share is not None and (isinstance(share, bool) or not isinstance(share, (int, float))
                              or not 0 < share <= 1):
        raise PropertyError(f"{where}: share", f"expected a share above 0, at most 1, got {share!r}")
    shed_first = value.get("shedFirst")
    if shed_first is not None and shed_first not in ("ladder", "frameRate", "cheapest"):
        raise PropertyError(f"{where}: shedFirst",
                            f"expected ladder, frameRate or cheapest, got {shed_first!r}")
    follows = value.get("followsLevels")
    if follows is not None and not isinstance(follows, bool):
        raise PropertyError(f"{where}: followsLevels", f"expected true or false, got {follows!r}")
    entries = value.get("ladder")
    if not isinstance(entries, list) or not 1 <= len(entries) <= 16:
        raise PropertyError(f"{where}: ladder", "expected an array of 1 to 16 steps")
    steps = []
    for index, entry in enumerate(entries):
        at = f"{where}: ladder[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise PropertyError(at, "expected {\"name\", \"cost\", \"quality\" (optional)}")
        extra = sorted(set(entry) - {"name", "cost", "quality"})
        if extra:
            raise PropertyError(f"{at}.{extra[0]}", "unknown key; expected name, cost, quality")
        quality = entry.get("quality")
        steps.append(LadderStep(
            _step_name(entry["name"], at + ".name"),
            _positive(entry.get("cost"), at + ".cost", "a cost > 0 (at most 1e6)"),
            None if quality is None else _positive(quality, at + ".quality", "0 < quality ≤ 1")))
    declared = tuple((key, value[key]) for key in sorted(value) if key != "ladder")
    return Ladder(tuple(steps), declared, path)


def exact_rate(rate: Union[float, Fraction],
               known: Sequence[Optional[Fraction]] = ()) -> Fraction:
    """`rate` (fps, > 0) as an exact fraction: a Fraction as it is; a float (the service's
    advice, a property) as the one of `known` (the nominal rate, from the caps: 30000/1001,
    1/10000) it equals within a double's rounding, else as the simplest fraction within one
    part in 10⁶ of it, whatever its size (0.0001 is 1/10000, 29.97 is 2997/100), never 0."""
    if isinstance(rate, Fraction):
        if rate <= 0:
            raise ValueError(f"expected a rate above 0, got {rate}")
        return rate
    if not (math.isfinite(rate) and rate > 0):
        raise ValueError(f"expected a rate above 0, got {rate!r}")
    for fraction in known:
        if fraction is not None and abs(rate - float(fraction)) <= _SAME_RATE * float(fraction):
            return fraction
    return Fraction(rate).limit_denominator(max(1, math.ceil(_RATE_PRECISION / rate)))


@dataclass(frozen=True)
class Gate:
    """What the buffer path does, as one immutable value swapped whole by the advice thread:
    pass everything, drop everything, or pass one buffer per slot of ``1/rate`` seconds of
    running time (``slot = time × numerator // denominator``, the rate an exact fraction)."""

    passes_all: bool
    drops_all: bool
    numerator: int = 1
    denominator: int = 1

    @classmethod
    def open(cls) -> "Gate":
        return cls(True, False)

    @classmethod
    def closed(cls) -> "Gate":
        return cls(False, True)

    @classmethod
    def at(cls, rate: Union[float, Fraction],
           known: Sequence[Optional[Fraction]] = ()) -> "Gate":
        """One buffer per 1/rate seconds of running time (rate > 0, fps; a float is read as
        ``exact_rate`` reads it, against the `known` rates)."""
        fraction = exact_rate(rate, known)
        return cls(False, False, fraction.numerator, fraction.denominator * Gst.SECOND)

    def admits(self, running: int, last: Optional[int]) -> bool:
        """Whether a buffer at running time `running` (ns) passes when the last one passed was
        at `last` (None: none yet, or a new segment): it passes when it opens a new slot (or
        time went back)."""
        if self.passes_all:
            return True
        if self.drops_all:
            return False
        if last is None or running < last:
            return True
        return ((running + _TIMESTAMP_TOLERANCE_NS) * self.numerator // self.denominator
                > (last + _TIMESTAMP_TOLERANCE_NS) * self.numerator // self.denominator)


def running_time(segment: Optional[Gst.Segment], pts: int) -> Optional[int]:
    """The running time of a buffer stamped `pts` in `segment` (a TIME segment, or None before
    one: the timestamp itself), which grows as the stream plays whatever the segment's rate:
    in reverse playback the timestamps fall and the running time still rises. None for a buffer
    without a timestamp or outside the segment."""
    if pts == _CLOCK_TIME_NONE:
        return None
    if segment is None:
        return pts
    running = segment.to_running_time(_FORMAT_TIME, pts)
    return None if running == _CLOCK_TIME_NONE else running


@dataclass(frozen=True)
class Settings:
    """The element's configuration at start, every property checked."""

    service: str
    client_name: str
    priority: int
    nominal_rate: Optional[float]  # None: from the negotiated caps (an exact fraction)
    min_rate: Optional[float]  # None: a quarter of the nominal rate
    ladder: Ladder
    poll_seconds: float
    report_seconds: float


class AdviceFollower:
    """The element's thread: registers the pipeline once its nominal rate is known, asks for
    advice every ``poll_seconds`` (and reports the work every ``report_seconds``, which also
    answers with advice), and hands every change to ``apply``; ``fail`` refuses to start (a
    minimum above the nominal rate). A registration the service refuses (HTTP 400), or any
    other failure of the thread, goes to ``refused`` (a warning) with nominal advice to
    ``apply`` (everything passes), and ends the thread: it is never retried. Its waits are
    on an Event, so ``stop()`` ends it at once; every request is bounded by the client's
    timeout."""

    def __init__(self, settings: Settings, apply: Callable[[Advice], None],
                 work: Callable[[], Tuple[int, int]], fail: Callable[[str], None],
                 refused: Callable[[str], None]) -> None:
        self._settings = settings
        self._apply = apply
        self._work = work
        self._fail = fail
        self._refused = refused
        self._stopping = threading.Event()
        self._rate_known = threading.Event()
        #: The nominal rate, exact (the caps' fraction, or the property's value read as one).
        self.nominal: Optional[Fraction] = (
            None if settings.nominal_rate is None else exact_rate(settings.nominal_rate))
        if self.nominal is not None:
            self._rate_known.set()
        self._thread = threading.Thread(target=self._run, name="headroomrate-advice",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Ends the thread (it unregisters the pipeline on its way out, within the timeout)."""
        self._stopping.set()
        self._rate_known.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=4 * _REQUEST_SECONDS)

    def caps_rate(self, rate: Fraction) -> None:
        """The negotiated frame rate (the caps' fraction): the nominal one unless the property
        set it."""
        if self.nominal is None:
            self.nominal = rate
            self._rate_known.set()

    def _run(self) -> None:
        self._rate_known.wait()
        if self._stopping.is_set() or self.nominal is None:
            return
        settings = self._settings
        # The service takes numbers: the nominal rate as the double nearest its fraction (the
        # advice, a double too, is read back as that fraction: Gate.at's `known`).
        nominal = float(self.nominal)
        ladder = settings.ladder
        minimum = settings.min_rate if settings.min_rate is not None else nominal / 4
        if minimum > nominal:
            self._fail(f"min-rate: expected at most the nominal rate ({nominal:g} fps), "
                       f"got {minimum:g}")
            return
        client = Client(settings.service, timeout=_REQUEST_SECONDS,
                        max_backoff=_MAX_BACKOFF_SECONDS)

        def register() -> Advice:
            # Nominal advice while the service is absent (registered on a later call); raises
            # RequestError for a registration the service refuses (HTTP 400).
            return client.register(
                settings.client_name, priority=settings.priority,
                nominal_frame_rate=nominal, min_frame_rate=minimum, ladder=list(ladder.steps),
                share=ladder.field("share"), shed_first=ladder.field("shedFirst"),
                follows_levels=ladder.field("followsLevels") is True)

        try:
            advice = register()
            self._apply(advice)
            next_report = time.monotonic() + settings.report_seconds
            while not self._stopping.wait(settings.poll_seconds):
                # Until registered (the service absent so far), each call registers: through
                # register(), so that a refusal is seen as one and not as nominal advice.
                if time.monotonic() >= next_report:
                    next_report = time.monotonic() + settings.report_seconds
                    frames, late = self._work()
                    target = 1 / advice.frame_rate if advice.frame_rate > 0 else 1 / nominal
                    advice = (register() if client.client_id is None else
                              client.report(frames, late=min(late, frames), work_seconds=[],
                                            target_seconds=target))
                else:
                    advice = register() if client.client_id is None else client.advice()
                self._apply(advice)
        except RequestError as error:
            self._refuse_registration(f"the service refused the registration ({error})",
                                      nominal)
        except Exception as error:  # anything else: the same, never the pipeline's end
            self._refuse_registration(
                f"following the service failed ({type(error).__name__}: {error})", nominal)
        finally:
            client.close()

    def _refuse_registration(self, problem: str, nominal: float) -> None:
        """Ungoverned for good: warns (once: the thread ends) and applies nominal advice, so
        every buffer passes."""
        self._refused(f"{problem}: passing every buffer, not governed")
        self._apply(Advice(
            seq=0, level="unknown", acting_level="unknown", frame_rate=nominal, ladder_step=0,
            ladder_name=self._settings.ladder.steps[0].name,
            reason=f"{problem}; not governed, nominal settings", is_fallback=True))


class HeadroomRate(GstBase.BaseTransform):
    """Runs the stream at the frame rate ``headroom serve`` advises (see the module)."""

    __gstmetadata__ = (
        "Headroom rate",
        "Filter/Video",
        "Registers with Headroom's host service (headroom serve) and follows its advice: drops "
        "buffers by running time above the advised frame rate without renegotiating caps, drops "
        "every buffer while paused (events pass), and tells the application the advised "
        "ladder step (advice-changed, the headroom-advice element message) so it can switch "
        "its inference setting: advice-changed(rate fps, ladder step, step name, level). "
        "Passes everything while the service is absent or when it refuses the registration "
        "(with a warning). docs/gstreamer.md",
        "Headroom <https://github.com/headroom>",
    )
    __gsttemplates__ = (
        Gst.PadTemplate.new("sink", Gst.PadDirection.SINK, Gst.PadPresence.ALWAYS,
                            Gst.Caps.new_any()),
        Gst.PadTemplate.new("src", Gst.PadDirection.SRC, Gst.PadPresence.ALWAYS,
                            Gst.Caps.new_any()),
    )
    __gsignals__ = {
        "advice-changed": (
            GObject.SignalFlags.RUN_LAST, None, (float, int, str, str),
        ),
    }
    __gproperties__ = {
        "service": (str, "Service",
                    "URL of headroom serve: http://HOST:PORT or unix:PATH",
                    DEFAULT_SERVICE, GObject.ParamFlags.READWRITE),
        "client-name": (str, "Client name",
                        "Name the pipeline registers under (1-64 printable characters); "
                        "empty: PROGRAM:ELEMENT", "", GObject.ParamFlags.READWRITE),
        "priority": (int, "Priority",
                     "Priority from 0 to 100 (the lowest sheds first)",
                     -GLib.MAXINT32 - 1, GLib.MAXINT32, 50, GObject.ParamFlags.READWRITE),
        "nominal-rate": (float, "Nominal rate",
                         "Frame rate the pipeline runs at unhindered, fps; 0: the negotiated "
                         "caps' framerate", -GLib.MAXDOUBLE, GLib.MAXDOUBLE, 0.0,
                         GObject.ParamFlags.READWRITE),
        "min-rate": (float, "Minimum rate",
                     "Lowest frame rate to shed to before pausing, fps; 0: a quarter of the "
                     "nominal rate", -GLib.MAXDOUBLE, GLib.MAXDOUBLE, 0.0,
                     GObject.ParamFlags.READWRITE),
        "ladder": (str, "Ladder",
                   "Inference ladder, heaviest first: NAME:COST[:QUALITY],... (as "
                   "\"full:150,coarse:44\") or a JSON registration file as for `headroom "
                   "advise --ladder` (its name, priority and rates apply where these "
                   "properties are not set)", DEFAULT_LADDER, GObject.ParamFlags.READWRITE),
        "enforce-rate": (bool, "Enforce rate",
                         "Drop buffers above the advised rate; false: only observe (advice, "
                         "signal and messages, nothing dropped)", True,
                         GObject.ParamFlags.READWRITE),
        "poll-interval": (float, "Poll interval",
                          "Seconds between requests for advice (0.05 to 60)",
                          -GLib.MAXDOUBLE, GLib.MAXDOUBLE, 0.25, GObject.ParamFlags.READWRITE),
        "report-interval": (float, "Report interval",
                            "Seconds between work reports (frames passed, late from "
                            "downstream QoS; 0.05 to 600)",
                            -GLib.MAXDOUBLE, GLib.MAXDOUBLE, 1.0, GObject.ParamFlags.READWRITE),
        "advised-rate": (float, "Advised rate",
                         "Frame rate advised now, fps (0: pause); the nominal rate while "
                         "the service is absent", 0.0, GLib.MAXDOUBLE, 0.0,
                         GObject.ParamFlags.READABLE),
        "ladder-step": (int, "Ladder step",
                        "Ladder step advised now, 0 the heaviest", 0, 15, 0,
                        GObject.ParamFlags.READABLE),
        "ladder-name": (str, "Ladder name", "Name of the ladder step advised now", "",
                        GObject.ParamFlags.READABLE),
        "level": (str, "Level",
                  "Host pressure level (nominal, fair, serious, critical, shutdown; "
                  "unknown while the service is absent)", "unknown",
                  GObject.ParamFlags.READABLE),
        "in": (GObject.TYPE_UINT64, "In", "Buffers received", 0, GLib.MAXUINT64, 0,
               GObject.ParamFlags.READABLE),
        "out": (GObject.TYPE_UINT64, "Out", "Buffers passed", 0, GLib.MAXUINT64, 0,
                GObject.ParamFlags.READABLE),
        "drop": (GObject.TYPE_UINT64, "Drop", "Buffers dropped by the advice", 0,
                 GLib.MAXUINT64, 0, GObject.ParamFlags.READABLE),
    }

    def __init__(self) -> None:
        super().__init__()
        self.set_passthrough(True)  # transform_ip still sees every buffer, read-only
        self._values: Dict[str, Any] = {
            "service": DEFAULT_SERVICE, "client-name": "", "priority": 50,
            "nominal-rate": 0.0, "min-rate": 0.0, "ladder": DEFAULT_LADDER,
            "enforce-rate": True, "poll-interval": 0.25, "report-interval": 1.0,
        }
        self._explicit: set = set()
        self._errors: Dict[str, str] = {}
        self._ladder = parse_ladder(DEFAULT_LADDER)
        self._advice_lock = threading.Lock()
        self._advice: Optional[Advice] = None
        self._follower: Optional[AdviceFollower] = None
        self._gate = Gate.open()
        self._last_time: Optional[int] = None  # running time of the last buffer passed
        self._segment: Optional[Gst.Segment] = None  # the TIME segment buffers are in
        self._pts = Gst.CLOCK_TIME_NONE
        self._in = self._out = self._drop = 0
        self._late = 0
        self._reported = (0, 0)  # out and late at the last report

    # Properties.

    def do_get_property(self, spec: GObject.ParamSpec) -> Any:
        name = spec.name
        if name in self._values:
            return self._values[name]
        if name in ("in", "out", "drop"):
            return {"in": self._in, "out": self._out, "drop": self._drop}[name]
        with self._advice_lock:
            advice = self._advice
        if name == "advised-rate":
            return advice.frame_rate if advice else 0.0
        if name == "ladder-step":
            return advice.ladder_step if advice else 0
        if name == "ladder-name":
            return advice.ladder_name if advice else self._ladder.steps[0].name
        if name == "level":
            return advice.level if advice else "unknown"
        raise AttributeError(f"unknown property {name}")

    def do_set_property(self, spec: GObject.ParamSpec, value: Any) -> None:
        name = spec.name
        try:
            checked = self._checked(name, value)
        except PropertyError as error:
            # GObject has no way to refuse a value: the element refuses to start, saying why.
            self._errors[name] = str(error)
            Gst.error(f"{self.get_name()}: {error}")
            return
        self._errors.pop(name, None)
        self._values[name] = checked
        self._explicit.add(name)
        if name == "enforce-rate":  # takes effect at once, also while playing
            with self._advice_lock:
                self._gate = self._gate_for(self._advice)

    def _checked(self, name: str, value: Any) -> Any:
        """`value` for property `name`, or PropertyError saying what was expected."""
        if name == "service":
            if value is None or not value.strip():
                raise PropertyError(name, "expected http://HOST:PORT or unix:PATH, got nothing")
            try:
                Client(value)
            except ValueError as error:
                raise PropertyError(name, str(error).partition(": ")[2]) from None
            return value
        if name == "client-name":
            if value is not None and not isinstance(value, str):
                raise PropertyError(name, f"expected a string, got {value!r}")
            text = value or ""
            if text and not (len(text) <= 64 and text.isprintable()):
                raise PropertyError(name, f"expected 1 to 64 printable characters, got {text!r}")
            return text
        if name == "priority":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
                raise PropertyError(name, f"expected an integer from 0 to 100, got {value!r}")
            return value
        if name in ("nominal-rate", "min-rate"):
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not (math.isfinite(value) and 0 <= value <= 1000)):
                raise PropertyError(name, f"expected frames a second from 0 (from the caps) "
                                          f"to 1000, got {value!r}")
            return value
        if name == "ladder":
            self._ladder = parse_ladder(value or "")
            return value
        if name == "poll-interval":
            if not (math.isfinite(value) and 0.05 <= value <= 60):
                raise PropertyError(name, f"expected 0.05 to 60 seconds, got {value:g}")
            return value
        if name == "report-interval":
            if not (math.isfinite(value) and 0.05 <= value <= 600):
                raise PropertyError(name, f"expected 0.05 to 600 seconds, got {value:g}")
            return value
        return value

    def _settings(self) -> Settings:
        """The checked settings; a ladder file's fields fill the properties left unset."""
        values, ladder = self._values, self._ladder

        def chosen(name: str, key: str, default: Any) -> Any:
            if name in self._explicit or ladder.field(key) is None:
                return values[name] if name in self._explicit else default
            try:
                return self._checked(name, ladder.field(key))
            except PropertyError as error:  # named as in the file
                problem = str(error).partition(": ")[2]
                raise PropertyError(f"ladder ({ladder.path}): {key}", problem) from None

        program = GLib.get_prgname() or "gstreamer"
        # gst-python names the element's type "headroomrate+HeadroomRate", so its default
        # object name is "headroomrate+headroomrate0": the part after "+" is the name.
        element = (self.get_name() or "headroomrate").rpartition("+")[2]
        name = chosen("client-name", "name", "") or f"{program}:{element}"
        nominal = chosen("nominal-rate", "nominalFrameRate", 0.0)
        minimum = chosen("min-rate", "minFrameRate", 0.0)
        return Settings(
            service=values["service"], client_name=name[:64],
            priority=chosen("priority", "priority", 50),
            nominal_rate=nominal or None, min_rate=minimum or None, ladder=ladder,
            poll_seconds=values["poll-interval"],
            report_seconds=values["report-interval"])

    # The element's life.

    def _refuse(self, text: str) -> None:
        self.message_full(Gst.MessageType.ERROR, Gst.library_error_quark(),
                          int(Gst.LibraryError.SETTINGS), text, text, __file__, "headroomrate",
                          0)

    def do_start(self) -> bool:
        if self._errors:
            self._refuse(next(iter(self._errors.values())))
            return False
        try:
            settings = self._settings()
        except PropertyError as error:
            self._refuse(str(error))
            return False
        self._in = self._out = self._drop = self._late = 0
        self._reported = (0, 0)
        self._last_time = None
        self._segment = None
        self._pts = Gst.CLOCK_TIME_NONE
        self._gate = Gate.open()
        with self._advice_lock:
            self._advice = None
        self._follower = AdviceFollower(settings, self._follow, self._work, self._fail,
                                        self._warn)
        self._follower.start()
        return True

    def do_stop(self) -> bool:
        follower, self._follower = self._follower, None
        if follower is not None:
            follower.stop()
        return True

    def do_set_caps(self, incaps: Gst.Caps, outcaps: Gst.Caps) -> bool:
        structure = incaps.get_structure(0) if incaps.get_size() else None
        if structure is not None and self._follower is not None:
            found, numerator, denominator = structure.get_fraction("framerate")
            if found and numerator > 0 and denominator > 0:
                self._follower.caps_rate(Fraction(numerator, denominator))
            elif "nominal-rate" not in self._explicit and not self._ladder.field(
                    "nominalFrameRate"):
                self.message_full(
                    Gst.MessageType.WARNING, Gst.library_error_quark(),
                    int(Gst.LibraryError.SETTINGS),
                    "nominal-rate: the caps have no frame rate; set nominal-rate to be governed",
                    f"caps {incaps.to_string()}: passing every buffer, not registered",
                    __file__, "do_set_caps", 0)
        return True

    # The advice thread's side.

    def _follow(self, advice: Advice) -> None:
        """Applies `advice` (on the advice thread): the gate, then properties, the signal and
        the element message when anything changed."""
        with self._advice_lock:
            previous, self._advice = self._advice, advice
            self._gate = self._gate_for(advice)
        if previous is not None and (
                previous.frame_rate, previous.ladder_step, previous.level,
                previous.is_fallback) == (
                advice.frame_rate, advice.ladder_step, advice.level, advice.is_fallback):
            return
        Gst.info(f"{self.get_name()}: {advice.frame_rate:g} fps, step {advice.ladder_step} "
                 f"({advice.ladder_name}), {advice.level}: {advice.reason}")
        if previous is None or previous.frame_rate != advice.frame_rate:
            self.notify("advised-rate")
        if previous is None or previous.ladder_step != advice.ladder_step:
            self.notify("ladder-step")
            self.notify("ladder-name")
        if previous is None or previous.level != advice.level:
            self.notify("level")
        self.emit("advice-changed", advice.frame_rate, advice.ladder_step, advice.ladder_name,
                  advice.level)
        structure = self._counts("headroom-advice")
        for key, value in (("frame-rate", float(advice.frame_rate)),
                           ("ladder-step", int(advice.ladder_step)),
                           ("ladder-name", advice.ladder_name), ("level", advice.level),
                           ("acting-level", advice.acting_level), ("reason", advice.reason),
                           ("fallback", bool(advice.is_fallback))):
            structure.set_value(key, value)
        self.post_message(Gst.Message.new_element(self, structure))

    def _gate_for(self, advice: Optional[Advice]) -> Gate:
        """What the buffer path does under `advice`: everything passes without advice, with
        nominal advice (the service absent) or when only observing."""
        if advice is None or advice.is_fallback or not self._values["enforce-rate"]:
            return Gate.open()
        if advice.frame_rate == 0:
            return Gate.closed()
        follower = self._follower
        return Gate.at(advice.frame_rate, (follower.nominal if follower else None,))

    def _counts(self, name: str) -> Gst.Structure:
        """A structure `name` with the counters and the latest buffer's timestamp (`pts`,
        GST_CLOCK_TIME_NONE before the first), so a reader can tell how many buffers passed
        in a stretch of stream time."""
        structure = Gst.Structure.new_empty(name)
        for key, value in (("in", self._in), ("out", self._out), ("drop", self._drop),
                           ("pts", self._pts)):
            structure.set_value(key, GObject.Value(GObject.TYPE_UINT64, value))
        return structure

    def _work(self) -> Tuple[int, int]:
        """The frames passed and the late ones (downstream QoS) since the last report."""
        out, late = self._out, self._late
        frames = out - self._reported[0]
        late_now = late - self._reported[1]
        self._reported = (out, late)
        return frames, late_now

    def _fail(self, text: str) -> None:
        self._refuse(text)

    def _warn(self, text: str) -> None:
        """A warning on the bus (gst-launch-1.0 prints it) and in the debug log; the pipeline
        goes on."""
        Gst.warning(f"{self.get_name()}: {text}")
        self.message_full(Gst.MessageType.WARNING, Gst.library_error_quark(),
                          int(Gst.LibraryError.SETTINGS), text, text, __file__, "headroomrate",
                          0)

    # The streaming thread's side: attribute reads, the segment's running time, integer
    # arithmetic, no lock.

    def do_transform_ip(self, buffer: Gst.Buffer) -> Gst.FlowReturn:
        self._in += 1
        self._pts = pts = buffer.pts
        gate = self._gate
        if gate.passes_all:
            self._out += 1
            return Gst.FlowReturn.OK
        if gate.drops_all:
            self._drop += 1
            return Gst.FlowReturn.CUSTOM_SUCCESS
        # Paced by running time, which grows as the stream plays at any rate (in reverse
        # playback the timestamps fall).
        running = running_time(self._segment, pts)
        if running is None:
            self._out += 1  # no timestamp (or outside the segment) to pace by: passed
            return Gst.FlowReturn.OK
        if gate.admits(running, self._last_time):
            self._last_time = running
            self._out += 1
            return Gst.FlowReturn.OK
        self._drop += 1
        # GstBase.BASE_TRANSFORM_FLOW_DROPPED is GST_FLOW_CUSTOM_SUCCESS (Python lacks the name).
        return Gst.FlowReturn.CUSTOM_SUCCESS

    def do_sink_event(self, event: Gst.Event) -> bool:
        if event.type == Gst.EventType.SEGMENT:
            self._last_time = None  # running time starts again
            segment = event.parse_segment().copy()
            self._segment = segment if segment.format == _FORMAT_TIME else None
        elif event.type == Gst.EventType.FLUSH_STOP:
            self._last_time = None
        elif event.type == Gst.EventType.EOS:
            self.post_message(Gst.Message.new_element(self, self._counts("headroom-eos")))
        return GstBase.BaseTransform.do_sink_event(self, event)

    def do_src_event(self, event: Gst.Event) -> bool:
        if event.type == Gst.EventType.QOS:
            _, _, diff, _ = event.parse_qos()
            if diff > 0:
                self._late += 1  # downstream got a buffer late (or dropped it)
        return GstBase.BaseTransform.do_src_event(self, event)


GObject.type_register(HeadroomRate)
__gstelementfactory__ = ("headroomrate", Gst.Rank.NONE, HeadroomRate)
