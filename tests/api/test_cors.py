"""CORS: origins from MANACALC_CORS_ORIGINS (JSON list or comma-separated); the headers browsers need are
exposed, on errors and 429s too."""

from __future__ import annotations

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
    assert {"etag", "location", "retry-after", "x-request-id"} <= exposed
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
