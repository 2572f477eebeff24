"""headroomrate's pacing and property parsing, without a pipeline (scripts/gstreamer-checks.sh
runs these, then the element in real gst-launch-1.0 pipelines).

Run: PYTHONPATH=clients/gstreamer/python:clients/python python3 -m pytest clients/gstreamer/tests
"""

import re
from fractions import Fraction
from pathlib import Path
from typing import List, Optional

import pytest

from headroomrate import Gate, HeadroomRate, PropertyError, parse_ladder

SECOND = 1_000_000_000
# Stream rates as caps give them: 30000/1001 is NTSC's 29.97.
STREAMS = [Fraction(25), Fraction(30), Fraction(60), Fraction(30000, 1001)]
RATES = [0.5, 1, 2, 5, 7.5, 10, 12.5, 15, 20, 24, 29.97, 30]


def timestamps(fps: Fraction, seconds: int) -> List[int]:
    """Buffer timestamps as a GStreamer source writes them: frame k at k / fps, rounded down
    to whole nanoseconds (gst_util_uint64_scale)."""
    return [k * SECOND * fps.denominator // fps.numerator for k in range(int(fps * seconds))]


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
