"""headroomrate's pacing and property parsing, without a pipeline (scripts/gstreamer-checks.sh
runs these, then the element in real gst-launch-1.0 pipelines).

Run: PYTHONPATH=clients/gstreamer/python:clients/python python3 -m pytest clients/gstreamer/tests
"""

import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

import headroomrate
from headroom_client import Advice, RequestError
from headroomrate import Gate, HeadroomRate, PropertyError, parse_ladder
from gi.repository import Gst  # noqa: E402 (the version required by headroomrate)

SECOND = 1_000_000_000
# Stream rates as caps give them: 30000/1001 is NTSC's 29.97.
STREAMS = [Fraction(25), Fraction(30), Fraction(60), Fraction(30000, 1001)]
RATES = [0.5, 1, 2, 5, 7.5, 10, 12.5, 15, 20, 24, 29.97, 30]
# Slow and odd stream rates (a frame every 10000 s, a day, 7 s; 1000/1001 fps).
SLOW = [Fraction(1, 10000), Fraction(1, 86400), Fraction(1, 7), Fraction(2, 3),
        Fraction(10, 11), Fraction(1000, 1001)]
# How long a test waits for the element's advice thread: only a hang reaches it.
WAIT_NS = 20 * SECOND


def timestamps(fps: Fraction, seconds: int) -> List[int]:
    """Buffer timestamps as a GStreamer source writes them: frame k at k / fps, rounded down
    to whole nanoseconds (gst_util_uint64_scale)."""
    return frames(fps, int(fps * seconds))


def frames(fps: Fraction, count: int) -> List[int]:
    """The timestamps of the first `count` frames of a stream at `fps`, as `timestamps`."""
    return [k * SECOND * fps.denominator // fps.numerator for k in range(count)]


def registration(directory: Path, text: str) -> str:
    """The path of a registration file holding `text`, in `directory`."""
    path = directory / "ladder.json"
    path.write_text(text)
    return str(path)


def passed(gate: Gate, stamps: List[int]) -> List[int]:
    """The timestamps `gate` lets through, as the element's buffer path does."""
    kept: List[int] = []
    last: Optional[int] = None
    for pts in stamps:
        if gate.admits(pts, last):
            kept.append(pts)
            last = pts
    return kept


@pytest.mark.parametrize("fps", STREAMS, ids=str)
@pytest.mark.parametrize("rate", RATES)
def test_a_stream_paced_to_a_rate_passes_that_rate_evenly(fps: Fraction, rate: float) -> None:
    stamps = timestamps(fps, 20)
    kept = passed(Gate.at(rate), stamps)
    expected = min(rate, float(fps)) * len(stamps) / float(fps)  # over the frames' span
    assert abs(len(kept) - expected) <= 1, f"{len(kept)} passed, expected {expected:g}"
    if rate < fps:
        frame = SECOND / float(fps)
        gaps = [b - a for a, b in zip(kept, kept[1:])]
        # Each gap is the slot rounded to whole frames: never a frame more or less.
        assert max(gaps) <= SECOND / rate + frame + 1
        assert min(gaps) >= SECOND / rate - frame - 1


@pytest.mark.parametrize("rate", RATES)
def test_any_stretch_of_a_paced_stream_is_within_a_buffer_of_the_rate(rate: float) -> None:
    kept = passed(Gate.at(rate), timestamps(Fraction(30), 20))
    for start in range(0, 15):
        window = [pts for pts in kept if start * SECOND <= pts < (start + 5) * SECOND]
        assert abs(len(window) - min(rate, 30) * 5) <= 1


def test_a_pause_passes_nothing_and_an_open_gate_everything() -> None:
    stamps = timestamps(Fraction(30), 5)
    assert passed(Gate.closed(), stamps) == []
    assert passed(Gate.open(), stamps) == stamps


def test_time_going_back_starts_the_count_again() -> None:
    gate = Gate.at(1)
    assert gate.admits(5 * SECOND, None)
    assert not gate.admits(5 * SECOND + SECOND // 2, 5 * SECOND)
    assert gate.admits(SECOND, 5 * SECOND)  # a seek back: passes, and counts from there


@pytest.mark.parametrize("fps", SLOW + STREAMS, ids=str)
def test_a_stream_at_its_own_advised_rate_passes_every_buffer(fps: Fraction) -> None:
    # The advice comes as a JSON number: the double nearest the stream's rate.
    stamps = frames(fps, 60)
    assert passed(Gate.at(float(fps)), stamps) == stamps


@pytest.mark.parametrize("fps", SLOW, ids=str)
def test_a_slow_stream_paced_to_half_its_rate_passes_every_other_buffer(fps: Fraction) -> None:
    stamps = frames(fps, 60)
    assert passed(Gate.at(float(fps / 2)), stamps) == stamps[::2]


@pytest.mark.parametrize("rate, exact", [
    (0.0001, Fraction(1, 10000)), (1 / 86400, Fraction(1, 86400)), (2 / 3, Fraction(2, 3)),
    (30000 / 1001, Fraction(30000, 1001)), (7500 / 1001, Fraction(7500, 1001)),
    (29.97, Fraction(2997, 100)), (7.5, Fraction(15, 2)), (1000.0, Fraction(1000)),
    (1e-9, Fraction(1, 10 ** 9)),
])
def test_an_advised_rate_is_read_as_the_fraction_it_stands_for(
        rate: float, exact: Fraction) -> None:
    from headroomrate import exact_rate
    assert exact_rate(rate) == exact
    # A caps rate too odd to guess is known: the nominal one, when the advice is that.
    odd = Fraction(10_000_000, 333_667)
    assert exact_rate(float(odd), (None, odd)) == odd
    assert exact_rate(float(odd) / 2, (odd,)) != odd


# Reverse playback and other rates: the element paces by running time.


def segment_event(rate: float, start: int, stop: int) -> Gst.Event:
    """The SEGMENT event a seek to [start, stop] at `rate` brings (rate < 0: reverse)."""
    segment = Gst.Segment()
    segment.init(Gst.Format.TIME)
    segment.do_seek(rate, Gst.Format.TIME, Gst.SeekFlags.NONE, Gst.SeekType.SET, start,
                    Gst.SeekType.SET, stop)
    return Gst.Event.new_segment(segment)


def through(element: HeadroomRate, stamps: List[int]) -> List[int]:
    """The timestamps of the buffers the element's buffer path passes, fed in this order."""
    kept = []
    for pts in stamps:
        buffer = Gst.Buffer.new()
        buffer.pts = pts
        if element.do_transform_ip(buffer) == Gst.FlowReturn.OK:
            kept.append(pts)
    return kept


@pytest.mark.parametrize("rate, expected", [
    (1.0, 20), (-1.0, 20), (2.0, 10), (-2.0, 10), (0.5, 40), (-0.5, 40)])
def test_playback_at_any_rate_is_paced_by_running_time(rate: float, expected: int) -> None:
    # 4 s of a 30 fps stream at an advised 5 fps: 20 buffers a running second's fifth apart
    # forward and in reverse (timestamps falling, from the segment's stop), 10 at twice the
    # speed (2 s of running time), 40 at half.
    element = HeadroomRate()
    element._gate = Gate.at(5)
    element.do_sink_event(segment_event(rate, 0, 4 * SECOND))
    stamps = frames(Fraction(30), 121)  # 0 to 4 s: the stop is in a reverse segment
    if rate < 0:
        stamps.reverse()
    kept = through(element, stamps)
    assert abs(len(kept) - expected) <= 1, f"{len(kept)} of {len(stamps)} passed"
    # Evenly: a fifth of a second of running time between passed buffers (± a frame).
    gaps = [abs(b - a) / abs(rate) for a, b in zip(kept, kept[1:])]
    frame = SECOND / 30 / abs(rate)
    assert all(SECOND / 5 - frame - 1 <= gap <= SECOND / 5 + frame + 1 for gap in gaps), gaps


def test_a_seek_back_in_reverse_starts_the_count_again() -> None:
    element = HeadroomRate()
    element._gate = Gate.at(1)
    element.do_sink_event(segment_event(-1.0, 0, 10 * SECOND))
    assert through(element, [9 * SECOND, 8 * SECOND + SECOND // 2]) == [9 * SECOND]
    element.do_sink_event(segment_event(-1.0, 0, 10 * SECOND))  # flushed, from the stop again
    assert through(element, [9 * SECOND + SECOND // 2]) == [9 * SECOND + SECOND // 2]


# The element against a stand-in for the service: registration refused, or a slow stream.


class FakeClient:
    """headroom_client.Client as the element uses it, answering as `headroom serve` would:
    `refuse` registrations after `absent` attempts finding the service absent (nominal advice)
    are refused with HTTP 400, as a stream above 1000 fps is; otherwise advised the nominal
    rate."""

    refuse = False
    absent = 0
    registrations: List[Dict[str, Any]] = []

    def __init__(self, url: str = "", **options: Any) -> None:
        self.client_id: Optional[str] = None
        self.fields: Dict[str, Any] = {}

    def _nominal(self, fallback: bool) -> Advice:
        return Advice(1, "unknown" if fallback else "nominal", "nominal",
                      self.fields["nominal_frame_rate"], 0, self.fields["ladder"][0].name,
                      "test", is_fallback=fallback)

    def register(self, name: str, **fields: Any) -> Advice:
        self.fields = fields
        FakeClient.registrations.append(fields)
        if len(FakeClient.registrations) <= FakeClient.absent:
            return self._nominal(True)
        if FakeClient.refuse:
            raise RequestError(400, "nominalFrameRate", "expected 0 < fps ≤ 1000, got "
                               f"{fields['nominal_frame_rate']!r}")
        self.client_id = "fake"
        return self._nominal(False)

    def advice(self) -> Advice:
        # The real client registers anew here, and gives nominal advice when that fails.
        if self.client_id is None:
            try:
                return self.register("again", **self.fields)
            except RequestError:
                return self._nominal(True)
        return self._nominal(False)

    def report(self, frames: int, **fields: Any) -> Advice:
        return self.advice()

    def close(self) -> None:
        pass


@pytest.fixture
def fake_service(monkeypatch: pytest.MonkeyPatch) -> Iterator[type]:
    monkeypatch.setattr(headroomrate, "Client", FakeClient)
    monkeypatch.setattr(FakeClient, "registrations", [])
    monkeypatch.setattr(FakeClient, "refuse", False)  # the tests' changes are undone
    monkeypatch.setattr(FakeClient, "absent", 0)
    yield FakeClient


def started(fps: str) -> Gst.Pipeline:
    """A started headroomrate (in a pipeline, for its bus) given caps at `fps`."""
    pipeline = Gst.Pipeline()
    element = HeadroomRate()
    element.set_property("poll-interval", 0.05)
    pipeline.add(element)
    assert element.do_start()
    caps = Gst.Caps.from_string(f"video/x-raw,framerate={fps}")
    element.do_set_caps(caps, caps)
    return pipeline


def element_of(pipeline: Gst.Pipeline) -> HeadroomRate:
    return pipeline.iterate_elements().next()[1]


def next_message(pipeline: Gst.Pipeline, kinds: Gst.MessageType,
                 timeout: int = WAIT_NS) -> Optional[Gst.Message]:
    """The next message of `kinds` (errors and warnings always), or None after `timeout`."""
    return pipeline.get_bus().timed_pop_filtered(
        timeout, kinds | Gst.MessageType.ERROR | Gst.MessageType.WARNING)


def stopped(pipeline: Gst.Pipeline) -> None:
    """Stops the element (its advice thread ends)."""
    element_of(pipeline).do_stop()


@pytest.mark.parametrize("absent", [0, 2], ids=["at-once", "after-the-service-came"])
def test_a_refused_registration_warns_once_and_passes_every_buffer(
        fake_service: type, absent: int) -> None:
    fake_service.refuse = True
    fake_service.absent = absent
    pipeline = started("2000/1")
    element = element_of(pipeline)
    try:
        message = next_message(pipeline, Gst.MessageType(0))
        assert message is not None, "no warning within 20 s"
        assert message.type == Gst.MessageType.WARNING, message.parse_error()
        error, _ = message.parse_warning()
        assert "the service refused the registration (nominalFrameRate: expected 0 < fps ≤ " \
               "1000, got 2000.0)" in error.message
        assert "passing every buffer" in error.message
        stamps = frames(Fraction(2000), 200)
        assert through(element, stamps) == stamps
        assert element.get_property("out") == 200 and element.get_property("drop") == 0
    finally:
        stopped(pipeline)
    # Once: refused, the registration is not tried again.
    assert next_message(pipeline, Gst.MessageType(0), 0) is None
    assert len(fake_service.registrations) == absent + 1


def test_a_stream_of_a_frame_every_10000_s_at_its_advised_rate_passes_every_buffer(
        fake_service: type) -> None:
    pipeline = started("1/10000")
    element = element_of(pipeline)
    try:
        message = next_message(pipeline, Gst.MessageType.ELEMENT)
        assert message is not None and message.get_structure().get_name() == "headroom-advice", \
            message and message.get_structure().to_string()
        assert fake_service.registrations[0]["nominal_frame_rate"] == 0.0001
        assert fake_service.registrations[0]["min_frame_rate"] == 0.000025
        element.do_sink_event(segment_event(1.0, 0, Gst.CLOCK_TIME_NONE))
        stamps = frames(Fraction(1, 10000), 6)
        assert through(element, stamps) == stamps
    finally:
        stopped(pipeline)


def test_a_ladder_is_parsed_heaviest_first() -> None:
    ladder = parse_ladder("full:150, coarse:44:0.9")
    assert [(step.name, step.cost, step.quality) for step in ladder.steps] == [
        ("full", 150.0, None), ("coarse", 44.0, 0.9)]


@pytest.mark.parametrize("text, words", [
    ("full", "ladder[0]: expected NAME:COST or NAME:COST:QUALITY"),
    ("full:0", "ladder[0].cost: expected a cost > 0"),
    ("full:nan", "ladder[0].cost: expected a cost > 0"),
    ("full:150,:44", "ladder[1].name: expected a step name of 1 to 64 printable characters"),
    ("full:150:1.5", "ladder[0].quality: expected at most 1"),
    (",".join(f"s{index}:1" for index in range(17)), "ladder: expected 1 to 16 steps, got 17"),
])
def test_a_bad_ladder_is_refused_naming_the_step(text: str, words: str) -> None:
    with pytest.raises(PropertyError, match=re.escape(words)):
        parse_ladder(text)


def test_a_registration_file_gives_its_ladder_and_fields(tmp_path: Path) -> None:
    ladder = parse_ladder(registration(
        tmp_path, '{"name": "people", "priority": 5, "nominalFrameRate": 10, "minFrameRate": 2, '
        '"share": 0.5, "ladder": [{"name": "hog-1.0", "cost": 184}, '
        '{"name": "hog-0.5", "cost": 31, "quality": 0.8}]}'))
    assert [step.name for step in ladder.steps] == ["hog-1.0", "hog-0.5"]
    assert ladder.field("share") == 0.5 and ladder.field("nominalFrameRate") == 10


@pytest.mark.parametrize("body, words", [
    ('{"ladder": [{"name": "a", "cost": 1}], "colour": 1}', "colour: unknown key"),
    ('{"ladder": []}', "ladder: expected an array of 1 to 16 steps"),
    ('{"ladder": [{"name": "a", "cost": -1}]}', "ladder[0].cost: expected a cost > 0"),
    ('{"ladder": [{"name": "a", "cost": 1, "size": 2}]}', "ladder[0].size: unknown key"),
    ('[1, 2]', "expected a JSON object"),
    ('{"ladder": ', "expected JSON"),
    ('{"ladder": [{"name": "a", "cost": 1}], "share": 2}', "share: expected a share above 0"),
    ('{"ladder": [{"name": "a", "cost": 1}], "shedFirst": "pixels"}',
     "shedFirst: expected ladder, frameRate or cheapest, got 'pixels'"),
    ('{"ladder": [{"name": "a", "cost": 1}], "followsLevels": "false"}',
     "followsLevels: expected true or false, got 'false'"),
])
def test_a_bad_registration_file_is_refused_naming_the_field(
        tmp_path: Path, body: str, words: str) -> None:
    with pytest.raises(PropertyError, match=re.escape(words)):
        parse_ladder(registration(tmp_path, body))


@pytest.mark.parametrize("field, words", [
    ('"priority": "high"', "priority: expected an integer from 0 to 100, got 'high'"),
    ('"priority": 101', "priority: expected an integer from 0 to 100, got 101"),
    ('"nominalFrameRate": true', "nominalFrameRate: expected frames a second"),
    ('"minFrameRate": -2', "minFrameRate: expected frames a second"),
    ('"name": 5', "name: expected a string, got 5"),
])
def test_a_registration_file_field_is_checked_as_its_property(
        tmp_path: Path, field: str, words: str) -> None:
    path = registration(tmp_path, '{"ladder": [{"name": "a", "cost": 1}], ' + field + "}")
    element = HeadroomRate()
    element.set_property("ladder", path)
    with pytest.raises(PropertyError, match=re.escape(f"ladder ({path}): {words}")):
        element._settings()


def test_properties_override_a_registration_file(tmp_path: Path) -> None:
    element = HeadroomRate()
    element.set_property("ladder", registration(
        tmp_path, '{"name": "file", "priority": 5, "nominalFrameRate": 10, "minFrameRate": 2, '
        '"ladder": [{"name": "a", "cost": 1}]}'))
    element.set_property("priority", 70)
    settings = element._settings()
    assert (settings.client_name, settings.priority, settings.nominal_rate, settings.min_rate) == (
        "file", 70, 10, 2)
