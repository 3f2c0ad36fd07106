"""CORS: origins from MANACALC_CORS_ORIGINS (JSON list or comma-separated); the headers browsers need are
exposed, on errors and 429s too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.config import Settings
from app.main import create_app
from tests.sessions import bind_app_to_session

SITE = "https://decks.example"


def build(settings: Settings, db_session: Session, **update: Any) -> TestClient:
    """A client for the app with ``update`` applied to the test settings, on the test's session."""
    app = create_app(settings.model_copy(update=update))

    bind_app_to_session(app, db_session)
    return TestClient(app)


@pytest.fixture
def cors_client(settings: Settings, db_session: Session) -> TestClient:
    return build(settings, db_session, cors_origins=[SITE])


@pytest.mark.parametrize(
    ("raw", "origins"),
    [
        ('["https://a.example", "https://b.example"]', ["https://a.example", "https://b.example"]),
        ("https://a.example, https://b.example", ["https://a.example", "https://b.example"]),
        ("https://a.example", ["https://a.example"]),
        ("*", ["*"]),
        ("", []),
    ],
)
def test_origins_setting_accepts_json_or_commas(
    monkeypatch: pytest.MonkeyPatch, raw: str, origins: list[str]
) -> None:
    monkeypatch.setenv("MANACALC_CORS_ORIGINS", raw)
    assert Settings().cors_origins == origins


def test_preflight_from_an_allowed_origin(cors_client: TestClient) -> None:
    response = cors_client.options(
        "/v1/scenarios/abc",
        headers={
            "Origin": SITE,
            "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "authorization, content-type, if-match",
        },
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == SITE
    assert "PUT" in response.headers["access-control-allow-methods"]
    allowed = response.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "if-match"} <= {h.strip() for h in allowed.split(",")}
    assert int(response.headers["access-control-max-age"]) > 0


def test_preflight_from_another_origin_is_refused(cors_client: TestClient) -> None:
    response = cors_client.options(
        "/v1/spells/cost",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert response.status_code == 400
    assert "access-control-allow-origin" not in response.headers


def test_simple_request_exposes_the_headers_clients_read(cors_client: TestClient) -> None:
    response = cors_client.post("/v1/mana-costs/parse", json={"mana_cost": "2WW"}, headers={"Origin": SITE})
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == SITE
    exposed = {h.strip().lower() for h in response.headers["access-control-expose-headers"].split(",")}
    assert {"etag", "location", "retry-after", "x-request-id", "ratelimit", "ratelimit-policy"} <= exposed
    other = cors_client.get("/v1/symbols", headers={"Origin": "https://evil.example"})
    assert other.status_code == 200 and "access-control-allow-origin" not in other.headers


def test_errors_and_429_carry_cors_headers(settings: Settings, db_session: Session) -> None:
    client = build(settings, db_session, cors_origins=[SITE], rate_limit_per_minute=1, rate_limit_burst=1)
    bad = client.post("/v1/mana-costs/parse", json={"mana_cost": "{Q}"}, headers={"Origin": SITE})
    assert bad.status_code == 422 and bad.headers["access-control-allow-origin"] == SITE
    limited = client.get("/v1/symbols", headers={"Origin": SITE})
    assert limited.status_code == 429
    assert limited.headers["access-control-allow-origin"] == SITE  # the browser may read Retry-After
    assert limited.headers["retry-after"]


def test_no_origin_configured_means_no_cors(client: TestClient) -> None:
    response = client.get("/v1/symbols", headers={"Origin": SITE})
    assert "access-control-allow-origin" not in response.headers
    preflight = client.options(
        "/v1/spells/cost", headers={"Origin": SITE, "Access-Control-Request-Method": "POST"}
    )
    assert "access-control-allow-origin" not in preflight.headers


def test_wildcard_allows_any_origin(settings: Settings) -> None:
    client = TestClient(create_app(settings.model_copy(update={"cors_origins": ["*"]})))
    response = client.get("/v1/symbols", headers={"Origin": "https://anyone.example"})
    assert response.headers["access-control-allow-origin"] == "*"


# --- origins checked at start-up ------------------------------------------------------------------------
# Starlette compares the Origin header with each configured string as it is: an origin written any other way
# than browsers send it (RFC 6454 serialization: scheme://host[:port], lower case, no default port, no path)
# never matches, and CORS was silently off for that site (issue 28: a trailing slash). Such a setting now
# stops the start with the fix in the message; nothing is normalised behind the operator's back.


@pytest.mark.parametrize(
    ("raw", "fix"),
    [
        ("https://decks.example/", "write 'https://decks.example'"),
        ("https://decks.example/app", "write 'https://decks.example'"),
        ("https://decks.example?x=1", "write 'https://decks.example'"),
        ("decks.example", "scheme://host[:port]"),
        ("//decks.example", "scheme://host[:port]"),
        ("ftp://decks.example", "scheme://host[:port]"),
        ("https://Decks.Example", "write 'https://decks.example'"),
        ("https://decks.example:443", "write 'https://decks.example'"),
        ("http://decks.example:80", "write 'http://decks.example'"),
        ("https://user@decks.example", "no user name"),
        ("https://decks.example:99999", "Port out of range"),
        ('["https://ok.example", "https://bad.example/"]', "write 'https://bad.example'"),
    ],
)
def test_a_malformed_origin_stops_the_start_with_the_fix(
    monkeypatch: pytest.MonkeyPatch, raw: str, fix: str
) -> None:
    from app.config import SettingsError, get_settings

    monkeypatch.setenv("MANACALC_CORS_ORIGINS", raw)
    get_settings.cache_clear()
    try:
        with pytest.raises(SettingsError) as caught:
            get_settings()
    finally:
        get_settings.cache_clear()
    message = str(caught.value)
    assert message.startswith("invalid settings: MANACALC_CORS_ORIGINS: ")
    assert fix in message


@pytest.mark.parametrize(
    "origin",
    ["https://decks.example", "http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:5173", "*"],
)
def test_well_formed_origins_start(monkeypatch: pytest.MonkeyPatch, origin: str) -> None:
    monkeypatch.setenv("MANACALC_CORS_ORIGINS", origin)
    assert Settings().cors_origins == [origin]


def test_the_command_line_refuses_to_serve_with_a_malformed_origin(tmp_path: Path) -> None:
    """What an operator sees: one line naming the variable and the fix, exit status 2, no server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MANACALC_")}
    env.update(
        MANACALC_CORS_ORIGINS="https://decks.example/",
        MANACALC_DATABASE_URL=f"sqlite:///{tmp_path / 'never.db'}",
    )
    manacalc = Path(sys.executable).with_name("manacalc")
    done = subprocess.run(
        [str(manacalc), "serve", "--port", "1"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "manacalc: invalid settings: MANACALC_CORS_ORIGINS: 'https://decks.example/' is not an origin:"
        " an origin has no path, not even '/': write 'https://decks.example'"
    )
    assert not (tmp_path / "never.db").exists()  # stopped before touching anything
