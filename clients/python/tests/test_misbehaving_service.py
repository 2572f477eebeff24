"""The client against services that misbehave: a fake HTTP server on 127.0.0.1 answers each
case (a proxy's HTML 502, an empty 200, invalid UTF-8, the wrong JSON, 401, 403, a persistent
404, an answer that trickles or never ends, events with bad data or ids, advice out of range).
advice() and report() give nominal advice with the reason, never an exception or a hang;
pressure() and estimate() raise only HeadroomError; events() skips what it cannot read and
reconnects."""

import json
import os
import re
import socket
import socketserver
import subprocess
import threading
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Union

import pytest

from headroom_client import (
    Client,
    HeadroomError,
    LadderStep,
    ProtocolError,
    RequestError,
    ServiceUnavailable,
)
from headroom_client import client as client_module

LADDER = [LadderStep("hog-1.0", 184), LadderStep("hog-0.75", 86), LadderStep("hog-0.5", 31)]
ADVICE = {"seq": 1, "level": "nominal", "actingLevel": "nominal", "frameRate": 10,
          "ladderStep": 0, "ladderName": "hog-1.0", "reason": "nominal: nominal settings"}
REGISTERED = {"id": "66928460726607ea", "leaseSeconds": 30, "advice": ADVICE}
SESSION = {"profile": "raspberry-pi-5", "cameras": [], "outputs": []}

# Answers.

Answer = Union[bytes, Iterable[bytes]]


def http(status: int, body: bytes = b"", content_type: str = "application/json",
         length: Optional[int] = None, headers: str = "") -> bytes:
    """A whole answer; `length` None: the body's length, -1: no Content-Length (the body ends
    when the connection closes)."""
    length = len(body) if length is None else length
    head = f"HTTP/1.1 {status} Fake\r\nContent-Type: {content_type}\r\nConnection: close\r\n"
    if length >= 0:
        head += f"Content-Length: {length}\r\n"
    return (head + headers + "\r\n").encode() + body


def answer(status: int, value: Any) -> bytes:
    return http(status, json.dumps(value).encode())


def refusal(status: int, path: str, problem: str) -> bytes:
    return answer(status, {"error": f"{path}: {problem}" if path else problem, "path": path,
                           "problem": problem})


NOT_FOUND = refusal(404, "", "no such resource")


@dataclass
class Request:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes

    @property
    def route(self) -> str:
        if self.path == "/v1/clients" and self.method == "POST":
            return "register"
        if self.path.startswith("/v1/clients/"):
            if self.path.endswith("/advice"):
                return "advice"
            if self.path.endswith("/report"):
                return "report"
            return "delete"
        return {"/v1/pressure": "pressure", "/v1/estimate": "estimate",
                "/v1/events": "events"}.get(self.path, "other")


DEFAULTS: Dict[str, Answer] = {
    "register": answer(201, REGISTERED),
    "advice": answer(200, ADVICE),
    "report": answer(200, ADVICE),
    "delete": http(204),
}


class Fake:
    """An HTTP server on 127.0.0.1 that answers each route (see Request.route) with the bytes
    given, or with what a function of the request returns: bytes, or chunks sent one by one
    until the client goes away or the test ends. Other routes: the defaults above, else 404."""

    def __init__(self, routes: Dict[str, Union[Answer, Callable[[Request], Answer]]]) -> None:
        self.routes = {**DEFAULTS, **routes}
        self.requests: List[Request] = []
        self.stopping = threading.Event()
        fake = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                line = self.rfile.readline(65537)
                if not line:
                    return
                method, path, _ = line.decode("latin-1").split(" ", 2)
                headers = {}
                while True:
                    header = self.rfile.readline(65537)
                    if header in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = header.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = self.rfile.read(int(headers.get("content-length", "0")))
                request = Request(method, path, headers, body)
                fake.requests.append(request)
                reply = fake.routes.get(request.route, NOT_FOUND)
                if callable(reply):
                    reply = reply(request)
                try:
                    for chunk in [reply] if isinstance(reply, bytes) else reply:
                        if fake.stopping.is_set():
                            break
                        self.wfile.write(chunk)
                except OSError:
                    pass  # the client went away

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            block_on_close = False
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()

    def routed(self, route: str) -> List[Request]:
        return [request for request in self.requests if request.route == route]

    def close(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake() -> Iterable[Callable[..., Fake]]:
    started: List[Fake] = []

    def start(**routes: Any) -> Fake:
        started.append(Fake(routes))
        return started[-1]

    yield start
    for server in started:
        server.close()


def trickle(head: bytes, stopping: Callable[[], threading.Event], every: float = 0.5):
    """`head`, then a byte every `every` seconds for ever."""
    def chunks(request: Request) -> Iterable[bytes]:
        yield head
        while not stopping().wait(every):
            yield b" "
    return chunks


def endless(head: bytes, chunk: bytes, at_most: int) -> Callable[[Request], Iterable[bytes]]:
    """`head`, then `chunk` again and again, up to `at_most` bytes (a bound for the clients
    that read without one)."""
    def chunks(request: Request) -> Iterable[bytes]:
        yield head
        for _ in range(at_most // len(chunk)):
            yield chunk
    return chunks


def register(client: Client):
    return client.register(
        "people", priority=5, nominal_frame_rate=10, min_frame_rate=2, ladder=LADDER)


def report(client: Client):
    return client.report(10, work_seconds=[0.05] * 10, target_seconds=0.1)


def call(client: Client, name: str):
    """One call of the API by name; register first but for `register` itself."""
    if name == "register":
        return register(client)
    assert not register(client).is_fallback
    if name == "advice":
        return client.advice()
    if name == "report":
        return report(client)
    if name == "pressure":
        return client.pressure()
    return client.estimate(SESSION)


def within(seconds: float, work: Callable[[], Any]) -> Any:
    """What `work` returns, failing the test when it takes more than `seconds` (it runs in a
    thread, so that a hang fails rather than stops the tests)."""
    result: Dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = work()
        except BaseException as error:  # noqa: B902 (reported below)
            result["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in result:
        raise result["error"]
    return result["value"]


# 1. Answers that are not API v1's.

WRONG_TYPES = {"id": 7, "leaseSeconds": "30", "advice": [], "seq": "1", "level": 1,
               "actingLevel": None, "frameRate": "10", "ladderStep": "0", "ladderName": 0,
               "reason": []}
NOT_API_V1 = {
    "a proxy's HTML 502": (
        http(502, b"<html><head><title>502 Bad Gateway</title></head></html>", "text/html"),
        r"HTTP 502.*text/html.*502 Bad Gateway"),
    "an empty 200": (http(200), r"an empty answer"),
    "invalid UTF-8": (http(200, b'{"seq": "\xff\xfe"}'), r"not UTF-8"),
    "an HTML 200": (http(200, b"<html>It works!</html>", "text/html"), r"not JSON.*text/html"),
    "a JSON array": (answer(200, [1, 2]), r"expected a JSON object, got an array|expected an object"),
    "missing fields": (answer(200, {"seq": 1}), r"missing|expected"),
    "wrong types": (answer(200, WRONG_TYPES), r"expected"),
    "deeply nested JSON": (http(200, b"[" * 100_000 + b"]" * 100_000), r"not JSON|expected"),
    "NaN, which is not JSON": (http(200, b'{"seq": NaN}'), r"not JSON.*NaN"),
}


@pytest.mark.parametrize("case", NOT_API_V1)
@pytest.mark.parametrize("name", ["register", "advice", "report"])
def test_an_answer_that_is_not_api_v1s_gives_nominal_advice_saying_so(fake, case, name):
    bad, expected = NOT_API_V1[case]
    server = fake(**{name: bad})
    client = Client(server.url, backoff=0)
    advice = call(client, name)
    assert advice.is_fallback
    assert advice.frame_rate == 10 and advice.ladder_step == 0 and advice.ladder_name == "hog-1.0"
    assert re.search(expected, advice.reason), advice.reason
    assert "\n" not in advice.reason
    assert advice.reason.endswith("; nominal settings")


@pytest.mark.parametrize("case", NOT_API_V1)
@pytest.mark.parametrize("name", ["pressure", "estimate"])
def test_pressure_and_estimate_raise_only_headroom_errors(fake, case, name):
    bad, _ = NOT_API_V1[case]
    server = fake(**{name: bad})
    with pytest.raises(HeadroomError) as error:
        call(Client(server.url, backoff=0), name)
    expected = ServiceUnavailable if case == "a proxy's HTML 502" else ProtocolError
    assert isinstance(error.value, expected), repr(error.value)


def test_a_registration_answered_with_a_bad_id_is_not_used_in_a_path(fake):
    server = fake(register=answer(201, {**REGISTERED, "id": "../../v1/pressure?x="}))
    client = Client(server.url, backoff=0)
    advice = register(client)
    assert advice.is_fallback and "id: expected" in advice.reason
    assert client.client_id is None


def test_registered_but_with_bad_advice_the_id_is_kept(fake):
    # The service registered the pipeline: the next call asks for its advice rather than
    # registering it again.
    server = fake(register=answer(201, {**REGISTERED, "advice": {**ADVICE, "ladderStep": 7}}))
    client = Client(server.url, backoff=0)
    assert register(client).is_fallback
    assert client.client_id == REGISTERED["id"]
    assert not client.advice().is_fallback
    assert len(server.routed("register")) == 1


# 2. 401, 403, and a 404 that persists.

UNAUTHORIZED = http(
    401, json.dumps({"error": "Authorization: expected Bearer and the service's token",
                     "path": "Authorization",
                     "problem": "expected Bearer and the service's token"}).encode(),
    headers="WWW-Authenticate: Bearer\r\n")
FORBIDDEN = refusal(403, "", "requests that change state need --token-file when serving beyond loopback")


@pytest.mark.parametrize("token, status, expected", [
    (None, 401, "the service needs a token for changes from this address: pass Client(token=...) "
                "with the contents of serve's --token-file"),
    ("wrong-token-0123456789", 401, "the service refused this client's token"),
    (None, 403, "run serve with --token-file"),
], ids=["401 without a token", "401 with the wrong token", "403 without --token-file"])
def test_a_token_needed_or_refused_gives_nominal_advice_saying_what_to_do(
        fake, token, status, expected):
    refused = UNAUTHORIZED if status == 401 else FORBIDDEN
    server = fake(register=refused, report=refused, estimate=refused)
    client = Client(server.url, token=token, backoff=0)
    for advice in [register(client), client.advice(), report(client)]:
        assert advice.is_fallback
        assert expected in advice.reason, advice.reason
    with pytest.raises(RequestError) as error:
        client.estimate(SESSION)
    assert error.value.status == status and expected in str(error.value)


def test_the_token_is_sent_without_the_white_space_of_its_file(fake):
    server = fake()
    client = Client(server.url, token="  s3cret-token-0123456789\n")
    assert not register(client).is_fallback
    assert server.requests[-1].headers["authorization"] == "Bearer s3cret-token-0123456789"
    with pytest.raises(ValueError):
        Client(server.url, token="two words")


def test_a_404_for_everything_is_not_a_headroom_service(fake):
    server = fake(register=NOT_FOUND, advice=NOT_FOUND, report=NOT_FOUND)
    client = Client(server.url, backoff=0)
    for advice in [register(client), client.advice(), report(client)]:
        assert advice.is_fallback
        assert "HTTP 404" in advice.reason and "headroom serve" in advice.reason, advice.reason
    with pytest.raises(RequestError):
        client.pressure()


def test_a_404_that_persists_after_registering_again_gives_nominal_advice_without_a_loop(fake):
    server = fake(advice=NOT_FOUND, report=NOT_FOUND)
    client = Client(server.url, backoff=60)
    assert not register(client).is_fallback
    # Forgotten: registered again, once, and its advice is that registration's.
    assert not client.advice().is_fallback
    assert len(server.routed("register")) == 2
    # Forgotten again at once: nominal advice, no third registration.
    advice = client.advice()
    assert advice.is_fallback and "forgot this pipeline again" in advice.reason, advice.reason
    assert len(server.routed("register")) == 2
    # Backing off: not even a request.
    count = len(server.requests)
    assert report(client).is_fallback
    assert len(server.requests) == count


def test_a_404_then_a_refused_registration_gives_nominal_advice(fake):
    registrations = iter([answer(201, REGISTERED)])
    server = fake(register=lambda request: next(registrations, NOT_FOUND), advice=NOT_FOUND)
    client = Client(server.url, backoff=0)
    assert not register(client).is_fallback
    advice = client.advice()
    assert advice.is_fallback and "HTTP 404" in advice.reason


def test_a_forgotten_pipeline_after_its_lease_registers_again(fake):
    # A pipeline that calls less often than its lease is forgotten every time: that is no
    # reason for nominal advice.
    server = fake(register=answer(201, {**REGISTERED, "leaseSeconds": 0.05}), advice=NOT_FOUND)
    client = Client(server.url, backoff=0)
    register(client)
    for _ in range(3):
        time.sleep(0.06)
        assert not client.advice().is_fallback
    assert len(server.routed("register")) == 4


def test_a_report_the_service_refuses_gives_nominal_advice(fake):
    server = fake(report=refusal(400, "workSeconds", "expected 1 to 1000 durations"))
    client = Client(server.url, backoff=0)
    register(client)
    advice = report(client)
    assert advice.is_fallback and "workSeconds: expected 1 to 1000 durations" in advice.reason
    # Arguments that cannot be sent: nominal advice too, nothing sent.
    count = len(server.requests)
    assert client.report(1, work_seconds=[float("nan")], target_seconds=0.1).is_fallback
    assert client.report(1, work_seconds=[None], target_seconds=0.1).is_fallback
    assert len(server.requests) == count


def test_only_an_invalid_registration_raises(fake):
    server = fake(register=refusal(400, "minFrameRate", "expected 0 < fps ≤ nominalFrameRate"))
    with pytest.raises(RequestError) as error:
        register(Client(server.url))
    assert error.value.status == 400 and error.value.path == "minFrameRate"
    server = fake(register=refusal(503, "", "64 clients registered"))
    advice = register(Client(server.url))
    assert advice.is_fallback and "64 clients registered" in advice.reason


def outside_address() -> Optional[str]:
    """This machine's first non-loopback IPv4 address, as another machine reaches it; None
    without one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: only the route is chosen
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def serve_beyond_loopback(
    binary: str, *options: str, host: str = "127.0.0.1"
) -> "tuple[subprocess.Popen, str]":
    process = subprocess.Popen(
        [binary, "serve", "--listen", "0.0.0.0:0", "--interval", "0.5", *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("serving on 0.0.0.0:"), (line, process.stderr.read())
    return process, f"http://{host}:" + line.split()[2].split(":")[1]


def test_beyond_loopback_this_machine_registers_without_a_token(headroom_binary):
    process, url = serve_beyond_loopback(headroom_binary)
    try:
        assert not register(Client(url)).is_fallback
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_beyond_loopback_a_real_service_needs_the_token_for_changes(headroom_binary, tmp_path):
    host = outside_address()
    if host is None:
        pytest.skip("no non-loopback address to reach the service as another machine would")
    token_file = tmp_path / "token"
    token_file.write_text("a-token-of-the-service-0123456789\n")
    os.chmod(token_file, 0o600)
    process, url = serve_beyond_loopback(
        headroom_binary, "--token-file", str(token_file), host=host)
    try:
        advice = register(Client(url))
        assert advice.is_fallback and "pass Client(token=...)" in advice.reason, advice.reason
        advice = register(Client(url, token="not-the-token-0123456789"))
        assert advice.is_fallback and "refused this client's token" in advice.reason
        assert Client(url).pressure()["version"] == 1  # reads stay open
        client = Client(url, token=token_file.read_text())
        assert not register(client).is_fallback
        assert not report(client).is_fallback
    finally:
        process.terminate()
        process.wait(timeout=10)
    process, url = serve_beyond_loopback(headroom_binary, host=host)
    try:
        advice = register(Client(url, token="a-token-of-the-service-0123456789"))
        assert advice.is_fallback and "having no token" in advice.reason, advice.reason
    finally:
        process.terminate()
        process.wait(timeout=10)


# 3. One deadline per call.

TRICKLES = {
    "headers": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ",
    "body": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
}


@pytest.mark.parametrize("part", TRICKLES)
@pytest.mark.parametrize("name", ["register", "advice", "pressure"])
def test_an_answer_that_trickles_ends_at_the_deadline(fake, part, name):
    server = fake()
    server.routes[name] = trickle(TRICKLES[part], lambda: server.stopping, every=0.2)
    client = Client(server.url, timeout=0.5, backoff=0)
    if name != "register":
        assert not register(client).is_fallback
    started = time.monotonic()
    if name == "pressure":
        with pytest.raises(ServiceUnavailable) as error:
            within(1.5, client.pressure)
        reason = str(error.value)
    else:
        advice = within(1.5, client.advice if name == "advice" else lambda: register(client))
        assert advice.is_fallback
        reason = advice.reason
    assert time.monotonic() - started < 0.5 + 1
    assert "no complete answer within 0.5 s" in reason, reason


def test_one_deadline_covers_registering_again(fake):
    # advice -> 404 -> registering again: both within the one timeout.
    server = fake(advice=NOT_FOUND)
    client = Client(server.url, timeout=0.5, backoff=0)
    register(client)
    server.routes["register"] = trickle(TRICKLES["body"], lambda: server.stopping, every=0.2)
    started = time.monotonic()
    assert within(1.5, client.advice).is_fallback
    assert time.monotonic() - started < 0.5 + 1


# 4. Bounded reads.

HUGE = 50 << 20  # a whole number of the 64 KiB chunks sent


@pytest.mark.parametrize("framing", ["Content-Length", "until close"])
@pytest.mark.parametrize("name", ["advice", "pressure"])
def test_a_huge_answer_is_refused_unread(fake, framing, name):
    head = http(200, length=HUGE if framing == "Content-Length" else -1)
    server = fake(**{name: endless(head, b" " * 65536, HUGE)})
    client = Client(server.url, timeout=5, backoff=0)
    register(client)
    tracemalloc.start()
    try:
        if name == "pressure":
            with pytest.raises(ProtocolError) as error:
                client.pressure()
            reason = str(error.value)
        else:
            advice = client.advice()
            assert advice.is_fallback
            reason = advice.reason
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert re.search(r"more than the 1048576 bytes the client reads", reason), reason
    assert peak < 8 << 20, f"{peak} bytes at the peak"


def test_a_huge_error_page_is_read_for_its_start_only(fake):
    page = endless(http(502, content_type="text/html", length=HUGE), b"<p>bad gateway</p>" * 3641, HUGE)
    server = fake(advice=page)
    client = Client(server.url, timeout=5, backoff=0)
    register(client)
    tracemalloc.start()
    try:
        advice = client.advice()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert advice.is_fallback and "HTTP 502" in advice.reason and "bad gateway" in advice.reason
    assert peak < 8 << 20, f"{peak} bytes at the peak"


EVENT_HEAD = http(200, content_type="text/event-stream", length=-1)
GOOD_EVENT = b'id: 9\nevent: advice\ndata: {"client": "a"}\n\n'


@pytest.mark.parametrize("flood", [b"x" * 65536, b"data: " + b"x" * 1000 + b"\n"],
                         ids=["an endless line", "endless data lines"])
def test_an_endless_event_line_or_event_ends_the_connection_and_events_reconnect(fake, flood):
    first = endless(EVENT_HEAD + b"data: ", flood, 16 << 20)

    def events(request: Request) -> Iterable[bytes]:
        if len(server.routed("events")) == 1:
            return first(request)
        return [EVENT_HEAD + GOOD_EVENT]

    server = fake(events=events)
    client = Client(server.url, backoff=0.05)
    tracemalloc.start()
    try:
        event = within(10, lambda: next(iter(client.events())))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (event.id, event.name, event.data) == (9, "advice", {"client": "a"})
    assert len(server.routed("events")) == 2
    assert peak < 4 << 20, f"{peak} bytes at the peak"


# 5. Events that cannot be read are skipped.

BAD_EVENTS = (
    b": a comment\n\n"
    b"id: 1\nevent: advice\ndata: \xff\xfe\n\n"                # not UTF-8
    b"id: 2\nevent: advice\ndata: not json\n\n"               # not JSON
    b"id: x7\nevent: pressure\ndata: [1, 2]\n\n"               # an odd id; not an object
    b"id: \xc2\xb2\nevent: pressure\ndata: {\"n\": NaN}\n\n"    # a superscript two; NaN
    b"id: -3\nid: 99999999999999999999999\nid: 1e3\n"          # ignored ids,
    b"event: pressure\ndata: {\"ok\": 3}\n\n"                  # an event with the last good id
    b"id: 3\r\nevent: advice\r\ndata: {\"fine\":\r\ndata: true}\r\n\r\n"
)


def test_events_skip_what_they_cannot_read_and_go_on(fake):
    def events(request: Request) -> List[bytes]:
        if len(server.routed("events")) == 1:
            return [EVENT_HEAD + BAD_EVENTS]
        return [EVENT_HEAD + b'id: 4\nevent: advice\ndata: {"again": true}\n\n']

    server = fake(events=events)
    client = Client(server.url, backoff=0.05)

    def first_three():
        stream = client.events()
        return [next(stream) for _ in range(3)]

    received = within(10, first_three)
    assert [(event.id, event.name, event.data) for event in received] == [
        (2, "pressure", {"ok": 3}), (3, "advice", {"fine": True}), (4, "advice", {"again": True})]
    # Resumed after the last good id.
    assert server.routed("events")[1].headers.get("last-event-id") == "3"


# 6. Advice out of range.

OUT_OF_RANGE = {
    "a NaN frame rate": (http(200, json.dumps({**ADVICE, "frameRate": float("nan")}).encode()), "NaN"),
    "an infinite frame rate": (http(200, json.dumps(ADVICE).replace('"frameRate": 10', '"frameRate": 1e999').encode()), "frameRate"),
    "a negative frame rate": (answer(200, {**ADVICE, "frameRate": -1}), "frameRate"),
    "beyond the nominal frame rate": (answer(200, {**ADVICE, "frameRate": 11}), "frameRate"),
    "a boolean frame rate": (answer(200, {**ADVICE, "frameRate": True}), "frameRate"),
    "ladder step 99": (answer(200, {**ADVICE, "ladderStep": 99}), "ladderStep"),
    "ladder step -1": (answer(200, {**ADVICE, "ladderStep": -1}), "ladderStep"),
    "ladder step 1.5": (answer(200, {**ADVICE, "ladderStep": 1.5}), "ladderStep"),
    "another step's name": (answer(200, {**ADVICE, "ladderStep": 1, "ladderName": "hog-0.5"}), "ladderName"),
}


@pytest.mark.parametrize("case", OUT_OF_RANGE)
@pytest.mark.parametrize("name", ["register", "advice", "report"])
def test_advice_out_of_range_never_reaches_the_pipeline(fake, case, name):
    bad, field = OUT_OF_RANGE[case]
    if name == "register":
        status, _, body = bad.partition(b"\r\n\r\n")
        bad = http(201, b'{"id": "abc", "leaseSeconds": 30, "advice": ' + body + b"}")
    server = fake(**{name: bad})
    advice = call(Client(server.url, backoff=0), name)
    assert advice.is_fallback
    assert field in advice.reason, advice.reason


@pytest.mark.parametrize("value", [
    {"frameRate": 0},                                      # pause
    {"frameRate": 2.5, "ladderStep": 2, "ladderName": "hog-0.5"},
    {"frameRate": 10.0, "ladderStep": 1.0, "ladderName": "hog-0.75", "seq": 7.0},
])
def test_advice_in_range_is_followed(fake, value):
    server = fake(advice=answer(200, {**ADVICE, **value}))
    advice = call(Client(server.url), "advice")
    assert not advice.is_fallback
    assert advice.frame_rate == value["frameRate"]
    assert isinstance(advice.ladder_step, int) and isinstance(advice.seq, int)


# 7. Reconnecting.


def test_a_stalled_event_stream_reconnects_after_the_last_event(fake, monkeypatch):
    monkeypatch.setattr(client_module, "EVENT_LINE_SECONDS", 0.5, raising=False)
    stalled = trickle(EVENT_HEAD + b'id: 7\nevent: pressure\ndata: {"level": "fair"}\n\n: ',
                      lambda: server.stopping, every=0.2)

    def events(request: Request) -> Answer:
        if len(server.routed("events")) == 1:
            return stalled(request)
        if len(server.routed("events")) == 2:
            return [http(503, b'{"problem": "256 readers"}')]
        return [EVENT_HEAD + b'id: 8\nevent: pressure\ndata: {"level": "nominal"}\n\n']

    server = fake(events=events)
    client = Client(server.url, timeout=0.5, backoff=0.05)

    def two():
        stream = client.events()
        return [next(stream), next(stream)]

    first, second = within(6, two)
    assert (first.id, second.id) == (7, 8)
    assert [request.headers.get("last-event-id") for request in server.routed("events")] == [
        None, "7", "7"]
