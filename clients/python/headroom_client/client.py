"""The HTTP client of Headroom's API v1 (see docs/api.md)."""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

__all__ = [
    "Advice",
    "Client",
    "Event",
    "HeadroomError",
    "LadderStep",
    "RequestError",
    "ServiceUnavailable",
]

DEFAULT_URL = "http://127.0.0.1:9464"


class HeadroomError(Exception):
    """Base class of the client's errors."""


class ServiceUnavailable(HeadroomError):
    """The service could not be reached (not running, gone away, or backing off)."""


class RequestError(HeadroomError):
    """The service refused a request (HTTP 4xx): ``path`` names the field, ``problem`` says
    what was expected."""

    def __init__(self, status: int, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.status = status
        self.path = path
        self.problem = problem


@dataclass(frozen=True)
class LadderStep:
    """One inference setting of your pipeline, with its cost relative to the others and, if
    you measured it, its quality from 0 to 1 (with ``follows_levels``, the governor picks the
    cheapest step within the quality the policy lets a pressure level lose)."""

    name: str
    cost: float
    quality: Optional[float] = None


@dataclass(frozen=True)
class Advice:
    """What the governor advises: run at ``frame_rate`` (0 = pause) with ladder step
    ``ladder_step``. ``is_fallback`` is true when the service was unreachable and this is your
    own nominal settings."""

    seq: int
    level: str
    acting_level: str
    frame_rate: float
    ladder_step: int
    ladder_name: str
    reason: str
    is_fallback: bool = False

    @classmethod
    def from_json(cls, value: Dict[str, Any]) -> "Advice":
        return cls(
            seq=int(value["seq"]),
            level=str(value["level"]),
            acting_level=str(value["actingLevel"]),
            frame_rate=float(value["frameRate"]),
            ladder_step=int(value["ladderStep"]),
            ladder_name=str(value["ladderName"]),
            reason=str(value["reason"]),
        )

    @property
    def is_paused(self) -> bool:
        """Whether the advice is to stop processing until told otherwise."""
        return self.frame_rate == 0


@dataclass(frozen=True)
class Event:
    """One Server-Sent Event: ``name`` is ``pressure`` or ``advice``, ``data`` its JSON."""

    id: Optional[int]
    name: str
    data: Dict[str, Any]


@dataclass
class _Registration:
    name: str
    priority: int
    nominal_frame_rate: float
    min_frame_rate: float
    ladder: List[LadderStep]
    share: Optional[float]
    shed_first: Optional[str]
    follows_levels: bool

    def body(self) -> Dict[str, Any]:
        body: Dict[str, Any] = {
            "name": self.name,
            "priority": self.priority,
            "nominalFrameRate": self.nominal_frame_rate,
            "minFrameRate": self.min_frame_rate,
            "ladder": [_step_body(step) for step in self.ladder],
        }
        if self.share is not None:
            body["share"] = self.share
        if self.shed_first is not None:
            body["shedFirst"] = self.shed_first
        if self.follows_levels:
            body["followsLevels"] = True
        return body

    def nominal(self, reason: str) -> Advice:
        return Advice(
            seq=0,
            level="unknown",
            acting_level="unknown",
            frame_rate=self.nominal_frame_rate,
            ladder_step=0,
            ladder_name=self.ladder[0].name,
            reason=reason,
            is_fallback=True,
        )


def _step_body(step: LadderStep) -> Dict[str, Any]:
    body: Dict[str, Any] = {"name": step.name, "cost": step.cost}
    if step.quality is not None:
        body["quality"] = step.quality
    return body


class _UnixConnection(http.client.HTTPConnection):
    """An HTTP connection over a Unix domain socket."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self._path)


class Client:
    """A client of ``headroom serve``.

    ``url`` is ``http://HOST:PORT`` (default ``http://127.0.0.1:9464``), ``unix:PATH`` or a
    socket path. Every call has a ``timeout`` (seconds). After the service fails to answer, the
    client waits ``backoff`` seconds (doubling up to ``max_backoff``) before trying again; in
    between, and whenever it cannot reach the service, :meth:`advice` and :meth:`report` give
    nominal advice at once, never an exception, so your pipeline keeps running.
    """

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        timeout: float = 2.0,
        token: Optional[str] = None,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
    ) -> None:
        if url.startswith("unix:"):
            self._socket_path: Optional[str] = url[len("unix:"):]
        elif url.startswith("/"):
            self._socket_path = url
        else:
            self._socket_path = None
            parsed = urllib.parse.urlsplit(url)
            if parsed.scheme != "http" or not parsed.hostname:
                raise ValueError(f"url: expected http://HOST:PORT or unix:PATH, got {url!r}")
            self._host = parsed.hostname
            self._port = parsed.port or 80
        self.url = url
        self.timeout = timeout
        self.token = token
        self._backoff_initial = backoff
        self._max_backoff = max_backoff
        self._backoff = backoff
        self._retry_at = 0.0
        self._registration: Optional[_Registration] = None
        self._id: Optional[str] = None
        self._last_advice: Optional[Advice] = None

    # Connection.

    def _connection(self, timeout: Optional[float] = None) -> http.client.HTTPConnection:
        timeout = self.timeout if timeout is None else timeout
        if self._socket_path is not None:
            return _UnixConnection(self._socket_path, timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=timeout)

    def _request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        """One request; the decoded JSON answer (None for 204). Raises ServiceUnavailable when
        the service cannot be reached (or while backing off), RequestError for a 4xx."""
        now = time.monotonic()
        if now < self._retry_at:
            raise ServiceUnavailable(f"backing off for {self._retry_at - now:.1f} s")
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        connection = self._connection()
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            status = response.status
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self._retry_at = time.monotonic() + self._backoff
            self._backoff = min(self._backoff * 2, self._max_backoff)
            raise ServiceUnavailable(f"{self.url}: {error}") from error
        finally:
            connection.close()
        self._backoff = self._backoff_initial
        self._retry_at = 0.0
        value = json.loads(data) if data else None
        if status >= 500:
            raise ServiceUnavailable(_problem(value) or f"HTTP {status}")
        if status >= 400:
            value = value if isinstance(value, dict) else {}
            raise RequestError(status, str(value.get("path", "")), _problem(value) or f"HTTP {status}")
        return value

    # The API.

    def pressure(self) -> Dict[str, Any]:
        """The host's pressure reading (``status --json``'s fields, ``version`` 1): ``level``,
        ``factors``, ``headroom``, ``sustainableShare``, …"""
        value = self._request("GET", "/v1/pressure")
        assert isinstance(value, dict)
        return value

    def estimate(self, session: Dict[str, Any]) -> Dict[str, Any]:
        """Prices a capture session (the CLI's session JSON): ``hardwareCost``, ``fits``,
        ``budgets``, ``cameras``. Raises RequestError naming the field of a bad session."""
        value = self._request("POST", "/v1/estimate", session)
        assert isinstance(value, dict)
        return value

    def register(
        self,
        name: str,
        *,
        priority: int,
        nominal_frame_rate: float,
        min_frame_rate: float,
        ladder: Sequence[Union[LadderStep, Dict[str, Any]]],
        share: Optional[float] = None,
        shed_first: Optional[str] = None,
        follows_levels: bool = False,
    ) -> Advice:
        """Registers your pipeline (its inference ladder heaviest first) and returns its first
        advice; nominal advice if the service cannot be reached (registration is retried by
        later calls). ``shed_first`` is ``"ladder"``, ``"frameRate"`` or ``"cheapest"`` (the
        default): which knob the governor turns first. ``follows_levels`` also keeps your
        pipeline to the policy's settings at each pressure level (20 fps at ``serious`` by
        default), as ``headroom run`` does, however much budget is left. Raises RequestError
        for a registration the service refuses."""
        steps = [step if isinstance(step, LadderStep) else LadderStep(**step) for step in ladder]
        if not steps:
            raise ValueError("ladder: expected at least one step")
        self._registration = _Registration(
            name, priority, nominal_frame_rate, min_frame_rate, steps, share, shed_first,
            follows_levels,
        )
        self._id = None
        try:
            return self._register()
        except ServiceUnavailable as error:
            return self._fallback(error)

    @property
    def client_id(self) -> Optional[str]:
        """The id the service gave this pipeline; None while not registered."""
        return self._id

    def advice(self) -> Advice:
        """The current advice (renewing the lease); registers again if the service forgot
        this pipeline (its lease ended, or the service restarted); nominal advice while the
        service cannot be reached."""
        return self._with_registration(lambda id: self._request("GET", f"/v1/clients/{id}/advice"))

    def report(
        self,
        frames: int,
        *,
        work_seconds: Union[Sequence[float], Dict[str, float]],
        target_seconds: float,
        late: int = 0,
        dropped: int = 0,
    ) -> Advice:
        """Reports the frames since the last report and how long their work took (a list of
        seconds, or ``{"p50", "p95"}``) against ``target_seconds``; returns the advice after it.
        A pipeline whose frames are late is lightened by itself."""
        body = {
            "frames": frames,
            "late": late,
            "dropped": dropped,
            "workSeconds": work_seconds if isinstance(work_seconds, dict) else list(work_seconds),
            "targetSeconds": target_seconds,
        }
        return self._with_registration(
            lambda id: self._request("POST", f"/v1/clients/{id}/report", body)
        )

    def close(self) -> None:
        """Unregisters the pipeline (best effort)."""
        if self._id is not None:
            try:
                self._request("DELETE", f"/v1/clients/{self._id}")
            except HeadroomError:
                pass
        self._id = None
        self._registration = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def events(self, last_event_id: Optional[int] = None) -> Iterator[Event]:
        """Server-Sent Events (``pressure`` and ``advice``) for as long as you iterate;
        reconnects with backoff and ``Last-Event-ID`` when the stream ends or the service goes
        away, so no event is missed while the service keeps it."""
        while True:
            connection = None
            try:
                connection = self._connection(timeout=max(self.timeout, 30.0))
                headers = {"Accept": "text/event-stream"}
                if last_event_id is not None:
                    headers["Last-Event-ID"] = str(last_event_id)
                connection.request("GET", "/v1/events", headers=headers)
                response = connection.getresponse()
                if response.status != 200:
                    raise ServiceUnavailable(f"events: HTTP {response.status}")
                self._backoff = self._backoff_initial
                for event in _parse_events(response):
                    if event.id is not None:
                        last_event_id = event.id
                    yield event
            except (OSError, http.client.HTTPException, HeadroomError):
                pass
            finally:
                if connection is not None:
                    connection.close()
            time.sleep(self._backoff)
            self._backoff = min(self._backoff * 2, self._max_backoff)

    # Registration and fallback.

    def _register(self) -> Advice:
        assert self._registration is not None
        value = self._request("POST", "/v1/clients", self._registration.body())
        self._id = str(value["id"])
        advice = Advice.from_json(value["advice"])
        self._last_advice = advice
        return advice

    def _with_registration(self, call: Any) -> Advice:
        if self._registration is None:
            raise HeadroomError("register the pipeline first")
        try:
            if self._id is None:
                return self._register()
            try:
                advice = Advice.from_json(call(self._id))
            except RequestError as error:
                if error.status != 404:
                    raise
                # Forgotten (lease ended, service restarted): register again.
                return self._register()
            self._last_advice = advice
            return advice
        except ServiceUnavailable as error:
            return self._fallback(error)

    def _fallback(self, error: Exception) -> Advice:
        assert self._registration is not None
        self._id = None
        return self._registration.nominal(f"headroom service unavailable ({error}); nominal settings")


def _problem(value: Any) -> Optional[str]:
    if isinstance(value, dict) and "problem" in value:
        return str(value["problem"])
    return None


def _parse_events(response: http.client.HTTPResponse) -> Iterator[Event]:
    """The events of a ``text/event-stream`` body, as the HTML standard parses them."""
    event_id: Optional[int] = None
    name = "message"
    data: List[str] = []
    while True:
        raw = response.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield Event(event_id, name, json.loads("\n".join(data)))
            name, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            event_id = int(value) if value.isdigit() else event_id
        elif field == "event":
            name = value
        elif field == "data":
            data.append(value)
