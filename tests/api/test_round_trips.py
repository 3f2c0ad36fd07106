"""Database round trips of the scenario endpoints (issue 14): at most 2 per read and 3 per write, auth
included, counted with SQLAlchemy events on the database the suite runs on (SQLite or PostgreSQL).

A round trip is a statement sent (``before_cursor_execute``, which on SQLite includes the ``BEGIN`` the
engine emits itself), plus on PostgreSQL the ``BEGIN`` psycopg sends before a transaction's first
statement, plus every ``COMMIT`` or ``ROLLBACK`` of a transaction (none in autocommit, nor for
SQLite's read-only and statement sessions, which send no BEGIN: the driver then has no transaction to
end). The app runs as in production here: its own engine and sessions, committed for real; the test
removes what it made.

Counted in the steady state: the API key in the key cache, the cards in the card cache, and the catalogue's
data_version read less than ``CHECK_INTERVAL`` ago (the once-a-second read adds one round trip to the
request that makes it, and a card not in the cache one per card).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine, event

from app.db.models.api_keys import ApiKeyRow
from app.db.session import AUTOCOMMIT_OPTION, READ_ONLY_OPTION, get_sessionmaker
from app.services import catalogue
from app.services.api_keys import KEY_CACHE_TTL_S

BOARD: dict[str, Any] = {
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "forest", "card": "Forest"},
        {"id": "richard-1", "card": "Richard Garfield, Ph.D.", "played_as": ["Sol Ring"]},
        {"id": "richard-2", "card": "Richard Garfield, Ph.D."},
    ]
}


class RoundTrips:
    """Counts round trips on ``engine`` while active (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self.sent: list[str] = []

    @staticmethod
    def _autocommit(connection: Connection) -> bool:
        options = connection.get_execution_options()
        return (
            options.get("isolation_level") == "AUTOCOMMIT"
            or bool(options.get(READ_ONLY_OPTION))
            or bool(options.get(AUTOCOMMIT_OPTION))
        )

    def _statement(self, conn: Connection, cursor: Any, statement: str, *args: Any) -> None:
        self.sent.append(statement.strip().split("\n")[0][:80])

    def _begin(self, conn: Connection) -> None:
        if self.postgres and not self._autocommit(conn):
            self.sent.append("BEGIN (psycopg)")

    def _end(self, name: str) -> Any:
        def listener(conn: Connection) -> None:
            if not self._autocommit(conn):
                self.sent.append(name)

        return listener

    def __enter__(self) -> RoundTrips:
        self._listeners = [
            ("before_cursor_execute", self._statement),
            ("begin", self._begin),
            ("commit", self._end("COMMIT")),
            ("rollback", self._end("ROLLBACK")),
        ]
        for name, fn in self._listeners:
            event.listen(self.engine, name, fn)
        self.sent.clear()
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self._listeners:
            event.remove(self.engine, name, fn)


READ_ROUND_TRIPS = 2
WRITE_ROUND_TRIPS = 3
"""Issue 14's bounds, auth included. A write is BEGIN, one statement, COMMIT (the child rows are written
by a trigger in that statement; SQLite's BEGIN IMMEDIATE is the writer's lock); a choice or a played card
is a read then one conditional UPDATE, each its own transaction (2). A replayed Idempotency-Key (a
retry, rare) reads the first request's scenario after its INSERT inserted nothing (4, see below)."""

ROUND_TRIPS = {
    "GET one": 2,
    "GET one again": 1,
    "GET list": 2,
    "POST": 3,
    "POST with Idempotency-Key": 3,
    # A retry's INSERT inserts nothing; the scenario it answers is read by a second statement, because
    # the INSERT's snapshot predates a concurrent first request it may have waited for.
    "POST replayed": 4,
    "PUT": 3,
    "PUT with two ETags": 3,
    "PUT choice": 2,
    "POST played-as": 2,
    "DELETE": 3,
}
"""Each path's round trips now, the same on SQLite and PostgreSQL: more fails the test (keep it that way,
or explain here why a path needs more)."""


def test_scenario_reads_and_writes_stay_within_their_round_trips(
    real: tuple[TestClient, Engine, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, engine, auth = real
    # The steady state (see the module): no data_version read falls inside a counted request.
    monkeypatch.setattr(catalogue._CACHE, "check_interval", 3600.0)
    created = client.post("/v1/scenarios", json={"name": "trips", "board": BOARD}, headers=auth)
    assert created.status_code == 201
    sid, etag = created.json()["id"], created.headers["etag"]
    url = f"/v1/scenarios/{sid}"
    # Cards into the card cache: the one played below, and the board's.
    warm = client.post(f"{url}/permanents/richard-1/played-as", json={"card": "Llanowar Elves"}, headers=auth)
    assert warm.status_code == 200, warm.text
    other = {"name": "trips-2", "board": BOARD}
    keyed = {**auth, "Idempotency-Key": "trips-key"}
    state: dict[str, str] = {}
    counted: dict[str, list[str]] = {}

    def put(tags: str) -> Any:
        return client.put(url, json={"name": "trips", "board": BOARD}, headers={**auth, "If-Match": tags})

    calls: dict[str, tuple[int, Any]] = {
        "GET one": (200, lambda: client.get(url, headers=auth)),
        "GET one again": (200, lambda: client.get(url, headers=auth)),
        "GET list": (200, lambda: client.get("/v1/scenarios", headers=auth)),
        "POST": (201, lambda: client.post("/v1/scenarios", json=other, headers=auth)),
        "POST with Idempotency-Key": (
            201,
            lambda: client.post("/v1/scenarios", json={**other, "name": "trips-3"}, headers=keyed),
        ),
        "POST replayed": (
            201,
            lambda: client.post("/v1/scenarios", json={**other, "name": "trips-3"}, headers=keyed),
        ),
        "PUT": (200, lambda: put(state["etag"])),
        "PUT with two ETags": (200, lambda: put(f'"{sid}-v1", {state["etag"]}')),
        "PUT choice": (
            200,
            lambda: client.put(
                f"{url}/permanents/horn/choice",
                json={"creature_type": "Goblin"},
                headers={**auth, "If-Match": state["etag"]},
            ),
        ),
        "POST played-as": (
            200,
            lambda: client.post(
                f"{url}/permanents/richard-2/played-as", json={"card": "Llanowar Elves"}, headers=auth
            ),
        ),
        "DELETE": (
            204,
            lambda: client.delete(state["location"], headers={**auth, "If-Match": state["made"]}),
        ),
    }
    state["etag"] = etag
    try:
        for label, (status, call) in calls.items():
            with RoundTrips(engine) as trips:
                response = call()
            assert response.status_code == status, (label, response.text)
            counted[label] = list(trips.sent)
            if label == "POST":
                state["location"], state["made"] = response.headers["location"], response.headers["etag"]
            if label == "POST replayed":
                assert response.headers.get("idempotent-replayed") == "true"
            if "etag" in response.headers and response.request.url.path == url:
                state["etag"] = response.headers["etag"]
        assert client.get(url, headers=auth).json()["version"] == 6  # warm, PUT x2, choice, played-as
    finally:
        for scenario in client.get("/v1/scenarios", headers=auth).json()["data"]:
            assert client.delete(f"/v1/scenarios/{scenario['id']}", headers=auth).status_code == 204
    for label, sent in counted.items():
        # A replay writes nothing: the write's bound and the read of the scenario it answers.
        bound = (
            READ_ROUND_TRIPS if label.startswith("GET") else WRITE_ROUND_TRIPS + (label == "POST replayed")
        )
        assert len(sent) <= min(bound, ROUND_TRIPS[label]), (label, sent)
    # Within the key cache's time a read is the one SELECT of the scenario.
    assert KEY_CACHE_TTL_S <= 10


def test_a_revoked_key_is_refused_once_the_cache_forgets_it(
    real: tuple[TestClient, Engine, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Revoked through another process (a plain UPDATE here), the key still works until its cache entry
    is older than ``KEY_CACHE_TTL_S``, then answers 401."""
    import time

    from app.services import api_keys

    client, engine, auth = real
    assert client.get("/v1/scenarios", headers=auth).status_code == 200
    with get_sessionmaker(engine)() as session, session.begin():
        session.execute(
            ApiKeyRow.__table__.update()
            .where(ApiKeyRow.key_hash == api_keys.hash_key(auth["Authorization"].split()[1]))
            .values(revoked_at=ApiKeyRow.created_at)
        )
    assert client.get("/v1/scenarios", headers=auth).status_code == 200  # cached, within the TTL
    later = time.monotonic() + KEY_CACHE_TTL_S + 0.1
    monkeypatch.setattr(api_keys.time, "monotonic", lambda: later)
    assert client.get("/v1/scenarios", headers=auth).status_code == 401
