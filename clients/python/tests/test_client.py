"""The Python client against a real `headroom serve`."""

import re
import subprocess
import threading
import time

import pytest

from headroom_client import Client, LadderStep, RequestError, ServiceUnavailable

LADDER = [LadderStep("hog-1.0", 184), LadderStep("hog-0.75", 86), LadderStep("hog-0.5", 31)]
SESSION = {
    "profile": "raspberry-pi-5",
    "cameras": [{"id": "a", "format": {"width": 1920, "height": 1080, "maxFrameRate": 30}}],
    "outputs": [{"kind": "preview"}],
}


def register(client: Client, name: str = "people", priority: int = 5):
    return client.register(
        name, priority=priority, nominal_frame_rate=10, min_frame_rate=2, ladder=LADDER)


def test_pressure_is_the_versioned_reading(service):
    reading = Client(service.url).pressure()
    assert reading["version"] == 1
    assert reading["level"] in {"nominal", "fair", "serious", "critical", "shutdown"}
    assert 0 <= reading["sustainableShare"] <= 1


def test_register_advice_report_close(service):
    client = Client(service.url)
    first = register(client)
    assert not first.is_fallback
    assert first.seq >= 1
    assert client.client_id is not None
    advice = client.advice()
    assert advice.ladder_name in {step.name for step in LADDER}
    assert not advice.is_fallback
    after = client.report(10, work_seconds=[0.05] * 10, target_seconds=0.1)
    assert not after.is_fallback
    registered = client.client_id
    client.close()
    assert client.client_id is None
    # The service forgot it: its advice is 404.
    with pytest.raises(RequestError) as error:
        client._request("GET", f"/v1/clients/{registered}/advice")
    assert error.value.status == 404


def test_clients_lists_the_governed_pipelines(service):
    assert Client(service.url).clients() == []
    low, high = Client(service.url), Client(service.url)
    register(low, name="low", priority=2)
    register(high, name="high", priority=9)
    listed = Client(service.url).clients()
    assert [(entry.name, entry.id) for entry in listed] == [
        ("high", high.client_id), ("low", low.client_id)]
    assert listed[0].priority == 9 and listed[0].advice.ladder_name == "hog-1.0"
    assert listed[0].demand >= 0
    low.close()
    assert [entry.name for entry in Client(service.url).clients()] == ["high"]


def test_the_unix_socket_serves_the_same_api(service):
    client = Client("unix:" + service.socket_path)
    assert not register(client).is_fallback
    assert client.pressure()["version"] == 1


def test_a_refused_registration_names_the_field(service):
    client = Client(service.url)
    with pytest.raises(RequestError) as error:
        client.register("bad", priority=5, nominal_frame_rate=10, min_frame_rate=20, ladder=LADDER)
    assert error.value.status == 400
    assert error.value.path == "minFrameRate"
    with pytest.raises(RequestError) as error:
        client.register("bad", priority=500, nominal_frame_rate=10, min_frame_rate=2, ladder=LADDER)
    assert error.value.path == "priority"


def test_estimate_prices_a_session_and_names_a_bad_field(service):
    client = Client(service.url)
    estimate = client.estimate(SESSION)
    assert estimate["profile"] == "raspberry-pi-5"
    assert estimate["fits"] is True
    bad = {**SESSION, "cameras": [{"id": "a", "format": {"width": 0, "height": 1080, "maxFrameRate": 30}}]}
    with pytest.raises(RequestError) as error:
        client.estimate(bad)
    assert error.value.path == "cameras[0].format.width"


def test_without_a_service_the_advice_is_nominal():
    client = Client("http://127.0.0.1:9", timeout=0.5, backoff=60)
    advice = register(client)
    assert advice.is_fallback
    assert advice.frame_rate == 10 and advice.ladder_step == 0
    assert "unavailable" in advice.reason
    # Backing off: the next call does not even try.
    assert client.advice().is_fallback
    assert client.report(1, work_seconds=[0.1], target_seconds=0.1).is_fallback
    with pytest.raises(ServiceUnavailable):
        client.pressure()


def test_a_service_that_goes_away_and_comes_back(service):
    client = Client("unix:" + service.socket_path, backoff=0.01, max_backoff=0.01)
    register(client)
    first = client.client_id
    service.stop()
    assert client.advice().is_fallback
    service.start()
    advice = client.advice()
    assert not advice.is_fallback
    assert client.client_id is not None and client.client_id != first


@pytest.mark.parametrize("service", [["--lease", "1"]], indirect=True)
def test_an_expired_lease_registers_again(service):
    client = Client(service.url)
    register(client)
    first = client.client_id
    threading.Event().wait(2.5)  # the lease is one second of the service's time
    advice = client.advice()
    assert not advice.is_fallback
    assert client.client_id != first


def test_events_carry_each_new_clients_advice(service):
    pipeline = Client(service.url)
    register(pipeline, name="second")
    # From the log's start, so the registration's event is there however fast it came.
    for event in Client(service.url).events(last_event_id=0):
        if event.name == "advice":
            break
    assert event.data["client"] == pipeline.client_id
    assert event.data["name"] == "second"
    assert event.data["advice"]["ladderName"] == "hog-1.0"
    assert event.id is not None and event.id >= 1


def test_a_pipeline_shares_the_host_with_headroom_run(headroom_binary, tmp_path):
    # `headroom run --serve` serves the same API: its own pipeline is one client of the
    # governor, and a pipeline that registers shares the host's budget with it.
    run = subprocess.Popen(
        [headroom_binary, "run", "--serve", "127.0.0.1:0", "--seconds", "60",
         "--out", str(tmp_path / "run"), "--db", str(tmp_path / "history.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = run.stdout.readline()
        assert line.startswith("serving on 127.0.0.1:"), (line, run.stderr.read())
        url = "http://127.0.0.1:" + line.split()[2].split(":")[1]
        client = Client(url)
        advice = register(client, name="people", priority=5)
        assert not advice.is_fallback
        # The run registers its pipeline once it has committed its session.
        deadline = time.monotonic() + 20
        while True:
            listed = client._request("GET", "/v1/clients")["clients"]
            clients = {entry["name"]: entry for entry in listed}
            if len(clients) == 2 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert set(clients) == {"headroom run", "people"}
        assert clients["headroom run"]["priority"] == 50
        # One of the run's detector settings: the heaviest on an idle host, a lighter one when
        # the run's own frames are late (a busy host), so only its form is certain.
        ladder_name = clients["headroom run"]["advice"]["ladderName"]
        assert re.fullmatch(r"stride \d+ @ [\d.]+", ladder_name), ladder_name
        # Higher priority first.
        assert list(clients) == ["headroom run", "people"]
        client.close()
    finally:
        run.terminate()
        run.wait(timeout=30)
    # Stopped by SIGTERM, the run still wrote its report.
    assert run.returncode == 143
    assert (tmp_path / "run" / "run.json").exists()
