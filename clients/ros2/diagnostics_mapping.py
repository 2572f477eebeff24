"""What the ROS 2 node publishes, without ROS: the host's pressure reading and each governed
pipeline's advice (API v1, docs/api.md) as plain diagnostic statuses, and the state the node's
threads keep between two publications.

The levels are ``diagnostic_msgs/DiagnosticStatus``'s: OK, WARN, ERROR, STALE. The host's
status follows its pressure level (nominal and fair OK, serious WARN, critical and shutdown
ERROR); a pipeline's follows its advice (OK at its settings, WARN while shed, ERROR while
told to pause); every status is STALE while the service does not answer. Standard library
and ``headroom_client`` only, so it is tested without ROS (clients/ros2/tests).
"""

from __future__ import annotations

import enum
import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from headroom_client import Advice, GovernedClient, ProtocolError

__all__ = [
    "CLIENT_STATUS_PREFIX",
    "HOST_STATUS_NAME",
    "DiagnosticsState",
    "Level",
    "Status",
    "client_status",
    "host_status",
    "level_of_pressure",
    "statuses_as_text",
]

#: The host's status's name (rqt_robot_monitor and diagnostic_aggregator group by name).
HOST_STATUS_NAME = "headroom: host pressure"
#: A governed pipeline's status's name is this and the pipeline's name.
CLIENT_STATUS_PREFIX = "headroom: client "

# The service's pressure levels, mildest first.
_PRESSURE_LEVELS = ("nominal", "fair", "serious", "critical", "shutdown")


class Level(enum.IntEnum):
    """A diagnostic level, with ``diagnostic_msgs/DiagnosticStatus``'s values."""

    OK = 0
    WARN = 1
    ERROR = 2
    STALE = 3


@dataclass(frozen=True)
class Status:
    """One ``diagnostic_msgs/DiagnosticStatus``: its level, name, message, hardware id and
    key/values (both strings), in the order they are published."""

    level: Level
    name: str
    message: str
    hardware_id: str
    values: Tuple[Tuple[str, str], ...]

    def value(self, key: str) -> Optional[str]:
        """The value under `key`; None when the status has no such key."""
        return next((value for name, value in self.values if name == key), None)


def level_of_pressure(level: str) -> Level:
    """The diagnostic level of a pressure level: nominal and fair OK, serious WARN, critical
    and shutdown ERROR. A level this node does not know (a newer service) is WARN: someone
    should look, and the message names it."""
    if level in ("nominal", "fair"):
        return Level.OK
    if level == "serious":
        return Level.WARN
    if level in ("critical", "shutdown"):
        return Level.ERROR
    return Level.WARN


def _severity(level: Any) -> int:
    """The rank of a pressure level (an unknown one ranks above shutdown)."""
    return _PRESSURE_LEVELS.index(level) if level in _PRESSURE_LEVELS else len(_PRESSURE_LEVELS)


def _number(value: Any) -> Optional[float]:
    """`value` when it is a finite number (not a boolean); None otherwise (JSON's null)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _decimal(value: Optional[float], places: int) -> str:
    """`value` to `places` decimals, as a person reads it; ``unknown`` for None."""
    if value is None:
        return "unknown"
    text = f"{value:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _factors(reading: Mapping[str, Any]) -> List[Mapping[str, Any]]:
    """The reading's factors, most severe first (the service's order among equals)."""
    factors = [factor for factor in reading.get("factors") or [] if isinstance(factor, Mapping)]
    return sorted(factors, key=lambda factor: -_severity(factor.get("level")))


def host_status(reading: Mapping[str, Any], hardware_id: str, clients: int) -> Status:
    """The host's status from a pressure reading (``GET /v1/pressure`` or a ``pressure``
    event): its level from the pressure level, the message the level and the most severe
    factor above nominal, and as values the level, every factor (``factor KIND``: its level
    and detail), the hottest temperature, the thermal headroom and its forecast, the
    sustainable share, throttling, under-voltage and board power where the host has them, and
    the number of governed pipelines. A value the host cannot give now is ``unknown``; a key
    the host has no source for (no thermal sensor, no supply signal, no power rails) is left
    out."""
    level = str(reading.get("level", "unknown"))
    factors = _factors(reading)
    values: List[Tuple[str, str]] = [("level", level)]
    for factor in factors:
        values.append((f"factor {factor.get('kind', 'unknown')}",
                       f"{factor.get('level', 'unknown')}: {factor.get('detail', '')}"))
    sensors = [sensor for sensor in reading.get("sensors") or [] if isinstance(sensor, Mapping)]
    temperatures = [_number(sensor.get("celsius")) for sensor in sensors]
    hottest = max((celsius for celsius in temperatures if celsius is not None), default=None)
    if hottest is not None:
        values.append(("temperature_c", _decimal(hottest, 1)))
    headroom = reading.get("headroom")
    if isinstance(headroom, Mapping) and hottest is not None:
        values.append(("headroom", _decimal(_number(headroom.get("current")), 2)))
        values.append(("headroom_forecast", _decimal(_number(headroom.get("forecast")), 2)))
        values.append(("forecast_seconds", _decimal(_number(headroom.get("forecastSeconds")), 1)))
    share = _number(reading.get("sustainableShare"))
    values.append(("sustainable_percent", _decimal(None if share is None else share * 100, 0)))
    values.append(("throttled", _flag(any(
        factor.get("kind") == "cpuThrottling" and _severity(factor.get("level")) > 0
        for factor in factors))))
    supply = [factor for factor in factors if factor.get("kind") == "powerSupply"]
    if supply:
        values.append(("under_voltage", _flag(_severity(supply[0].get("level")) > 0)))
    board = reading.get("board")
    rails = board.get("rails") if isinstance(board, Mapping) else None
    if isinstance(rails, list) and rails:
        watts = [_number(rail.get("watts")) for rail in rails
                 if isinstance(rail, Mapping) and rail.get("fault") is None]
        values.append(("power_w", _decimal(max((w for w in watts if w is not None),
                                               default=None), 1)))
    values.append(("simulated", _flag(reading.get("simulated") is True)))
    values.append(("clients", str(clients)))

    message = level
    above = [factor for factor in factors if _severity(factor.get("level")) > 0]
    if above:
        message = f"{level}: {above[0].get('detail') or above[0].get('kind', '')}"
    if level not in _PRESSURE_LEVELS:
        message = f"pressure level {level!r} unknown to this node (a newer service?)"
    return Status(level_of_pressure(level), HOST_STATUS_NAME, message, hardware_id,
                  tuple(values))


def _settings(advice: Advice) -> str:
    """The advised settings in words: ``5 fps, small`` or ``paused``."""
    if advice.is_paused:
        return "paused"
    return f"{_decimal(advice.frame_rate, 2)} fps, {advice.ladder_name}"


def client_status(
    name: str, client_id: str, advice: Advice, hardware_id: str, priority: Optional[int] = None,
) -> Status:
    """A governed pipeline's status from its advice. OK while the governor acts on it as
    nominal or fair (its own settings, or the policy's at fair); WARN while it is shed (acting
    as serious or critical: a lower frame rate or a lighter ladder step than its own); ERROR
    while it is told to pause (frame rate 0, as at shutdown), since its work is then not done.
    The message is the settings (and why); the values are the advised rate, the ladder step
    and its name, the levels and the governor's reason."""
    acting = advice.acting_level
    if advice.is_paused:
        level, message = Level.ERROR, f"paused (acting as {acting})"
    elif acting in ("nominal", "fair"):
        level, message = Level.OK, _settings(advice)
    elif acting in ("serious", "critical", "shutdown"):
        level, message = Level.WARN, f"shed as {acting}: {_settings(advice)}"
    else:
        level, message = Level.WARN, f"acting level {acting!r} unknown to this node: {_settings(advice)}"
    values: List[Tuple[str, str]] = [("id", client_id)]
    if priority is not None:
        values.append(("priority", str(priority)))
    values += [
        ("advised_rate_fps", _decimal(advice.frame_rate, 2)),
        ("paused", _flag(advice.is_paused)),
        ("ladder_step", str(advice.ladder_step)),
        ("ladder_name", advice.ladder_name),
        ("level", advice.level),
        ("acting_level", acting),
        ("reason", advice.reason),
    ]
    return Status(level, CLIENT_STATUS_PREFIX + name, message, hardware_id, tuple(values))


@dataclass
class _Pipeline:
    name: str
    priority: Optional[int]
    advice: Advice


class DiagnosticsState:
    """What the node knows of the service between two publications, shared by the thread
    following ``/v1/events``, the thread polling ``/v1/pressure`` and ``/v1/clients``, and the
    publisher: the latest reading, each governed pipeline's latest advice, and when the
    service last answered a poll. Every method takes a lock and returns at once.

    ``clock`` gives monotonic seconds (``time.monotonic``; a test passes its own). The
    statuses are STALE once no poll has been answered for more than ``stale_after`` seconds,
    or before the first. Only a poll makes them fresh: it also says which pipelines are
    governed, so a service that restarted is not shown with the pipelines of the one that
    died. Events, between polls, bring a change of level or advice at once."""

    def __init__(self, url: str, hardware_id: str, stale_after: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self.hardware_id = hardware_id
        self.stale_after = stale_after
        self._clock = clock
        self._lock = threading.Lock()
        self._reading: Optional[Mapping[str, Any]] = None
        self._pipelines: Dict[str, _Pipeline] = {}
        self._answered_at: Optional[float] = None
        self._error: Optional[str] = None

    def polled(self, reading: Mapping[str, Any], clients: Sequence[GovernedClient]) -> None:
        """A successful poll: the current reading and the pipelines governed now (those not
        listed have left). An advice event newer than the listing (a higher ``seq``) is kept."""
        with self._lock:
            self._answered_at = self._clock()
            self._error = None
            self._reading = reading
            pipelines: Dict[str, _Pipeline] = {}
            for client in clients:
                known = self._pipelines.get(client.id)
                advice = client.advice
                if known is not None and known.advice.seq > advice.seq:
                    advice = known.advice
                pipelines[client.id] = _Pipeline(client.name, client.priority, advice)
            self._pipelines = pipelines

    def pressure_event(self, reading: Mapping[str, Any]) -> None:
        """A ``pressure`` event: the reading at a change of level, kept unless an older one
        than the reading already kept (by its ``time``)."""
        with self._lock:
            kept = self._reading
            kept_time = _number(kept.get("time")) if kept is not None else None
            new_time = _number(reading.get("time"))
            if kept_time is None or new_time is None or new_time >= kept_time:
                self._reading = reading

    def advice_event(self, data: Mapping[str, Any]) -> None:
        """An ``advice`` event (``{"client", "name", "advice"}``): that pipeline's advice,
        unless an older one (a lower ``seq``) than the advice kept. Raises ValueError for data
        of another shape (the caller skips the event)."""
        client_id, name = data.get("client"), data.get("name")
        if not isinstance(client_id, str) or not isinstance(name, str):
            raise ValueError("advice event: expected \"client\" and \"name\" strings")
        try:
            advice = Advice.from_json(data.get("advice"), "advice event: advice")
        except ProtocolError as error:
            raise ValueError(str(error)) from None
        with self._lock:
            known = self._pipelines.get(client_id)
            if known is not None and known.advice.seq > advice.seq:
                return
            priority = known.priority if known is not None else None
            self._pipelines[client_id] = _Pipeline(name, priority, advice)

    def failed(self, error: str) -> None:
        """The service did not answer a poll: `error` says why (kept for the STALE message)."""
        with self._lock:
            self._error = error

    @property
    def is_stale(self) -> bool:
        """Whether the statuses are STALE now: no answer yet, or none for ``stale_after``."""
        with self._lock:
            return self._is_stale(self._clock())

    def _is_stale(self, now: float) -> bool:
        return self._answered_at is None or now - self._answered_at > self.stale_after

    def statuses(self) -> List[Status]:
        """The statuses to publish now: the host's, then one per governed pipeline (in the
        service's order, highest priority first), named by the pipeline's name (and its id
        when two share a name). While stale, every status is STALE: the host's message says
        since when and why, its values the service's URL, the last level and the error; the
        pipelines' keep their last values."""
        with self._lock:
            now = self._clock()
            stale = self._is_stale(now)
            names = [pipeline.name for pipeline in self._pipelines.values()]
            pipelines = [
                client_status(
                    pipeline.name if names.count(pipeline.name) == 1
                    else f"{pipeline.name} ({client_id})",
                    client_id, pipeline.advice, self.hardware_id, pipeline.priority)
                for client_id, pipeline in self._pipelines.items()
            ]
            if not stale and self._reading is not None:
                return [host_status(self._reading, self.hardware_id, len(pipelines)), *pipelines]
            return [self._stale_host(now), *(
                Status(Level.STALE, status.name, f"headroom service gone; last: {status.message}",
                       status.hardware_id, status.values) for status in pipelines)]

    def _stale_host(self, now: float) -> Status:
        error = self._error
        if error is not None and error.startswith(self.url + ": "):
            error = error[len(self.url) + 2:]  # the URL is said once
        why = f": {error}" if error else ""
        values: List[Tuple[str, str]] = [("url", self.url)]
        if self._answered_at is None:
            message = f"no answer yet from the headroom service at {self.url}{why}"
        else:
            silent = now - self._answered_at
            message = (f"headroom service gone: no answer from {self.url} for "
                       f"{silent:.0f} s{why}")
            values.append(("seconds_since_answer", f"{silent:.0f}"))
        if self._reading is not None:
            values.append(("last_level", str(self._reading.get("level", "unknown"))))
        if self._error:
            values.append(("error", self._error))
        return Status(Level.STALE, HOST_STATUS_NAME, message, self.hardware_id, tuple(values))


def statuses_as_text(statuses: Iterable[Status]) -> str:
    """The statuses one per line with their values, for logs and test output."""
    lines = []
    for status in statuses:
        lines.append(f"[{status.level.name}] {status.name}: {status.message}")
        lines.extend(f"    {key}: {value}" for key, value in status.values)
    return "\n".join(lines)
