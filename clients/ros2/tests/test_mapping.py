"""The statuses the ROS 2 node publishes, made from API v1's JSON without ROS: levels, names,
messages, key/values, and the state between publications on a clock the test moves."""

import copy
from typing import Any, Dict, List

import pytest

from diagnostics_mapping import (
    CLIENT_STATUS_PREFIX,
    HOST_STATUS_NAME,
    DiagnosticsState,
    Level,
    client_status,
    host_status,
    level_of_pressure,
    statuses_as_text,
)
from headroom_client import Advice, GovernedClient

# A reading as GET /v1/pressure gives it (from the replayed thermal ramp, at serious).
SERIOUS: Dict[str, Any] = {
    "factors": [
        {"detail": "cpu stalled 6.75% of the last 10 s", "kind": "cpuPressure",
         "level": "nominal", "unit": "percent", "value": 6.75},
        {"detail": "simulated CPU (thermal model) at +82.1 °C ≥ serious threshold +80.0 °C",
         "kind": "systemTemperature", "level": "serious", "sensor": "model/cpu",
         "unit": "celsius", "value": 82.12946600399573},
        {"detail": "cpufreq at 50 % of its maximum", "kind": "cpuThrottling", "level": "fair",
         "unit": "percent", "value": 50},
    ],
    "headroom": {"current": 1.070982200133191, "forecast": None, "forecastSeconds": 10},
    "level": "serious",
    "sensors": [
        {"celsius": 82.12946600399573, "critical": 95, "high": 80, "id": "model/cpu",
         "label": "simulated CPU (thermal model)", "source": "model", "stale": False},
        {"celsius": None, "id": "psi/cpu", "source": "psi", "unit": "percent", "value": 6.75},
    ],
    "simulated": True,
    "sustainableShare": 0.1,
    "time": 100.0,
    "version": 1,
}


def reading(level: str, time: float = 100.0, **changes: Any) -> Dict[str, Any]:
    value = copy.deepcopy(SERIOUS)
    value.update(level=level, time=time, **changes)
    if level in ("nominal", "fair"):
        for factor in value["factors"]:
            factor["level"] = "nominal"
    return value


def advice(seq: int = 1, acting: str = "nominal", rate: float = 10, step: int = 0,
           name: str = "full") -> Advice:
    return Advice(seq=seq, level=acting, acting_level=acting, frame_rate=rate,
                  ladder_step=step, ladder_name=name, reason=f"{acting}: {rate:g} fps, {name}")


def advice_json(value: Advice) -> Dict[str, Any]:
    return {"seq": value.seq, "level": value.level, "actingLevel": value.acting_level,
            "frameRate": value.frame_rate, "ladderStep": value.ladder_step,
            "ladderName": value.ladder_name, "reason": value.reason}


def governed(client_id: str, name: str, priority: int, value: Advice) -> GovernedClient:
    return GovernedClient(id=client_id, name=name, priority=priority, share=0.2, demand=0.2,
                          advice=value)


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("pressure, expected", [
    ("nominal", Level.OK), ("fair", Level.OK), ("serious", Level.WARN),
    ("critical", Level.ERROR), ("shutdown", Level.ERROR), ("boiling", Level.WARN),
])
def test_pressure_levels_map_to_diagnostic_levels(pressure: str, expected: Level) -> None:
    assert level_of_pressure(pressure) == expected
    assert host_status(reading(pressure), "cam", 0).level == expected


def test_levels_have_diagnostic_msgs_values() -> None:
    # diagnostic_msgs/DiagnosticStatus: OK=0, WARN=1, ERROR=2, STALE=3.
    assert [int(level) for level in (Level.OK, Level.WARN, Level.ERROR, Level.STALE)] == [0, 1, 2, 3]


def test_the_host_status_names_the_level_and_its_most_severe_factor() -> None:
    status = host_status(SERIOUS, "cam", 2)
    assert status.name == HOST_STATUS_NAME
    assert status.hardware_id == "cam"
    assert status.message == (
        "serious: simulated CPU (thermal model) at +82.1 °C ≥ serious threshold +80.0 °C")
    assert dict(status.values) == {
        "level": "serious",
        "factor systemTemperature": "serious: simulated CPU (thermal model) at +82.1 °C ≥ "
                                    "serious threshold +80.0 °C",
        "factor cpuThrottling": "fair: cpufreq at 50 % of its maximum",
        "factor cpuPressure": "nominal: cpu stalled 6.75% of the last 10 s",
        "temperature_c": "82.1",
        "headroom": "1.07",
        "headroom_forecast": "unknown",
        "forecast_seconds": "10",
        "sustainable_percent": "10",
        "throttled": "true",
        "simulated": "true",
        "clients": "2",
    }
    # Most severe factor first.
    assert [key for key, _ in status.values][1:4] == [
        "factor systemTemperature", "factor cpuThrottling", "factor cpuPressure"]


def test_a_nominal_host_says_only_its_level() -> None:
    status = host_status(reading("nominal"), "cam", 0)
    assert status.message == "nominal"
    assert status.value("throttled") == "false"


def test_an_unknown_level_is_named_in_the_message() -> None:
    status = host_status(reading("boiling"), "cam", 0)
    assert "'boiling'" in status.message and "unknown" in status.message


def test_keys_the_host_has_no_source_for_are_left_out() -> None:
    bare = reading("nominal", sensors=[], factors=[])
    keys = {key for key, _ in host_status(bare, "cam", 0).values}
    assert not keys & {"temperature_c", "headroom", "headroom_forecast", "under_voltage",
                       "power_w"}
    assert {"level", "sustainable_percent", "throttled", "simulated", "clients"} <= keys


def test_a_board_gives_under_voltage_and_power() -> None:
    board = reading("serious", board={"rails": [
        {"id": "vdd_in", "watts": 7.26}, {"id": "vdd_cpu", "watts": 3.1},
        {"id": "broken", "watts": 99, "fault": "no reading"}]})
    board["factors"].append({"kind": "powerSupply", "level": "serious",
                             "detail": "under-voltage now (firmware 0x50005)"})
    status = host_status(board, "pi", 0)
    assert status.value("under_voltage") == "true"
    assert status.value("power_w") == "7.3"


@pytest.mark.parametrize("value, level, message", [
    (advice(), Level.OK, "10 fps, full"),
    (advice(acting="fair", rate=10), Level.OK, "10 fps, full"),
    (advice(acting="serious", rate=5, step=1, name="small"), Level.WARN,
     "shed as serious: 5 fps, small"),
    (advice(acting="critical", rate=2.5, step=2, name="tiny"), Level.WARN,
     "shed as critical: 2.5 fps, tiny"),
    (advice(acting="shutdown", rate=0, step=2, name="tiny"), Level.ERROR,
     "paused (acting as shutdown)"),
])
def test_a_pipeline_is_ok_at_its_settings_warn_when_shed_error_when_paused(
        value: Advice, level: Level, message: str) -> None:
    status = client_status("people", "abc", value, "cam", priority=5)
    assert (status.level, status.message) == (level, message)
    assert status.name == CLIENT_STATUS_PREFIX + "people"
    assert dict(status.values) == {
        "id": "abc", "priority": "5", "advised_rate_fps": f"{value.frame_rate:g}",
        "paused": "true" if value.frame_rate == 0 else "false",
        "ladder_step": str(value.ladder_step), "ladder_name": value.ladder_name,
        "level": value.level, "acting_level": value.acting_level, "reason": value.reason,
    }


def test_before_any_answer_everything_is_stale_and_says_why() -> None:
    state = DiagnosticsState("http://127.0.0.1:9", "cam", 3, clock=ManualClock())
    assert state.is_stale
    state.failed("connection refused")
    [host] = state.statuses()
    assert host.level == Level.STALE
    assert host.message == ("no answer yet from the headroom service at http://127.0.0.1:9: "
                            "connection refused")
    assert host.value("url") == "http://127.0.0.1:9"


def test_a_poll_gives_the_host_and_each_pipeline_highest_priority_first() -> None:
    clock = ManualClock()
    state = DiagnosticsState("http://h", "cam", 3, clock=clock)
    state.polled(SERIOUS, [governed("b", "frigate", 9, advice()),
                           governed("a", "people", 2, advice(acting="serious", rate=5))])
    statuses = state.statuses()
    assert [status.name for status in statuses] == [
        HOST_STATUS_NAME, "headroom: client frigate", "headroom: client people"]
    assert [status.level for status in statuses] == [Level.WARN, Level.OK, Level.WARN]
    assert statuses[0].value("clients") == "2"
    assert statuses[1].value("priority") == "9"


def test_the_service_gone_makes_every_status_stale_after_the_limit() -> None:
    clock = ManualClock()
    state = DiagnosticsState("http://h", "cam", 3, clock=clock)
    state.polled(SERIOUS, [governed("a", "people", 2, advice())])
    clock.now += 3  # at the limit: still fresh
    state.failed("http://h: connection refused")
    assert [status.level for status in state.statuses()] == [Level.WARN, Level.OK]
    clock.now += 0.5
    host, people = state.statuses()
    assert (host.level, people.level) == (Level.STALE, Level.STALE)
    assert host.message == (
        "headroom service gone: no answer from http://h for 4 s: connection refused")
    assert dict(host.values) == {"url": "http://h", "seconds_since_answer": "4",
                                 "last_level": "serious", "error": "http://h: connection refused"}
    assert people.message == "headroom service gone; last: 10 fps, full"
    assert people.value("ladder_name") == "full"
    # Back: fresh again at once.
    state.polled(reading("fair", time=200), [])
    assert [status.level for status in state.statuses()] == [Level.OK]


def test_only_a_poll_makes_the_statuses_fresh() -> None:
    # After a restart the events may come back before a poll says which pipelines are
    # governed: until then, the pipelines of the service that died stay STALE.
    clock = ManualClock()
    state = DiagnosticsState("http://h", "cam", 3, clock=clock)
    state.pressure_event(reading("critical", time=5))
    assert state.is_stale
    state.polled(reading("critical", time=5), [governed("a", "people", 2, advice())])
    clock.now += 4
    state.pressure_event(reading("fair", time=9))
    state.advice_event({"client": "a", "name": "people", "advice": advice_json(advice(seq=2))})
    assert [status.level for status in state.statuses()] == [Level.STALE, Level.STALE]
    state.polled(reading("fair", time=10), [])
    [host] = state.statuses()
    assert (host.level, host.value("level")) == (Level.OK, "fair")


def test_an_event_brings_a_change_between_polls() -> None:
    state = DiagnosticsState("http://h", "cam", 3, clock=ManualClock())
    state.polled(reading("serious", time=5), [])
    state.pressure_event(reading("critical", time=6))
    assert state.statuses()[0].level == Level.ERROR


def test_an_older_pressure_event_does_not_replace_a_newer_reading() -> None:
    state = DiagnosticsState("http://h", "cam", 3, clock=ManualClock())
    state.polled(reading("critical", time=200), [])
    state.pressure_event(reading("serious", time=150))
    assert state.statuses()[0].value("level") == "critical"
    state.pressure_event(reading("serious", time=250))
    assert state.statuses()[0].value("level") == "serious"


def test_advice_events_add_pipelines_and_newer_advice_wins() -> None:
    state = DiagnosticsState("http://h", "cam", 3, clock=ManualClock())
    state.polled(SERIOUS, [governed("a", "people", 2, advice(seq=3))])
    state.advice_event({"client": "a", "name": "people",
                        "advice": advice_json(advice(seq=4, acting="serious", rate=5))})
    state.advice_event({"client": "a", "name": "people", "advice": advice_json(advice(seq=2))})
    state.advice_event({"client": "n", "name": "new", "advice": advice_json(advice())})
    _, people, new = state.statuses()
    assert (people.message, people.value("priority")) == ("shed as serious: 5 fps, full", "2")
    assert new.name == "headroom: client new" and new.value("priority") is None
    # A listing older than the event keeps the event's advice; a pipeline not listed left.
    state.polled(SERIOUS, [governed("a", "people", 2, advice(seq=3))])
    assert [status.message for status in state.statuses()[1:]] == ["shed as serious: 5 fps, full"]


def test_an_advice_event_of_another_shape_is_refused() -> None:
    state = DiagnosticsState("http://h", "cam", 3, clock=ManualClock())
    with pytest.raises(ValueError):
        state.advice_event({"client": 5, "name": "x", "advice": {}})
    with pytest.raises(ValueError):
        state.advice_event({"client": "a", "name": "x", "advice": {"seq": "one"}})
    assert state.is_stale


def test_pipelines_sharing_a_name_are_told_apart_by_id() -> None:
    state = DiagnosticsState("http://h", "cam", 3, clock=ManualClock())
    state.polled(SERIOUS, [governed("a1", "cam", 5, advice()), governed("b2", "cam", 5, advice()),
                           governed("c3", "other", 1, advice())])
    names: List[str] = [status.name for status in state.statuses()[1:]]
    assert names == ["headroom: client cam (a1)", "headroom: client cam (b2)",
                     "headroom: client other"]


def test_statuses_as_text_lists_levels_and_values() -> None:
    text = statuses_as_text([host_status(reading("nominal"), "cam", 0)])
    assert text.splitlines()[0] == "[OK] headroom: host pressure: nominal"
    assert "    level: nominal" in text.splitlines()
