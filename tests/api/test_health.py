from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.config import Settings
from app.db.migrate import head_revisions


def test_healthz_answers_without_database(settings: Settings) -> None:
    from app.main import create_app

    broken = settings.model_copy(update={"database_url": "postgresql+psycopg://nobody@127.0.0.1:1/none"})
    client = TestClient(create_app(broken))
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.headers["x-request-id"]


def test_readyz_reports_database_at_head(client: TestClient, engine: Engine) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "ready"
    assert body["database"] == engine.dialect.name
    assert set(body["revisions"]) == head_revisions()
    assert body["rules_edition"] == "2026-04-17"


def test_readyz_is_503_problem_when_database_unreachable(settings: Settings) -> None:
    from app.main import create_app

    broken = settings.model_copy(
        update={"database_url": "postgresql+psycopg://nobody@127.0.0.1:1/none", "db_pool_timeout": 1.0}
    )
    response = TestClient(create_app(broken)).get("/readyz")
    assert response.status_code == 503
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["type"] == "/problems/service-unavailable"


def test_readyz_is_503_when_schema_not_at_head(tmp_path: Path, settings: Settings) -> None:
    from app.main import create_app

    empty = settings.model_copy(update={"database_url": f"sqlite:///{tmp_path / 'empty.db'}"})
    response = TestClient(create_app(empty)).get("/readyz")
    assert response.status_code == 503
    assert "manacalc migrate" in response.json()["detail"]


def test_request_id_is_echoed_when_sane_and_replaced_otherwise(client: TestClient) -> None:
    assert client.get("/healthz", headers={"X-Request-ID": "abc-123"}).headers["x-request-id"] == "abc-123"
    replaced = client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"}).headers["x-request-id"]
    assert replaced != "bad id\twith spaces" and len(replaced) == 32


def test_start_up_refuses_an_unmigrated_database(tmp_path: Path, settings: Settings) -> None:
    from app.main import StartupError, create_app

    unmigrated = settings.model_copy(
        update={"database_url": f"sqlite:///{tmp_path / 'fresh.db'}", "migrate_on_start": False}
    )
    with pytest.raises(StartupError, match="manacalc migrate"), TestClient(create_app(unmigrated)):
        pass


@pytest.mark.db_free  # a SQLite file of its own
def test_start_up_migrates_then_serves(tmp_path: Path, settings: Settings) -> None:
    from app.main import create_app

    fresh = settings.model_copy(
        update={"database_url": f"sqlite:///{tmp_path / 'fresh.db'}", "migrate_on_start": True}
    )
    with TestClient(create_app(fresh)) as client:
        response = client.get("/readyz")
    assert response.status_code == 200, response.text
    assert set(response.json()["revisions"]) == head_revisions()


def test_each_request_logs_one_line_with_its_request_id(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    import json
    import logging

    from app.logs import JsonFormatter

    with caplog.at_level(logging.INFO, logger="manacalc.access"):
        client.get("/healthz", headers={"X-Request-ID": "trace-42"})
    lines = [r for r in caplog.records if r.name == "manacalc.access"]
    assert len(lines) == 1
    fields = vars(lines[0])
    assert fields["request_id"] == "trace-42"
    assert (fields["method"], fields["path"], fields["status"]) == ("GET", "/healthz", 200)
    assert fields["duration_ms"] >= 0
    doc = json.loads(JsonFormatter().format(lines[0]))
    assert (
        doc["request_id"] == "trace-42"
        and doc["status"] == 200
        and doc["message"].startswith("GET /healthz 200")
    )


def test_readyz_asks_the_database_at_most_once_a_second(client: TestClient) -> None:
    """A probe flood (``/readyz`` is exempt from the rate limit) costs one query a second per worker."""
    from unittest import mock

    from app.api.routes import health

    calls = []
    real = health.check_ready

    def counted(session: object) -> object:
        calls.append(1)
        return real(session)  # type: ignore[arg-type]

    with mock.patch.object(health, "check_ready", counted):
        client.app.state.ready = None  # type: ignore[attr-defined]
        for _ in range(20):
            assert client.get("/readyz").status_code == 200
        assert len(calls) == 1
        client.app.state.ready = (0.0, client.app.state.ready[1])  # type: ignore[attr-defined]
        assert client.get("/readyz").status_code == 200
        assert len(calls) == 2
