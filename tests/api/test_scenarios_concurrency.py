"""Concurrent writers on one scenario lose nothing: real sessions that commit, many threads at once.

These tests use the application without the per-test rolled-back session: each request has its own
session and connection, as in production, so the database's own concurrency control is what is tested.
What they create is deleted at the end (deleting the API key cascades to its scenarios).
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, delete, func, select

from app.config import Settings
from app.db.base import utcnow
from app.db.models.api_keys import ApiKeyRow
from app.db.models.scenarios import ScenarioPlayedCardRow, ScenarioRow
from app.db.repositories import scenarios as repo
from app.db.session import get_sessionmaker
from app.main import create_app
from app.services.api_keys import create_api_key
from tests.scenario_rows import assert_rows_follow_the_board

WRITERS = 16
ROUNDS = 8
CARDS = (
    "Swords to Plowshares",
    "Savannah Lions",
    "Llanowar Elves",
    "Sol Ring",
    "Dark Ritual",
    "Elvish Archers",
    "Herald's Horn",
    "Forest",
    "Island",
    "Plains",
    "Mountain",
    "Swamp",
)


@dataclass
class Live:
    app: FastAPI
    engine: Engine
    headers: dict[str, str]
    key_id: int


@pytest.fixture
def live(engine: Engine, settings: Settings, startup_hooks: None) -> Iterator[Live]:
    application = create_app(settings)  # no session override: every request commits its own transaction
    factory = get_sessionmaker(engine)
    name = f"concurrency-{uuid.uuid4().hex}"
    with factory() as session, session.begin():
        key = create_api_key(session, name=name)
        key_id = session.scalars(select(ApiKeyRow.id).where(ApiKeyRow.name == name)).one()
    try:
        yield Live(application, engine, {"Authorization": f"Bearer {key}"}, key_id)
    finally:
        with factory() as session, session.begin():
            session.execute(delete(ApiKeyRow).where(ApiKeyRow.id == key_id))


def run_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads started together; re-raise the first failure."""
    barrier = threading.Barrier(count)

    def start(i: int) -> Any:
        barrier.wait()
        return work(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return [f.result() for f in [pool.submit(start, i) for i in range(count)]]


def test_concurrent_puts_with_if_match_lose_no_update(live: Live) -> None:
    client = TestClient(live.app)
    board = {"permanents": [{"id": "forest", "card": "Forest"}]}
    created = client.post("/v1/scenarios", json={"name": "contended", "board": board}, headers=live.headers)
    assert created.status_code == 201, created.text
    url = created.headers["location"]

    def writer(i: int) -> Counter[int]:
        own = TestClient(live.app)
        statuses: Counter[int] = Counter()
        for round_ in range(ROUNDS):
            current = own.get(url, headers=live.headers)
            assert current.status_code == 200
            body = {"name": "contended", "description": f"writer {i} round {round_}", "board": board}
            response = own.put(url, json=body, headers={**live.headers, "If-Match": current.headers["etag"]})
            statuses[response.status_code] += 1
        return statuses

    totals = sum(run_threads(WRITERS, writer), Counter())
    assert set(totals) <= {200, 412}, totals  # never a 500, never a lost write
    assert totals[200] >= 1
    final = client.get(url, headers=live.headers).json()
    assert final["version"] == 1 + totals[200]


def test_concurrent_changes_without_if_match_are_all_applied(live: Live) -> None:
    """Read-modify-write changes (choice, played-as) take the row's lock: none overwrites another."""
    horns = [{"id": f"horn-{i}", "card": "Herald's Horn"} for i in range(WRITERS)]
    board = {"permanents": [{"id": "richard", "card": "Richard Garfield, Ph.D."}, *horns]}
    client = TestClient(live.app)
    created = client.post("/v1/scenarios", json={"name": "many", "board": board}, headers=live.headers)
    assert created.status_code == 201, created.text
    url = created.headers["location"]
    types = ["Elf", "Goblin", "Merfolk", "Zombie", "Human", "Wizard", "Cleric", "Rogue"]

    def writer(i: int) -> list[int]:
        own = TestClient(live.app)
        statuses = [
            own.put(
                f"{url}/permanents/horn-{i}/choice",
                json={"creature_type": types[i % len(types)]},
                headers=live.headers,
            ).status_code
        ]
        if i < len(CARDS):
            played = own.post(
                f"{url}/permanents/richard/played-as", json={"card": CARDS[i]}, headers=live.headers
            )
            statuses.append(played.status_code)
        return statuses

    statuses = [s for per_thread in run_threads(WRITERS, writer) for s in per_thread]
    assert set(statuses) == {200}, statuses
    final = client.get(url, headers=live.headers).json()
    assert final["version"] == 1 + len(statuses)
    perms = {p["id"]: p for p in final["board"]["permanents"]}
    for i in range(WRITERS):
        assert perms[f"horn-{i}"]["chosen"]["creature_type"] == types[i % len(types)]
    assert sorted(perms["richard"]["played_as"]) == sorted(CARDS[:WRITERS])
    with get_sessionmaker(live.engine)() as session:
        rows = session.scalar(
            select(func.count())
            .select_from(ScenarioPlayedCardRow)
            .where(ScenarioPlayedCardRow.scenario_id == final["id"])
        )
        # Each change rewrote the rows from the facts it read: the last one holds every change.
        assert_rows_follow_the_board(session, final)
    assert rows == min(WRITERS, len(CARDS))


def test_concurrent_retries_with_one_idempotency_key_create_once(live: Live) -> None:
    body = {"name": "once", "board": {"permanents": [{"id": "forest", "card": "Forest"}]}}
    headers = {**live.headers, "Idempotency-Key": "retry-storm"}

    def post(_: int) -> tuple[int, str]:
        response = TestClient(live.app).post("/v1/scenarios", json=body, headers=headers)
        return response.status_code, response.json().get("id", "")

    results = run_threads(8, post)
    assert {status for status, _ in results} == {201}, results
    assert len({scenario_id for _, scenario_id in results}) == 1
    with get_sessionmaker(live.engine)() as session:
        count = session.scalar(
            select(func.count()).select_from(ScenarioRow).where(ScenarioRow.api_key_id == live.key_id)
        )
    assert count == 1


@pytest.mark.postgres_only
def test_conditional_update_is_atomic_across_connections(live: Live) -> None:
    """The repository's ``UPDATE ... WHERE version = ?`` alone, 32 writers on their own connections."""
    factory = get_sessionmaker(live.engine)
    scenario_id = str(uuid.uuid4())
    now = utcnow()
    with factory() as session, session.begin():
        row = ScenarioRow(
            id=scenario_id, api_key_id=live.key_id, owner="", name="atomic", description="", board={},
            version=1, created_at=now, updated_at=now,
        )  # fmt: skip
        repo.insert_scenario(session, row=row, permanents=())

    def writer(i: int) -> int:
        wins = 0
        for _ in range(10):
            with factory() as session, session.begin():
                current = repo.get_scenario(session, api_key_id=live.key_id, scenario_id=scenario_id)
                assert current is not None
                seen = current.version
            with factory() as session, session.begin():
                done = repo.update_scenario(
                    session,
                    api_key_id=live.key_id,
                    scenario_id=scenario_id,
                    expected_version=seen,
                    now=utcnow(),
                    values={"description": f"writer {i}"},
                )
                wins += done is not None
        return wins

    successes = sum(run_threads(32, writer))
    assert successes >= 1
    with factory() as session:
        final = repo.get_scenario(session, api_key_id=live.key_id, scenario_id=scenario_id)
    assert final is not None and final.version == 1 + successes


@pytest.mark.postgres_only
def test_inserts_racing_on_one_idempotency_key_never_see_a_name_conflict(live: Live) -> None:
    """The repository's keyed INSERT alone, four writers released together, many rounds.

    Each round's writers carry the same key and the same name. PostgreSQL checks a conflict target
    speculatively, but any other unique index plainly: a writer that passed the key's check before the
    first writer's row reached the index waits on the name's index instead, and there a conflict is an
    error, not the row. So the answer must come from the key, whichever index noticed the other writer.
    """
    factory = get_sessionmaker(live.engine)

    def attempt(round_: int) -> Callable[[int], str]:
        def write(_: int) -> str:
            now = utcnow()
            row = ScenarioRow(
                id=str(uuid.uuid4()), api_key_id=live.key_id, owner="", name=f"race-{round_}",
                description="", board={}, version=1, created_at=now, updated_at=now,
            )  # fmt: skip
            with factory() as session, session.begin():
                try:
                    repo.insert_scenario(
                        session, row=row, permanents=(), idempotency=(f"race-{round_}", "a" * 64)
                    )
                except repo.IdempotencyKeyTaken as taken:
                    return str(taken.row.id)
            return row.id

        return write

    for round_ in range(40):
        ids = run_threads(4, attempt(round_))
        assert len(set(ids)) == 1, (round_, ids)  # one scenario; never a Conflict
