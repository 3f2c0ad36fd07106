"""Observability: Prometheus ``/metrics`` (by route template, bounded labels, summed over workers; off the
public API: behind a token on the API port, or on a port of its own), the request id in every response and
log line, JSON log lines."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr
from sqlalchemy.orm import Session

from app.config import Settings
from app.logs import configure_logging
from app.main import apply_process_settings, create_app
from tests.sessions import bind_app_to_session

TOKEN = "metrics-token-for-the-tests"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


def with_token(settings: Settings, **update: object) -> Settings:
    return settings.model_copy(update={"metrics_token": SecretStr(TOKEN), **update})


@pytest.fixture
def app(settings: Settings, db_session: Session) -> FastAPI:
    """The suite's app with a metrics token: these tests scrape the API port with it."""
    application = create_app(with_token(settings))
    bind_app_to_session(application, db_session)
    return application


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus exposition, by name and sorted labels."""
    out: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def requests_total(scraped: dict[tuple[str, tuple[tuple[str, str], ...]], float], **labels: str) -> float:
    want = set(labels.items())
    return sum(
        value
        for (name, got), value in scraped.items()
        if name == "manacalc_http_requests_total" and want <= set(got)
    )


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", headers=BEARER)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return samples(response.text)


# --- where /metrics answers -----------------------------------------------------------------------------


def test_metrics_are_off_the_public_api_by_default(database_url: str) -> None:
    """No setting: no /metrics on the API port at all, and none in the OpenAPI document."""
    app = create_app(Settings(database_url=database_url, migrate_on_start=False, rate_limit_per_minute=0))
    client = TestClient(app)
    response = client.get("/metrics")
    assert response.status_code == 404
    assert "manacalc_http_requests" not in response.text
    assert "/metrics" not in app.openapi()["paths"]


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong-token-of-some-length", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer"],
)
def test_metrics_on_the_api_port_need_the_token(client: TestClient, authorization: str | None) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 401
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.json()["type"].endswith("/problems/unauthorized")
    assert "MANACALC_METRICS_TOKEN" in response.json()["detail"]
    assert "manacalc_http_requests" not in response.text
    assert client.get("/metrics", headers=BEARER).status_code == 200


def test_a_short_metrics_token_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.config import SettingsError, get_settings

    monkeypatch.setenv("MANACALC_METRICS_TOKEN", "short")
    get_settings.cache_clear()
    try:
        with pytest.raises(SettingsError, match="MANACALC_METRICS_TOKEN"):
            get_settings()
    finally:
        get_settings.cache_clear()


def test_start_up_builds_the_openapi_document(settings: Settings, db_session: Session) -> None:
    """Before ready, not on the first answer given before routing (which labels its metrics from the
    document's paths): built lazily, it held the event loop for 0.7 s (issue 15)."""
    app = create_app(with_token(settings))
    bind_app_to_session(app, db_session)
    assert not app.openapi_schema
    with TestClient(app) as client:
        assert app.openapi_schema
        assert client.post("/v1/mana-costs/parse", content=b'{"mana_cost": "{W}"}').status_code == 415


def test_start_up_encodes_the_served_openapi_document_once(
    settings: Settings, db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its bytes and gzip form too: made by the first request for them, they cost it over 100 ms, and a
    /healthz beside a flood of such first requests waited 445 ms (``bench/hostile.py --floods``)."""
    import app.api.docs as docs

    compressed: list[int] = []
    real = docs.gzip.compress
    monkeypatch.setattr(
        docs.gzip, "compress", lambda data, **kw: compressed.append(len(data)) or real(data, **kw)
    )
    app = create_app(with_token(settings))
    bind_app_to_session(app, db_session)
    with TestClient(app) as client:
        assert len(compressed) == 1  # before any request
        for encoding in ("gzip", "identity", "gzip"):
            answer = client.get("/openapi.json", headers={"Accept-Encoding": encoding})
            assert answer.status_code == 200 and answer.json()["openapi"]
        assert len(compressed) == 1


def test_requests_are_counted_by_route_template_and_status(client: TestClient) -> None:
    before = scrape(client)
    assert client.get("/v1/cards/Llanowar Elves").status_code == 200
    assert client.get("/v1/cards/Forest").status_code == 200
    assert client.get("/v1/cards/No Such Card At All").status_code == 404
    assert client.get("/v1/nowhere/42").status_code == 404
    assert client.delete("/v1/symbols").status_code == 405
    after = scrape(client)

    def delta(**labels: str) -> float:
        return requests_total(after, **labels) - requests_total(before, **labels)

    assert delta(method="GET", route="/v1/cards/{ref}", status="200") == 2
    assert delta(method="GET", route="/v1/cards/{ref}", status="404") == 1
    assert delta(route="unmatched", status="404") == 1
    assert delta(method="DELETE", route="/v1/symbols", status="405") == 1
    # Bounded cardinality: raw paths are never labels.
    raw = ("Forest", "Llanowar", "nowhere")
    assert not [labels for _, labels in after if any(r in v for r in raw for _, v in labels)]
    count = ("manacalc_http_request_duration_seconds_count",)
    key = (("method", "GET"), ("route", "/v1/cards/{ref}"), ("status", "200"))
    assert after[(*count, key)] - before.get((*count, key), 0) == 2
    bucket = ("manacalc_http_request_duration_seconds_bucket", (("le", "+Inf"), *key))
    assert after[bucket] - before.get(bucket, 0) == 2


def test_answers_refused_before_routing_are_counted_under_their_route(
    client: TestClient, settings: Settings
) -> None:
    before = scrape(client)
    big = b'{"mana_cost": "' + b"1" * settings.max_body_bytes + b'"}'
    response = client.post("/v1/mana-costs/parse", content=big, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    after = scrape(client)
    labels = {"method": "POST", "route": "/v1/mana-costs/parse", "status": "413"}
    assert requests_total(after, **labels) - requests_total(before, **labels) == 1


def test_unknown_methods_share_one_label(client: TestClient) -> None:
    before = scrape(client)
    client.request("BREW", "/v1/symbols")
    after = scrape(client)
    assert requests_total(after, method="other") - requests_total(before, method="other") == 1
    assert not [labels for _, labels in after if ("method", "BREW") in labels]


def test_in_progress_gauge_counts_the_scrape_itself_only(client: TestClient) -> None:
    for _ in range(5):
        client.get("/healthz")
    client.post("/v1/spells/cost", content=b"{", headers={"Content-Type": "application/json"})
    # Every request decremented the gauge when done: only the scrape being answered is in progress.
    assert scrape(client)[("manacalc_http_requests_in_progress", ())] == 1


def test_metrics_and_health_are_outside_the_rate_limit(settings: Settings) -> None:
    app = create_app(with_token(settings, rate_limit_per_minute=1, rate_limit_burst=1))
    client = TestClient(app)
    assert client.get("/v1/symbols").status_code == 200
    assert client.get("/v1/symbols").status_code == 429
    for _ in range(5):
        assert client.get("/metrics", headers=BEARER).status_code == 200
        assert client.get("/healthz").status_code == 200


# --- request ids and logs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/healthz", None),
        ("GET", "/metrics", None),  # a 401 problem here (no token sent)
        ("GET", "/v1/no-such-route", None),
        ("DELETE", "/v1/symbols", None),
        ("POST", "/v1/spells/cost", b"{"),
        ("POST", "/v1/mana-costs/parse", b" " * (2 * 1024 * 1024)),
    ],
)
def test_every_answer_carries_a_request_id(
    client: TestClient, method: str, path: str, body: bytes | None
) -> None:
    response = client.request(method, path, content=body, headers={"Content-Type": "application/json"})
    assert len(response.headers["x-request-id"]) >= 16
    echoed = client.request(
        method, path, content=body, headers={"Content-Type": "application/json", "X-Request-ID": "abc-123"}
    )
    assert echoed.headers["x-request-id"] == "abc-123"


def test_every_log_line_of_a_request_carries_its_id(app: FastAPI, caplog: pytest.LogCaptureFixture) -> None:
    # An unexpected error logs from inside the request (its traceback) as well as the access line.
    @app.get("/boom-for-test")
    def boom() -> None:
        raise RuntimeError("kaboom")

    with caplog.at_level(logging.INFO):
        response = TestClient(app).get("/boom-for-test", headers={"X-Request-ID": "trace-boom"})
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/problem+json")
    mine = [r for r in caplog.records if getattr(r, "request_id", None) == "trace-boom"]
    assert {r.name for r in mine} >= {"manacalc.errors", "manacalc.access"}
    assert "kaboom" not in response.text


def test_json_log_lines_carry_the_request_id(settings: Settings) -> None:
    stream = io.StringIO()
    original = sys.stderr
    sys.stderr = stream  # configure_logging binds its handler to the stderr of the moment
    try:
        json_settings = with_token(settings, log_json=True, log_level="INFO")
        apply_process_settings(json_settings)  # what a served process with these settings does
        app = create_app(json_settings)
    finally:
        sys.stderr = original
    try:
        TestClient(app).get("/healthz", headers={"X-Request-ID": "json-7"})
    finally:
        configure_logging(settings.log_level, json_lines=settings.log_json)
    lines = [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]
    access = [doc for doc in lines if doc["logger"] == "manacalc.access"]
    assert access and access[-1]["request_id"] == "json-7"
    assert access[-1]["status"] == 200 and access[-1]["path"] == "/healthz"
    assert {"time", "level", "message"} <= access[-1].keys()


# --- several workers ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serving_two_workers(tmp_path: Path) -> Iterator[tuple[str, Path, str]]:
    """``manacalc serve --workers 2`` on a fresh SQLite file, metrics on a port of their own; its temporary
    files go under the Path. Yields the API's base URL, that directory and the metrics URL."""
    port = free_port()
    metrics_port = free_port()
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {
        **os.environ,
        "MANACALC_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
        "MANACALC_RATE_LIMIT_PER_MINUTE": "0",
        "MANACALC_LOG_LEVEL": "WARNING",
        "TMPDIR": str(temp),
        "MANACALC_METRICS_PORT": str(metrics_port),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    manacalc = Path(sys.executable).with_name("manacalc")
    process = subprocess.Popen(
        [str(manacalc), "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                stderr = process.stderr.read().decode() if process.stderr else ""
                pytest.fail(f"manacalc serve did not start: {stderr[-2000:]}")
            time.sleep(0.2)
        yield base, temp, f"http://127.0.0.1:{metrics_port}/metrics"
    finally:
        process.send_signal(signal.SIGINT)  # uvicorn's graceful stop; then serve removes its directory
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()


@pytest.mark.slow
@pytest.mark.db_free  # two workers on a SQLite file of their own
def test_metrics_add_up_every_workers_requests(tmp_path: Path) -> None:
    sent = 0
    with serving_two_workers(tmp_path) as (base, temp, metrics_url):
        directories = list(temp.glob("manacalc-metrics-*"))
        assert len(directories) == 1

        def writers() -> set[str]:
            return {path.name.rsplit("_", 1)[-1] for path in directories[0].glob("counter_*.db")}

        # A new connection each time, so that both workers get some of them. A worker still loading the
        # catalogue accepts nothing yet, so keep sending (bounded) until both have counted requests.
        deadline = time.monotonic() + 60
        while sent < 60 or (len(writers()) < 2 and time.monotonic() < deadline):
            with httpx.Client(base_url=base, headers={"Connection": "close"}) as one:
                assert one.get("/v1/symbols").status_code == 200
            sent += 1
        # The metrics port (served by serve's own process) reports every worker's requests; the API port
        # has no /metrics (no token is set).
        for _ in range(3):
            response = httpx.get(metrics_url, timeout=5)
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/plain")
            scraped = samples(response.text)
            assert requests_total(scraped, method="GET", route="/v1/symbols", status="200") == sent
        assert httpx.get(metrics_url.replace("/metrics", "/v1/symbols"), timeout=5).status_code == 404
        assert httpx.get(f"{base}/metrics", timeout=5).status_code == 404
        assert len(writers()) == 2, writers()  # both workers counted requests: the sum above is theirs
    assert not list(temp.glob("manacalc-metrics-*"))  # removed when serve stopped


def test_serve_sets_and_removes_the_multiprocess_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    from app import cli

    seen: dict[str, str | None] = {}

    def fake_run(*args: object, **kwargs: object) -> None:
        directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        seen["dir"] = directory
        assert directory and Path(directory).is_dir()
        assert kwargs["workers"] == 3

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setenv("MANACALC_MIGRATE_ON_START", "false")
    monkeypatch.setattr(cli, "_migrate", lambda: 0)
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    try:
        assert cli.main(["serve", "--workers", "3"]) == 0
    finally:
        os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    assert seen["dir"] is not None and seen["dir"].startswith(str(tmp_path))
    assert not Path(seen["dir"]).exists()
    # One worker: single-process metrics, no directory.
    seen.clear()

    def fake_run_one(*args: object, **kwargs: object) -> None:
        seen["dir"] = os.environ.get("PROMETHEUS_MULTIPROC_DIR")

    monkeypatch.setattr(uvicorn, "run", fake_run_one)
    assert cli.main(["serve"]) == 0
    assert seen["dir"] is None


def test_the_metrics_port_answers_metrics_alone() -> None:
    """The metrics port (one process: this process's registry) answers GET and HEAD /metrics, nothing else;
    a port already taken is an OSError, which ``manacalc serve`` reports before starting."""
    from app.api.metrics import REQUESTS, serve_metrics_port

    REQUESTS.labels("GET", "/v1/symbols", "200").inc(0)  # the family exists in this process
    server = serve_metrics_port("127.0.0.1", 0)
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        response = httpx.get(f"{base}/metrics", timeout=5)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/plain")
        assert "manacalc_http_requests_total" in response.text
        head = httpx.head(f"{base}/metrics", timeout=5)
        assert head.status_code == 200 and head.content == b""
        assert httpx.get(f"{base}/", timeout=5).status_code == 404
        assert httpx.get(f"{base}/v1/symbols", timeout=5).status_code == 404
        with pytest.raises(OSError):
            serve_metrics_port("127.0.0.1", server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
