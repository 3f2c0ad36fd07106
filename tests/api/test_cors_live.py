"""CORS as a browser meets it: a real server process, a real preflight, then the cross-origin answer. A page
on another origin reads a response header only when ``Access-Control-Expose-Headers`` names it, so every
header a client of this API reads (its rate limit before a 429, the ETag, where a scenario was created, the
request id) must be named there, on successes, on errors and on 429s alike."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import LiveServer, live_server, server_env

pytestmark = [pytest.mark.slow, pytest.mark.db_free]  # a server on its own SQLite file

SITE = "https://decks.example"
READ_BY_CLIENTS = {"ratelimit", "ratelimit-policy", "retry-after", "etag", "location", "x-request-id"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    home = tmp_path_factory.mktemp("cors")
    env = server_env(home)
    env["MANACALC_CORS_ORIGINS"] = SITE
    env["MANACALC_RATE_LIMIT_PER_MINUTE"] = "60"
    env["MANACALC_RATE_LIMIT_BURST"] = "3"
    with live_server(home, env=env) as live:
        yield live


def ask(
    server: LiveServer, method: str, path: str, headers: dict[str, str], body: bytes | None = None
) -> tuple[int, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def exposed(headers: dict[str, str]) -> set[str]:
    return {h.strip().lower() for h in headers.get("access-control-expose-headers", "").split(",")}


def test_preflight_then_cross_origin_answers_expose_what_clients_read(
    server: LiveServer, tmp_path: Path
) -> None:
    status, preflight = ask(
        server,
        "OPTIONS",
        "/v1/mana-costs/parse",
        {
            "Origin": SITE,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-request-id",
        },
    )
    assert status == 200, preflight
    assert preflight["access-control-allow-origin"] == SITE
    assert "POST" in preflight["access-control-allow-methods"]

    body = json.dumps({"mana_cost": "2WW"}).encode()
    status, answer = ask(
        server, "POST", "/v1/mana-costs/parse", {"Origin": SITE, "Content-Type": "application/json"}, body
    )
    assert status == 200
    assert answer["access-control-allow-origin"] == SITE
    assert "ratelimit" in answer and "ratelimit-policy" in answer  # sent, and...
    assert exposed(answer) >= READ_BY_CLIENTS  # ...readable by the page

    # An error and a 429 expose the same headers (the burst of 3 is spent by now).
    statuses = []
    for _ in range(4):
        status, answer = ask(server, "GET", "/v1/mana-costs/parse?mana_cost=%7BQ%7D", {"Origin": SITE})
        statuses.append(status)
        assert answer["access-control-allow-origin"] == SITE
        assert exposed(answer) >= READ_BY_CLIENTS, (status, answer)
    assert 422 in statuses and statuses[-1] == 429, statuses
    assert answer["retry-after"]
