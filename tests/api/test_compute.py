"""``app.api.compute``: pure work runs inline, work needing the database reruns with the real session."""

from __future__ import annotations

import asyncio
import threading

from sqlalchemy.orm import Session

from app.api.compute import INLINE_WORK_LIMIT, NeedsDatabase, compute


class FakeSession:
    def execute(self) -> str:
        return "row"


def run(work, size: int = 1):  # type: ignore[no-untyped-def]
    return asyncio.run(compute(work, FakeSession(), size=size))  # type: ignore[arg-type]


def test_pure_work_runs_inline_on_the_event_loop() -> None:
    threads: list[str] = []

    def work(session: Session) -> int:
        threads.append(threading.current_thread().name)
        return 42

    assert run(work) == 42
    assert threads == [threading.main_thread().name]


def test_work_needing_the_database_reruns_with_the_real_session_off_the_loop() -> None:
    calls: list[tuple[str, str]] = []

    def work(session: Session) -> str:
        try:
            result = session.execute()  # type: ignore[call-arg]
        except NeedsDatabase:
            calls.append(("offline", threading.current_thread().name))
            raise
        calls.append(("real", threading.current_thread().name))
        return str(result)

    assert run(work) == "row"
    assert [kind for kind, _ in calls] == ["offline", "real"]
    assert calls[1][1] != threading.main_thread().name


def test_large_work_goes_straight_to_the_thread_pool() -> None:
    seen: list[object] = []

    def work(session: Session) -> None:
        seen.append(session)

    run(work, size=INLINE_WORK_LIMIT + 1)
    assert len(seen) == 1 and isinstance(seen[0], FakeSession)


def test_a_cached_spell_cost_answers_like_the_database_path(client) -> None:
    body = {"board": {"permanents": [{"id": "f", "card": "Forest"}]}, "spell": {"card": "Llanowar Elves"}}
    first = client.post("/v1/spells/cost", json=body)  # may fill the cache from the database
    second = client.post("/v1/spells/cost", json=body)  # served from the cache
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
