"""``app.api.compute``: small pure work runs on the event loop, work needing the database runs in a worker
with the real session, and every request is bounded in time (issue 15), stopped cooperatively at the rules
core's checks (issue 27). The request is passed to ``compute``, never found through logging (issue 40)."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

import pytest
from sqlalchemy.orm import Session
from starlette.requests import Request

from app.api.compute import INLINE_SLICE_S, INLINE_WORK_LIMIT, NeedsDatabase, cancel_all, compute
from app.config import Settings
from app.errors import AppError, ServiceUnavailable, TooLarge, UnknownCard
from app.rules import deadline


class FakeSession:
    def execute(self) -> str:
        return "row"


async def _never() -> dict[str, str]:
    await asyncio.Event().wait()
    raise AssertionError


def fake_request(budget: float | None = None, receive=None) -> Request:  # type: ignore[no-untyped-def]
    """A request of an app whose settings give ``budget``; ``receive`` the client's (default: silent)."""
    settings = Settings(compute_budget_s=budget) if budget is not None else Settings()
    scope = {"type": "http", "headers": [], "app": SimpleNamespace(state=SimpleNamespace(settings=settings))}
    return Request(scope, receive or _never)


def run(work, size: int = 1):  # type: ignore[no-untyped-def]
    return asyncio.run(compute(work, FakeSession(), size=size, request=fake_request()))  # type: ignore[arg-type]


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


# -- bounds (issue 15), stopped at the rules core's checks (issue 27) ------------------------------------


def spin(stopped: list[str], seconds: float = 60.0):  # type: ignore[no-untyped-def]
    """Work that runs for ``seconds`` of pure Python, checking its deadline as the rules core's loops do;
    records how it ended."""

    def work(session: Session) -> str:
        try:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                deadline.check()
        except BaseException as exc:
            stopped.append(type(exc).__name__)
            raise
        stopped.append("finished")
        return "done"

    return work


async def bounded(work, budget: float, receive=None, size: int = 1):  # type: ignore[no-untyped-def]
    request = fake_request(budget, receive)
    return await compute(work, FakeSession(), size=size, request=request)  # type: ignore[arg-type]


def test_work_holding_the_loop_longer_than_a_slice_moves_to_a_worker_thread() -> None:
    threads: list[str] = []

    def work(session: Session) -> str:
        threads.append(threading.current_thread().name)
        end = time.monotonic() + 5 * INLINE_SLICE_S
        while time.monotonic() < end:
            deadline.check()
        return "done"

    assert asyncio.run(bounded(work, budget=2.0)) == "done"
    assert threads[0] == threading.main_thread().name
    assert threads[-1].startswith("manacalc-compute")


def test_work_past_its_budget_is_a_422_too_large_and_stops() -> None:
    stopped: list[str] = []
    started = time.monotonic()
    with pytest.raises(TooLarge) as caught:
        asyncio.run(bounded(spin(stopped), budget=0.3))
    assert caught.value.status == 422 and caught.value.type_slug == "too-large"
    assert "ask for less" in caught.value.detail
    assert time.monotonic() - started < 2.0
    assert stopped == ["DeadlineExceeded", "DeadlineExceeded"]  # the inline attempt, then the worker's


def test_a_swallowed_deadline_still_discards_the_result() -> None:
    """A handler on the way (a batch's per-spell problem entry) may catch the raise: the answer built from
    a cut-short computation is never sent."""

    def work(session: Session) -> str:
        try:
            spin([])(session)
        except deadline.DeadlineExceeded:
            return "a partial answer"
        return "whole"

    with pytest.raises(TooLarge):
        asyncio.run(bounded(work, budget=0.2))


def test_a_deadline_turned_into_another_error_is_still_too_large() -> None:
    def work(session: Session) -> str:
        try:
            spin([])(session)
        except deadline.DeadlineExceeded as exc:
            raise UnknownCard("not what happened") from exc
        return "whole"

    with pytest.raises(TooLarge):
        asyncio.run(bounded(work, budget=0.2))


def test_the_works_own_errors_pass_through() -> None:
    def work(session: Session) -> str:
        raise UnknownCard("no such card")

    with pytest.raises(UnknownCard):
        asyncio.run(bounded(work, budget=1.0, size=INLINE_WORK_LIMIT + 1))


def test_a_hostile_pair_leaves_the_event_loop_answering() -> None:
    """Two requests that would run forever: the loop keeps ticking every few ms meanwhile."""

    async def scenario() -> float:
        worst = 0.0
        hostile = [asyncio.ensure_future(bounded(spin([]), budget=0.8)) for _ in range(2)]
        while not all(task.done() for task in hostile):
            before = time.monotonic()
            await asyncio.sleep(0.005)
            worst = max(worst, time.monotonic() - before)
        assert all(isinstance(task.exception(), TooLarge) for task in hostile)
        return worst

    assert asyncio.run(scenario()) < 0.1


def test_a_client_that_disconnects_stops_its_work() -> None:
    stopped: list[str] = []

    async def receive() -> dict[str, str]:
        await asyncio.sleep(0.2)
        return {"type": "http.disconnect"}

    started = time.monotonic()
    with pytest.raises(AppError) as caught:
        asyncio.run(bounded(spin(stopped), budget=30.0, receive=receive))
    assert caught.value.status == 499
    assert time.monotonic() - started < 2.0
    assert stopped[-1] == "DeadlineExceeded"


def test_shutdown_stops_running_work() -> None:
    stopped: list[str] = []

    async def scenario() -> None:
        task = asyncio.ensure_future(bounded(spin(stopped), budget=30.0, size=INLINE_WORK_LIMIT + 1))
        await asyncio.sleep(0.2)
        assert cancel_all() == 1
        with pytest.raises(ServiceUnavailable):
            await task

    asyncio.run(scenario())
    assert stopped == ["DeadlineExceeded"]


def test_a_stopped_thread_serves_the_next_job() -> None:
    for _ in range(2):
        with pytest.raises(TooLarge):
            asyncio.run(bounded(spin([]), budget=0.1, size=INLINE_WORK_LIMIT + 1))
    results = [asyncio.run(bounded(lambda s: 7, budget=1.0, size=INLINE_WORK_LIMIT + 1)) for _ in range(20)]
    assert results == [7] * 20


def test_no_deadline_outside_the_boundary() -> None:
    """Pure callers (tests, the CLI) run the rules core with no deadline: check() does nothing."""
    assert deadline.current() is None
    deadline.check()


def test_no_thread_is_interrupted_from_outside() -> None:
    """The asynchronous exception of issue 15 is gone: nothing in the app injects one. Injecting one takes
    the interpreter's C API through ctypes (``pythonapi``, ``PyDLL``, or ``PyThreadState_SetAsyncExc`` looked
    up by name); ctypes itself is allowed for the C library (``card_index`` calls glibc's ``malloc_trim``)."""
    import ast
    import pathlib

    import app

    forbidden = {"pythonapi", "PyDLL", "PyThreadState_SetAsyncExc"}
    for path in pathlib.Path(app.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute):
                assert node.attr not in forbidden, f"{path}: {node.attr}"
            elif isinstance(node, ast.Name):
                assert node.id not in forbidden, f"{path}: {node.id}"
            elif isinstance(node, ast.Constant):  # getattr(libc, "...")
                assert node.value not in forbidden, f"{path}: {node.value!r}"
