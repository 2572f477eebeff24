"""The HTTP client of Headroom's API v1 (see docs/api.md)."""

from __future__ import annotations

import http.client
import json
import math
import operator
import re
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, TypeVar, Union

__all__ = [
    "Advice",
    "Client",
    "Event",
    "GovernedClient",
    "HeadroomError",
    "LadderStep",
    "ProtocolError",
    "RequestError",
    "ServiceUnavailable",
]

DEFAULT_URL = "http://127.0.0.1:9464"

#: The largest JSON answer the client reads; a larger one is a ProtocolError (API v1's answers
#: are a few KiB).
MAX_ANSWER_BYTES = 1 << 20
#: The longest line of the event stream, its line ending included; a longer one ends that
#: connection, and :meth:`Client.events` reconnects.
MAX_EVENT_LINE_BYTES = 64 << 10
#: The most data one event may carry (all its ``data:`` lines); more ends that connection.
MAX_EVENT_BYTES = 1 << 20
# The start of an error answer read for its words; the rest is left unread.
_MAX_ERROR_BYTES = 64 << 10
#: How long a line of the event stream may take to arrive (the service sends a keep-alive
#: comment every 15 s); the stream reconnects when one takes longer, or the timeout if larger.
EVENT_LINE_SECONDS = 30.0

_T = TypeVar("_T")
# The ids the service gives (16 hex digits today): URL-safe, so a path built from one is the
# path meant.
_CLIENT_ID = re.compile(r"[A-Za-z0-9._~-]{1,128}")
# An event id: a non-negative integer that fits an Int64 (the service counts from 1 to 2⁴⁰).
_EVENT_ID = re.compile(r"[0-9]{1,19}")


class HeadroomError(Exception):
    """Base class of the client's errors."""


class ServiceUnavailable(HeadroomError):
    """The service could not be reached (not running, gone away, too slow to answer within the
    timeout, answering 5xx, or backing off)."""


class ProtocolError(HeadroomError):
    """The answer was not what API v1 says: not JSON, larger than the client reads, JSON of the
    wrong shape, or advice outside the registration (a proxy's error page, another server on the
    port, a broken service)."""


class RequestError(HeadroomError):
    """The service refused a request (HTTP 4xx): ``path`` names the field, ``problem`` says
    what was expected, ``hint`` (for 401 and 403) what to do."""

    def __init__(self, status: int, path: str, problem: str, hint: Optional[str] = None) -> None:
        message = f"{path}: {problem}" if path else problem
        super().__init__(f"{message} ({hint})" if hint else message)
        self.status = status
        self.path = path
        self.problem = problem
        self.hint = hint


class BackingOff(ServiceUnavailable):
    """The client waits ``seconds`` before trying again after ``cause`` (no request was made)."""

    def __init__(self, seconds: float, cause: Optional[HeadroomError]) -> None:
        after = f" after: {_reason(cause)}" if cause is not None else ""
        super().__init__(f"backing off for {seconds:.1f} s{after}")
        self.seconds = seconds
        self.cause = cause


class _StreamBroken(HeadroomError):
    """The event stream broke a bound; its connection ends and the iterator reconnects."""


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
    ``ladder_step``. ``is_fallback`` is true when the service could not give advice (it was
    unreachable, refused, or answered nonsense; ``reason`` says which) and this is your own
    nominal settings."""

    seq: int
    level: str
    acting_level: str
    frame_rate: float
    ladder_step: int
    ladder_name: str
    reason: str
    is_fallback: bool = False

    @classmethod
    def from_json(cls, value: Any, where: str = "advice") -> "Advice":
        """The advice in an answer's JSON; ProtocolError (naming the field) when a field is
        missing or of the wrong type, or a number is not finite and non-negative."""
        if not isinstance(value, dict):
            raise ProtocolError(f"{where}: expected an object, got {_kind(value)}")
        return cls(
            seq=_integer(value, "seq", where),
            level=_string(value, "level", where),
            acting_level=_string(value, "actingLevel", where),
            frame_rate=_number(value, "frameRate", where),
            ladder_step=_integer(value, "ladderStep", where),
            ladder_name=_string(value, "ladderName", where),
            reason=_string(value, "reason", where),
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


@dataclass(frozen=True)
class GovernedClient:
    """A pipeline the service governs, as ``GET /v1/clients`` lists it: its ``id`` and
    ``name``, its ``priority``, its ``share`` of the host's budget (declared or learned; None
    while unknown), its ``demand`` now, and its current ``advice``."""

    id: str
    name: str
    priority: int
    share: Optional[float]
    demand: float
    advice: Advice

    @classmethod
    def from_json(cls, value: Any, where: str = "client") -> "GovernedClient":
        """The client in an answer's JSON; ProtocolError (naming the field) otherwise."""
        value = _object(value, where)
        share = value.get("share")
        return cls(
            id=_string(value, "id", where),
            name=_string(value, "name", where),
            priority=_integer(value, "priority", where),
            share=None if share is None else _number(value, "share", where),
            demand=_number(value, "demand", where),
            advice=Advice.from_json(_field(value, "advice", where), f"{where}.advice"),
        )


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

    def advice(self, value: Any, where: str) -> Advice:
        """The advice in `value`, checked against this registration: a frame rate from 0 to
        the nominal one, a step of the ladder under its name. ProtocolError otherwise."""
        advice = Advice.from_json(value, where)
        nominal = float(self.nominal_frame_rate)
        if not advice.frame_rate <= nominal * (1 + 1e-9):
            raise ProtocolError(
                f"{where}.frameRate: expected 0 to the nominal {nominal:g} fps, "
                f"got {advice.frame_rate:g}")
        if not 0 <= advice.ladder_step < len(self.ladder):
            raise ProtocolError(
                f"{where}.ladderStep: expected 0 to {len(self.ladder) - 1} (the registered "
                f"ladder), got {advice.ladder_step}")
        expected = self.ladder[advice.ladder_step].name
        if advice.ladder_name != expected:
            raise ProtocolError(
                f"{where}.ladderName: expected {expected!r} (step {advice.ladder_step}), "
                f"got {_clean(advice.ladder_name, 80)!r}")
        return advice

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


# One deadline per call.


class _Deadline:
    """The moment a call must be over by; `remaining` raises socket.timeout once it passed."""

    def __init__(self, seconds: float) -> None:
        self.restart(seconds)

    def restart(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def remaining(self) -> float:
        remaining = self.at - time.monotonic()
        if remaining <= 0:
            raise socket.timeout(f"no complete answer within {self.seconds:g} s")
        return remaining


class _DeadlineSocket(socket.socket):
    """A socket whose every connect, send and receive waits at most until its deadline: the
    socket timeout is set to the time left before each, so an answer that trickles in a byte
    at a time cannot stretch a call beyond it (a plain socket timeout is per read)."""

    deadline: _Deadline

    def _arm(self) -> None:
        self.settimeout(self.deadline.remaining())

    def connect(self, address: Any) -> None:
        self._arm()
        super().connect(address)

    def send(self, data: Any, flags: int = 0) -> int:
        self._arm()
        return super().send(data, flags)

    def sendall(self, data: Any, flags: int = 0) -> None:
        self._arm()
        super().sendall(data, flags)

    def recv(self, size: int, flags: int = 0) -> bytes:
        self._arm()
        return super().recv(size, flags)

    def recv_into(self, buffer: Any, size: int = 0, flags: int = 0) -> int:
        self._arm()
        return super().recv_into(buffer, size, flags)


def _addresses(host: str, port: int, deadline: _Deadline) -> List[Any]:
    """The addresses of `host`, resolved within the deadline (a resolver that hangs is left
    behind in its daemon thread)."""
    try:
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    except socket.gaierror:
        pass  # a name, not an address
    result: Dict[str, Any] = {}

    def resolve() -> None:
        try:
            result["addresses"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as error:
            result["error"] = error

    thread = threading.Thread(target=resolve, name="headroom-client-resolve", daemon=True)
    thread.start()
    thread.join(deadline.remaining())
    if "error" in result:
        raise result["error"]
    if "addresses" not in result:
        raise socket.timeout(f"resolving {host} took more than {deadline.seconds:g} s")
    return result["addresses"]


class _Connection(http.client.HTTPConnection):
    """An HTTP connection (over TCP, or a Unix domain socket when `unix_path` is given) all of
    whose socket operations share one deadline."""

    def __init__(self, host: str, port: int, deadline: _Deadline,
                 unix_path: Optional[str] = None) -> None:
        super().__init__(host, port)
        self.deadline = deadline
        self.unix_path = unix_path
        self.deadline_socket: Optional[_DeadlineSocket] = None

    def connect(self) -> None:
        if self.unix_path is not None:
            candidates = [(socket.AF_UNIX, socket.SOCK_STREAM, 0, "", self.unix_path)]
        else:
            candidates = _addresses(self.host, self.port, self.deadline)
        error: Optional[OSError] = None
        for family, kind, proto, _, address in candidates:
            sock = _DeadlineSocket(family, kind, proto)
            sock.deadline = self.deadline
            try:
                sock.connect(address)
            except OSError as failure:
                sock.close()
                error = failure
                continue
            if family != socket.AF_UNIX:
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:
                    pass
            self.sock = self.deadline_socket = sock
            return
        raise error if error is not None else OSError(f"{self.host}: no address")


class Client:
    """A client of ``headroom serve``.

    ``url`` is ``http://HOST:PORT`` (default ``http://127.0.0.1:9464``), ``unix:PATH`` or a
    socket path. ``token`` is the service's bearer token (the contents of serve's
    ``--token-file``), needed for registering and reporting when the service is bound beyond
    loopback. Every call is over within ``timeout`` seconds: connecting, sending, and reading
    the whole answer share one deadline. After the service fails (unreachable, too slow, 5xx,
    an answer that is not API v1's, a refused token), the client waits ``backoff`` seconds
    (doubling up to ``max_backoff``) before trying again; in between, and whenever the service
    cannot give advice, :meth:`advice` and :meth:`report` give nominal advice at once, with the
    reason, never an exception, so your pipeline keeps running.
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
        if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"timeout: expected a number of seconds > 0, got {timeout!r}")
        if token is not None:
            # As read from the token file: the white space around it is not part of it.
            token = token.strip()
            if not token or not all("!" <= character <= "~" for character in token):
                raise ValueError("token: expected printable ASCII characters without spaces")
        self.url = url
        self.timeout = float(timeout)
        self.token = token
        self._backoff_initial = backoff
        self._max_backoff = max_backoff
        self._backoff = backoff
        self._retry_at = 0.0
        self._last_failure: Optional[HeadroomError] = None
        self._registration: Optional[_Registration] = None
        self._id: Optional[str] = None
        self._registered_at = 0.0
        self._lease_seconds = 30.0
        self._registered_after_404 = False
        self._last_advice: Optional[Advice] = None

    # Connection.

    def _connection(self, deadline: _Deadline) -> _Connection:
        if self._socket_path is not None:
            return _Connection("localhost", 80, deadline, unix_path=self._socket_path)
        return _Connection(self._host, self._port, deadline)

    def _attempt(self, work: Callable[[_Deadline], _T]) -> _T:
        """`work` under one deadline of `timeout` seconds, unless backing off after a failure.
        A failure (see `_backs_off`) starts or lengthens the back-off; a success ends it."""
        now = time.monotonic()
        if now < self._retry_at:
            raise BackingOff(self._retry_at - now, self._last_failure)
        try:
            result = work(_Deadline(self.timeout))
        except HeadroomError as error:
            if _backs_off(error):
                self._retry_at = time.monotonic() + self._backoff
                self._backoff = min(self._backoff * 2, self._max_backoff)
                self._last_failure = error
            raise
        self._backoff = self._backoff_initial
        self._retry_at = 0.0
        self._last_failure = None
        return result

    def _request(
        self, method: str, path: str, body: Optional[Dict[str, Any]] = None,
        deadline: Optional[_Deadline] = None,
    ) -> Any:
        """One request, over by `deadline`; the decoded JSON answer (None for 204). Raises
        ServiceUnavailable when the service cannot be reached in time or answers 5xx,
        RequestError for a 4xx, ProtocolError for an answer that is not API v1's."""
        deadline = deadline if deadline is not None else _Deadline(self.timeout)
        what = f"{method} {path}"
        headers = {"Accept": "application/json", "Connection": "close"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        try:
            status, content_type, data = self._exchange(method, path, payload, headers, deadline)
        except socket.timeout as error:
            raise ServiceUnavailable(
                f"{self.url}: no complete answer within {deadline.seconds:g} s") from error
        except (OSError, http.client.HTTPException) as error:
            problem = _clean(str(error), 200) or type(error).__name__
            raise ServiceUnavailable(f"{self.url}: {problem}") from error
        except ValueError as error:  # what http.client lets through of a garbled answer
            raise ProtocolError(f"{what}: {_clean(str(error), 200)}") from error
        if 200 <= status < 300:
            if status == 204 or (not data and method == "DELETE"):
                return None
            return _decode(data, content_type, f"{what}: HTTP {status}")
        value = _decode_leniently(data)
        problem = _problem(value) or _describe(content_type, data)
        if status >= 500:
            raise ServiceUnavailable(f"{what}: HTTP {status}: {problem}")
        if status >= 400:
            field = _clean(str(value.get("path", "")), 120) if isinstance(value, dict) else ""
            raise RequestError(status, field, problem, _hint(status, self.token is not None))
        raise ProtocolError(f"{what}: unexpected HTTP {status} ({problem})")

    def _exchange(
        self, method: str, path: str, payload: Optional[bytes], headers: Dict[str, str],
        deadline: _Deadline,
    ) -> "tuple[int, str, bytes]":
        """The status, content type and body (at most MAX_ANSWER_BYTES) of one request."""
        connection = self._connection(deadline)
        response = None
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            content_type = response.getheader("Content-Type") or ""
            if not 200 <= response.status < 300:
                # An error's words are all it is read for (a proxy's page may be long).
                return response.status, content_type, response.read(_MAX_ERROR_BYTES)
            if response.length is not None and response.length > MAX_ANSWER_BYTES:
                raise ProtocolError(
                    f"{method} {path}: HTTP {response.status}: an answer of {response.length} "
                    f"bytes, more than the {MAX_ANSWER_BYTES} bytes the client reads")
            data = response.read(MAX_ANSWER_BYTES + 1)
            if len(data) > MAX_ANSWER_BYTES:
                raise ProtocolError(
                    f"{method} {path}: HTTP {response.status}: an answer of more than the "
                    f"{MAX_ANSWER_BYTES} bytes the client reads")
            return response.status, content_type, data
        finally:
            if response is not None:
                response.close()
            connection.close()

    # The API.

    def pressure(self) -> Dict[str, Any]:
        """The host's pressure reading (``status --json``'s fields, ``version`` 1): ``level``,
        ``factors``, ``headroom``, ``sustainableShare``, … Raises a HeadroomError:
        ServiceUnavailable, ProtocolError or RequestError."""
        def work(deadline: _Deadline) -> Dict[str, Any]:
            where = "GET /v1/pressure"
            reading = _object(self._request("GET", "/v1/pressure", None, deadline), where)
            version = reading.get("version")
            if not (type(version) is int and version == 1):
                raise ProtocolError(f"{where}: version: expected 1, got "
                                    f"{_clean(repr(version), 40)}")
            _string(reading, "level", where)
            return reading

        return self._attempt(work)

    def clients(self) -> List[GovernedClient]:
        """Every pipeline the service governs now (``GET /v1/clients``), highest priority
        first. Raises a HeadroomError: ServiceUnavailable, ProtocolError or RequestError."""
        def work(deadline: _Deadline) -> List[GovernedClient]:
            where = "GET /v1/clients"
            answer = _object(self._request("GET", "/v1/clients", None, deadline), where)
            listed = _field(answer, "clients", where)
            if not isinstance(listed, list):
                raise ProtocolError(f"{where}.clients: expected an array, got {_kind(listed)}")
            return [GovernedClient.from_json(value, f"{where}.clients[{index}]")
                    for index, value in enumerate(listed)]

        return self._attempt(work)

    def estimate(self, session: Dict[str, Any]) -> Dict[str, Any]:
        """Prices a capture session (the CLI's session JSON): ``hardwareCost``, ``fits``,
        ``budgets``, ``cameras``. Raises RequestError naming the field of a bad session, or
        another HeadroomError when the service cannot answer."""
        def work(deadline: _Deadline) -> Dict[str, Any]:
            where = "POST /v1/estimate"
            estimate = _object(self._request("POST", "/v1/estimate", session, deadline), where)
            if not isinstance(_field(estimate, "fits", where), bool):
                raise ProtocolError(f"{where}.fits: expected a boolean, got {_kind(estimate['fits'])}")
            return estimate

        return self._attempt(work)

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
        advice; nominal advice (``is_fallback``, with the reason) if the service cannot be
        reached or cannot register it now (registration is retried by later calls).
        ``shed_first`` is ``"ladder"``, ``"frameRate"`` or ``"cheapest"`` (the default): which
        knob the governor turns first. ``follows_levels`` also keeps your pipeline to the
        policy's settings at each pressure level (20 fps at ``serious`` by default), as
        ``headroom run`` does, however much budget is left. Raises RequestError for a
        registration the service refuses as invalid (HTTP 400)."""
        steps = [step if isinstance(step, LadderStep) else LadderStep(**step) for step in ladder]
        if not steps:
            raise ValueError("ladder: expected at least one step")
        registration = _Registration(
            name, priority, nominal_frame_rate, min_frame_rate, steps, share, shed_first,
            follows_levels,
        )
        self._registration = registration
        self._id = None
        self._registered_after_404 = False
        try:
            return self._attempt(self._register)
        except RequestError as error:
            if error.status == 400:
                raise
            return self._fallback(error)
        except HeadroomError as error:
            return self._fallback(error)

    @property
    def client_id(self) -> Optional[str]:
        """The id the service gave this pipeline; None while not registered."""
        return self._id

    def advice(self) -> Advice:
        """The current advice (renewing the lease); registers again if the service forgot
        this pipeline (its lease ended, or the service restarted); nominal advice, with the
        reason, whenever the service cannot give advice. Never raises (but for a call before
        :meth:`register`)."""
        return self._advised("GET", "/advice", None)

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
        A pipeline whose frames are late is lightened by itself. Like :meth:`advice`, never
        raises: a report the service refuses gives nominal advice with its reason."""
        if self._registration is None:
            raise HeadroomError("register the pipeline first")
        try:
            body = {
                "frames": operator.index(frames),
                "late": operator.index(late),
                "dropped": operator.index(dropped),
                "workSeconds": (
                    {str(key): float(value) for key, value in work_seconds.items()}
                    if isinstance(work_seconds, dict)
                    else [float(seconds) for seconds in work_seconds]),
                "targetSeconds": float(target_seconds),
            }
            json.dumps(body, allow_nan=False)
        except (TypeError, ValueError) as error:
            return self._registration.nominal(
                f"report not sent: {error} (frames, late, dropped: integers; work_seconds, "
                "target_seconds: finite numbers); nominal settings")
        return self._advised("POST", "/report", body)

    def close(self) -> None:
        """Unregisters the pipeline (best effort, within the timeout)."""
        if self._id is not None:
            id = self._id
            try:
                self._attempt(lambda deadline: self._request(
                    "DELETE", f"/v1/clients/{id}", None, deadline))
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
        reconnects with backoff and ``Last-Event-ID`` when the stream ends, the service goes
        away, or the stream breaks a bound (a line longer than MAX_EVENT_LINE_BYTES, an event
        of more than MAX_EVENT_BYTES, a line taking more than EVENT_LINE_SECONDS), so no event
        is missed while the service keeps it. An event that is not UTF-8 or whose data is not
        a JSON object is skipped, and an ``id:`` that is not a non-negative integer ignored."""
        backoff = self._backoff_initial
        stream = _EventStream(last_event_id)
        while True:
            connection = None
            response = None
            try:
                deadline = _Deadline(self.timeout)
                connection = self._connection(deadline)
                headers = {"Accept": "text/event-stream"}
                if stream.last_id is not None:
                    headers["Last-Event-ID"] = str(stream.last_id)
                connection.request("GET", "/v1/events", headers=headers)
                response = connection.getresponse()
                content_type = (response.getheader("Content-Type") or "").split(";")[0].strip()
                if response.status != 200 or content_type != "text/event-stream":
                    raise ServiceUnavailable(f"events: HTTP {response.status} {content_type}")
                stream.start()
                while True:
                    # Each line within its own time: the service sends a comment every 15 s.
                    deadline.restart(max(self.timeout, EVENT_LINE_SECONDS))
                    raw = response.readline(MAX_EVENT_LINE_BYTES)
                    if not raw.endswith(b"\n"):
                        if len(raw) >= MAX_EVENT_LINE_BYTES:
                            raise _StreamBroken(f"a line longer than {MAX_EVENT_LINE_BYTES} bytes")
                        break  # the stream ended (a partial line is dropped, as the standard says)
                    event = stream.line(raw)
                    if event is not None:
                        backoff = self._backoff_initial
                        yield event
            except (OSError, http.client.HTTPException, HeadroomError, ValueError):
                pass  # reconnect
            finally:
                if response is not None:
                    response.close()
                if connection is not None:
                    connection.close()
            time.sleep(backoff)
            backoff = min(backoff * 2, self._max_backoff)

    # Registration and fallback.

    def _register(self, deadline: _Deadline) -> Advice:
        assert self._registration is not None
        try:
            value = self._request("POST", "/v1/clients", self._registration.body(), deadline)
        except RequestError as error:
            if error.status in (404, 405):
                raise ProtocolError(
                    f"POST /v1/clients: HTTP {error.status} ({error.problem}): is {self.url} "
                    "headroom serve, API v1?") from error
            raise
        where = "POST /v1/clients"
        value = _object(value, where)
        id = value.get("id")
        if not (isinstance(id, str) and _CLIENT_ID.fullmatch(id)):
            raise ProtocolError(f"{where}: id: expected an id of letters, digits and ._~-, got "
                                f"{_clean(repr(id), 80)}")
        lease = _number(value, "leaseSeconds", where)
        if lease <= 0:
            raise ProtocolError(f"{where}: leaseSeconds: expected > 0, got {lease:g}")
        # Registered, whatever its advice: later calls use this id rather than register anew.
        self._id = id
        self._lease_seconds = lease
        self._registered_at = time.monotonic()
        advice = self._registration.advice(value.get("advice"), f"{where}: advice")
        self._last_advice = advice
        return advice

    def _advised(self, method: str, suffix: str, body: Optional[Dict[str, Any]]) -> Advice:
        if self._registration is None:
            raise HeadroomError("register the pipeline first")
        try:
            return self._attempt(lambda deadline: self._advice_of(method, suffix, body, deadline))
        except HeadroomError as error:
            return self._fallback(error)

    def _advice_of(
        self, method: str, suffix: str, body: Optional[Dict[str, Any]], deadline: _Deadline,
    ) -> Advice:
        assert self._registration is not None
        if self._id is None:
            return self._register(deadline)
        path = f"/v1/clients/{self._id}{suffix}"
        try:
            value = self._request(method, path, body, deadline)
        except RequestError as error:
            if error.status != 404:
                raise
            # Forgotten (lease ended, service restarted): register again, once. Forgotten
            # again within the lease of such a registration, the service does not keep
            # registrations: nominal advice, and a fresh registration after the back-off.
            if (self._registered_after_404
                    and time.monotonic() - self._registered_at < self._lease_seconds):
                self._id = None
                raise ProtocolError(
                    f"{method} {path}: HTTP 404: the service forgot this pipeline again, "
                    f"within {self._lease_seconds:g} s of registering it anew") from error
            self._id = None
            self._registered_after_404 = True
            return self._register(deadline)
        advice = self._registration.advice(value, f"{method} {path}: advice")
        self._registered_after_404 = False
        self._last_advice = advice
        return advice

    def _fallback(self, error: HeadroomError) -> Advice:
        assert self._registration is not None
        return self._registration.nominal(f"{_reason(error)}; nominal settings")


def _backs_off(error: HeadroomError) -> bool:
    """Whether `error` means waiting before the next try: the service is unreachable, slow,
    failing or not speaking API v1, or refuses this client's token; not for a request the
    service refuses as invalid (the next one may be fine)."""
    if isinstance(error, BackingOff):
        return False
    if isinstance(error, RequestError):
        return error.status in (401, 403, 404)
    return isinstance(error, (ServiceUnavailable, ProtocolError))


def _hint(status: int, has_token: bool) -> Optional[str]:
    """What to do about a 401 or 403 (docs/api.md: beyond loopback, POST and DELETE need the
    bearer token of serve's --token-file; 403 when the service has none)."""
    if status == 401 and has_token:
        return ("the service refused this client's token for changes from this address: pass "
                "Client(token=...) with the contents of serve's --token-file")
    if status == 401:
        return ("the service needs a token for changes from this address: pass "
                "Client(token=...) with the contents of serve's --token-file")
    if status == 403:
        return ("the service refuses changes from this address, having no token: run serve "
                "with --token-file and pass Client(token=...) with its contents, or connect "
                "over loopback or its Unix socket")
    return None


def _reason(error: HeadroomError) -> str:
    """A one-line reason for nominal advice after `error`."""
    if isinstance(error, BackingOff):
        if error.cause is None:
            return f"headroom service unavailable ({error})"
        return f"{_reason(error.cause)}; retrying in {error.seconds:.1f} s"
    if isinstance(error, ServiceUnavailable):
        return f"headroom service unavailable ({error})"
    if isinstance(error, ProtocolError):
        return f"headroom service answer not understood ({error})"
    if isinstance(error, RequestError):
        if error.hint:
            return error.hint
        return f"headroom service refused the request (HTTP {error.status}: {error})"
    return str(error)


# Answers.


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _decode(data: bytes, content_type: str, what: str) -> Any:
    """The JSON of a successful answer; ProtocolError when it is empty, not UTF-8 or not JSON
    (NaN and Infinity are not)."""
    if not data:
        raise ProtocolError(f"{what}: an empty answer, expected JSON")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProtocolError(
            f"{what}: not UTF-8 at byte {error.start} ({_describe(content_type, data)})") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        raise ProtocolError(
            f"{what}: not JSON, {_clean(str(error), 120)} ({_describe(content_type, data)})"
        ) from None


def _decode_leniently(data: bytes) -> Any:
    """The JSON of an error answer, or None when it is not (a proxy's page)."""
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None


def _describe(content_type: str, data: bytes) -> str:
    """What an answer that is not the expected JSON looks like: its size, type and start."""
    if not data:
        return "an empty answer"
    kind = _clean(content_type.split(";")[0], 60) or "no content type"
    snippet = _clean(data[:200].decode("utf-8", "replace"), 60)
    return f"{len(data)} bytes of {kind}" + (f": {snippet!r}" if snippet else "")


def _clean(text: str, limit: int) -> str:
    """`text` on one line, without control or format characters, at most `limit` characters:
    the service's words, fit for a reason a pipeline logs."""
    text = " ".join("".join(c if c.isprintable() else " " for c in text[: limit * 4]).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _problem(value: Any) -> Optional[str]:
    if isinstance(value, dict) and "problem" in value:
        return _clean(str(value["problem"]), 300)
    return None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _object(value: Any, where: str) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(f"{where}: expected a JSON object, got {_kind(value)}")
    return value


def _field(value: Dict[str, Any], key: str, where: str) -> Any:
    if key not in value:
        raise ProtocolError(f"{where}.{key}: missing")
    return value[key]


def _string(value: Dict[str, Any], key: str, where: str) -> str:
    field = _field(value, key, where)
    if not isinstance(field, str):
        raise ProtocolError(f"{where}.{key}: expected a string, got {_kind(field)}")
    return field


def _number(value: Dict[str, Any], key: str, where: str) -> float:
    """A finite number ≥ 0."""
    field = _field(value, key, where)
    if isinstance(field, bool) or not isinstance(field, (int, float)):
        raise ProtocolError(f"{where}.{key}: expected a number, got {_kind(field)}")
    try:
        number = float(field)
    except OverflowError:
        number = math.inf
    if not (math.isfinite(number) and number >= 0):
        raise ProtocolError(f"{where}.{key}: expected a finite number ≥ 0, got {number:g}")
    return number


def _integer(value: Dict[str, Any], key: str, where: str) -> int:
    """An integer ≥ 0 (written 3 or 3.0)."""
    number = _number(value, key, where)
    if not number.is_integer():
        raise ProtocolError(f"{where}.{key}: expected an integer, got {number:g}")
    field = value[key]
    return field if isinstance(field, int) else int(number)


# Server-Sent Events.


class _EventStream:
    """The events of a ``text/event-stream`` body, a line at a time, as the HTML standard
    parses them, with our data: an event whose lines are not UTF-8, or whose data is not a JSON
    object, is skipped; an ``id:`` that is not a non-negative integer is ignored."""

    def __init__(self, last_id: Optional[int]) -> None:
        self.last_id = last_id
        self.start()

    def start(self) -> None:
        """A new connection: no event begun."""
        self._name = "message"
        self._data: List[str] = []
        self._size = 0
        self._spoiled = False

    def line(self, raw: bytes) -> Optional[Event]:
        """Takes one line (with its ending); the event it completes, if any."""
        raw = raw[:-1] if raw.endswith(b"\n") else raw
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        if not raw:
            return self._dispatch()
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            self._spoiled = True  # some field of this event is lost: the event is skipped
            return None
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            if _EVENT_ID.fullmatch(value) and int(value) < 1 << 63:
                self.last_id = int(value)
        elif field == "event":
            self._name = value
        elif field == "data":
            self._size += len(raw) + 1
            if self._size > MAX_EVENT_BYTES:
                raise _StreamBroken(f"an event of more than {MAX_EVENT_BYTES} bytes")
            self._data.append(value)
        return None

    def _dispatch(self) -> Optional[Event]:
        name, data, spoiled = self._name, self._data, self._spoiled
        self.start()
        if not data or spoiled:
            return None
        try:
            value = json.loads("\n".join(data), parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            return None
        if not isinstance(value, dict):
            return None
        return Event(self.last_id, name, value)
