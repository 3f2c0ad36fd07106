"""Issue 15's smaller holes: a silent database, Retry-After on every 503, no Host echo, uvicorn limits."""

from __future__ import annotations

import argparse
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from uvicorn.importer import import_from_string

from app.api.http_server import ManacalcHttpToolsProtocol, ServerLimits
from app.config import Settings
from app.db.session import postgres_timeouts


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A TCP server that accepts connections and never sends a byte: a database that hangs."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def test_silent_database_gives_503_with_retry_after_within_the_timeout(
    settings: Settings, silent_port: int
) -> None:
    from app.main import create_app

    silent = settings.model_copy(
        update={
            "database_url": f"postgresql+psycopg://nobody@127.0.0.1:{silent_port}/none",
            "db_pool_timeout": 2.0,
            "migrate_on_start": False,
        }
    )
    client = TestClient(create_app(silent))
    started = time.monotonic()
    response = client.get("/readyz")
    elapsed = time.monotonic() - started
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"].isdigit()
    # The configured 2 s, with generous slack for a loaded CI machine; the bug was 89 s.
    assert elapsed < 8, elapsed


def test_readyz_503_for_an_unmigrated_schema_has_retry_after(tmp_path: Path, settings: Settings) -> None:
    from app.main import create_app

    empty = settings.model_copy(update={"database_url": f"sqlite:///{tmp_path / 'empty.db'}"})
    response = TestClient(create_app(empty)).get("/readyz")
    assert response.status_code == 503
    assert int(response.headers["retry-after"]) > 0


def test_postgres_connections_time_out_at_every_stage() -> None:
    options = postgres_timeouts(10.0)
    assert options["connect_timeout"] == 10
    assert options["tcp_user_timeout"] == 10_000
    assert options["keepalives"] == 1
    # A dead peer is found within the timeout: idle + interval * count.
    assert options["keepalives_idle"] + options["keepalives_interval"] * options["keepalives_count"] <= 10


def test_trailing_slash_is_not_redirected_and_host_is_not_echoed(client: TestClient) -> None:
    response = client.get("/healthz/", headers={"Host": "evil.example"}, follow_redirects=False)
    assert response.status_code == 404
    assert "location" not in response.headers
    assert "evil.example" not in response.text


def test_serve_passes_header_cap_keep_alive_and_no_proxy_trust(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from app import cli
    from app.config import get_settings

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: seen.update(kwargs))
    monkeypatch.setenv("MANACALC_MAX_HEADER_BYTES", "8192")
    monkeypatch.setenv("MANACALC_KEEP_ALIVE_TIMEOUT_S", "3")
    monkeypatch.setenv("MANACALC_REQUEST_HEAD_TIMEOUT_S", "2.5")
    monkeypatch.setenv("MANACALC_MAX_CONCURRENT_CONNECTIONS", "300")
    monkeypatch.setenv("MANACALC_MIGRATE_ON_START", "false")
    get_settings.cache_clear()
    try:
        status = cli.serve(argparse.Namespace(host="127.0.0.1", port=0, workers=1))
        # Each worker's protocol reads its limits from the settings (the class is named, not passed).
        limits = ServerLimits.from_settings(get_settings())
    finally:
        get_settings.cache_clear()
    assert status == 0
    assert seen["http"] == "app.api.http_server:ManacalcHttpToolsProtocol"
    assert import_from_string(seen["http"]) is ManacalcHttpToolsProtocol
    assert limits == ServerLimits(
        max_header_bytes=8192, request_head_timeout_s=2.5, max_connections=300, max_requests=300
    )
    # uvicorn's own limit counted idle connections against requests (issue 27): ours replaces it.
    assert seen["limit_concurrency"] is None
    assert seen["timeout_keep_alive"] == 3
    assert seen["proxy_headers"] is False


def test_scenario_listing_is_cut_by_bytes_with_a_cursor(
    client: TestClient, db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.services import scenarios
    from app.services.api_keys import create_api_key

    headers = {"Authorization": f"Bearer {create_api_key(db_session, name='lister')}"}
    for n in range(5):
        board = {"permanents": [{"id": f"p{i}", "card": "Forest"} for i in range(n + 1)]}
        created = client.post("/v1/scenarios", json={"name": f"s{n}", "board": board}, headers=headers)
        assert created.status_code == 201, created.text
    # A budget of one byte: every page holds exactly one scenario, and the cursor walks them all.
    monkeypatch.setattr(scenarios, "LIST_PAGE_MAX_BYTES", 1)
    monkeypatch.setattr(scenarios, "LIST_CHUNK_ROWS", 2)
    names: list[str] = []
    cursor: str | None = None
    for _ in range(10):
        params = {"limit": "100", **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/scenarios", params=params, headers=headers).json()
        assert len(page["data"]) == 1
        names += [item["name"] for item in page["data"]]
        cursor = page.get("next_cursor")
        if not cursor:
            break
    assert names == [f"s{n}" for n in range(5)]


@pytest.fixture
def blackhole_proxy(database_url: str) -> Iterator[tuple[int, threading.Event]]:
    """A TCP proxy to the test's PostgreSQL that, once its event is set, swallows everything both ways
    while keeping the connections open: a database that stays connected but never answers."""
    from sqlalchemy.engine import make_url

    target = make_url(database_url)
    if target.get_backend_name() != "postgresql":
        pytest.skip("a PostgreSQL test (MANACALC_TEST_DATABASE_URL)")
    silent = threading.Event()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def pipe(source: socket.socket, sink: socket.socket) -> None:
        while not stop.is_set():
            try:
                data = source.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            if not silent.is_set():
                sink.sendall(data)

    def accept() -> None:
        while not stop.is_set():
            try:
                client = server.accept()[0]
            except OSError:
                continue
            upstream = socket.create_connection((target.host or "127.0.0.1", target.port or 5432))
            for sock in (client, upstream):
                sock.settimeout(0.2)
                held.append(sock)
            threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1], silent
    stop.set()
    for sock in held:
        sock.close()
    server.close()


def test_a_database_that_stops_answering_mid_connection_gives_a_503_in_time(
    settings: Settings, database_url: str, blackhole_proxy: tuple[int, threading.Event], startup_hooks: None
) -> None:
    """Issue 27: a connected database that never answers hung requests for the whole outage (the server
    enforces the statement timeout; the kernel still acknowledges what is sent). The client gives up at
    the statement timeout and a second: a 503 problem with Retry-After."""
    from sqlalchemy.engine import make_url

    from app.main import create_app

    port, silent = blackhole_proxy
    url = make_url(database_url).set(host="127.0.0.1", port=port)
    proxied = settings.model_copy(
        update={
            "database_url": url.render_as_string(hide_password=False),
            "db_pool_timeout": 2.0,
            "statement_timeout_ms": 1000,
            "migrate_on_start": False,
        }
    )
    client = TestClient(create_app(proxied))
    assert client.get("/readyz").status_code == 200  # a pooled connection, through the proxy
    silent.set()
    time.sleep(1.1)  # /readyz keeps its verdict for a second: ask past it
    started = time.monotonic()
    response = client.get("/readyz")
    elapsed = time.monotonic() - started
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["retry-after"].isdigit()
    assert elapsed < 6, elapsed  # 1 s statement timeout + 1 s; generous for a loaded machine
