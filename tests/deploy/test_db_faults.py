"""A database outage is a quick 503 problem with Retry-After, never a hang nor a 500; other database errors
stay 500s (they are bugs). The full exercise, stopping PostgreSQL under load, is ``bench/db_faults.py``."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc

from app.config import Settings
from app.errors import DB_RETRY_AFTER_SECONDS, database_unavailable
from app.main import create_app
from tests.deploy.support import free_port

BOARD = {"permanents": [{"id": "forest", "card": "Forest"}]}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/spells/cost", {"board": BOARD, "spell": {"card": "Llanowar Elves"}}),
        ("GET", "/v1/cards/Forest", None),
        ("POST", "/v1/boards/analyze", {"board": BOARD}),
        ("GET", "/v1/scenarios", None),
    ],
)
def test_requests_needing_an_unreachable_database_answer_503_at_once(
    method: str, path: str, body: object
) -> None:
    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nowhere"  # nothing listens there
    client = TestClient(create_app(Settings(database_url=url, migrate_on_start=False, db_pool_timeout=2)))
    headers = {"Authorization": "Bearer not-checked-before-the-database"} if "scenarios" in path else {}
    started = time.monotonic()
    response = client.request(method, path, json=body, headers=headers)
    assert time.monotonic() - started < 5
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["retry-after"] == str(DB_RETRY_AFTER_SECONDS)
    problem = response.json()
    assert problem["type"] == "/problems/service-unavailable"
    assert problem["instance"] == path
    assert "postgres" not in problem["detail"] and "5432" not in problem["detail"]  # no connection details
    assert client.get("/healthz").status_code == 200  # liveness does not depend on the database


def _orig() -> Exception:
    return Exception("driver error")


@pytest.mark.parametrize(
    ("error", "unavailable"),
    [
        (sa_exc.OperationalError("SELECT 1", {}, _orig()), True),
        (sa_exc.InterfaceError("SELECT 1", {}, _orig()), True),
        (sa_exc.DBAPIError("SELECT 1", {}, _orig(), connection_invalidated=True), True),
        (sa_exc.TimeoutError("QueuePool limit reached"), True),
        (sa_exc.IntegrityError("INSERT", {}, _orig()), False),
        (sa_exc.ProgrammingError("SELECT nope", {}, _orig()), False),
        (sa_exc.DataError("SELECT 1", {}, _orig()), False),
    ],
)
def test_only_outages_map_to_service_unavailable(error: Exception, unavailable: bool) -> None:
    problem = database_unavailable(error)
    if not unavailable:
        assert problem is None
        return
    assert problem is not None
    assert problem.status == 503 and problem.type_slug == "service-unavailable"
    assert problem.headers == {"Retry-After": str(DB_RETRY_AFTER_SECONDS)}
