"""How many times a reading route leaves the event loop for the thread pool: a hop costs a scenario read
a fifth of its throughput (docs/performance.md), and the session's close used to add a second one.

Counted with the app as in production (its own engine and read sessions, ``real``) in the steady state:
the API key in the key cache, so that authentication stays on the event loop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

BOARD = {"permanents": [{"id": "forest", "card": "Forest"}]}


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the functions sent to the thread pool (Starlette's and FastAPI's ``run_in_threadpool``
    go through ``anyio.to_thread.run_sync``)."""
    sent: list[str] = []
    real_run_sync = anyio.to_thread.run_sync

    async def counted(func: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(getattr(func, "__qualname__", repr(func)))
        return await real_run_sync(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    yield sent


def test_a_scenario_read_and_a_page_leave_the_event_loop_once(
    real: tuple[TestClient, Engine, dict[str, str]], hops: list[str]
) -> None:
    client, _, auth = real
    made = client.post("/v1/scenarios", json={"name": "hops", "board": BOARD}, headers=auth)
    assert made.status_code == 201, made.text
    url = f"/v1/scenarios/{made.json()['id']}"
    for path in (url, "/v1/scenarios?limit=5"):
        assert client.get(path, headers=auth).status_code == 200  # the key now cached
        hops.clear()
        answer = client.get(path, headers=auth)
        assert answer.status_code == 200, answer.text
        assert len(hops) == 1, (path, hops)
    etag = client.get(url, headers=auth).headers["etag"]
    hops.clear()
    assert client.get(url, headers={**auth, "If-None-Match": etag}).status_code == 304
    assert len(hops) == 1, hops
