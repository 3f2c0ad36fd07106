"""The compute boundary: every request that computes runs through ``compute``, bounded in time and size,
and stops when its client leaves.

A sync route costs a thread-pool hop per request, which measured as most of the time of a small
``spells/cost`` (more than its real work: a hop is 70-120 us, the request's work about 200 us). So where
the work runs is decided once, before it starts, from what the request holds: a request of at most
``INLINE_WORK_LIMIT`` (permanents x spells) whose body carries no card text (``NOT_ON_THE_LOOP``) runs on
the event loop, with a session that refuses any use (``NeedsDatabase``); any other in a worker thread.

Every request is bounded in time, and the bound is cooperative:

- work on the event loop runs under a ``Deadline`` of ``INLINE_SLICE_S`` (``app.rules.deadline``); the
  rules core's loops check it. It is the safety for the rare small request whose work is not small (a
  hostile board) or that needs the database (an oracle id the in-memory catalogue lacks): that work is
  abandoned at a check, nothing of it kept or sent (it is pure until it would touch the database), and
  runs in a worker thread, where it cannot stop other requests. Moving work that has started from the
  event loop to a thread is what Python cannot do, so this is the one case where a request's work starts
  twice; the endpoint, the body's validation and everything else run once;
- in the worker, the whole request gets ``compute_budget_s`` (queueing included); past it, or when the
  client disconnects, or at shutdown, the deadline is cancelled, the work stops at its next check and the
  answer is a 422 ``too-large`` "ask for less" (a 503 with ``Retry-After`` if every worker was busy the
  whole time, 499 in the log for a client gone).

Work stops only where the rules core calls ``deadline.check()``: between two steps of a search or a fixed
point, never inside a cache or memo update, a lock or logging, as an exception injected into the thread
(``PyThreadState_SetAsyncExc``, used before) could. A result computed under a deadline that raised is
discarded even if some handler on the way swallowed the raise (``Deadline.tripped``).

``COMPUTE_ROUTES`` lists the routes that compute (``computes(router, path, method)`` marks them) and
``LIGHT_ROUTES`` the ones that do only a small bounded amount of work, each with its reason;
``tests/api/test_compute_boundary.py`` fails for a route in neither.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, NoReturn, TypeVar, cast

from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.types import Receive

from app.api.deps import settings_of, worker_read_session
from app.errors import BadRequest, ServiceUnavailable, TooLarge
from app.rules.deadline import Deadline, DeadlineExceeded, Turns, running

T = TypeVar("T")

INLINE_WORK_LIMIT: Final = 2_000
"""Permanents x spells a request may hold and still be tried on the event loop (a few ms at most)."""
INLINE_SLICE_S: Final = 0.01
"""How long work may hold the event loop before it moves to a worker thread (a large ordinary board
takes a few ms)."""
GIL_SWITCH_INTERVAL_S: Final = 0.001
"""The event loop's thread competes for the GIL with busy workers: at CPython's default 5 ms it waited
for it several times longer with two hostile requests running (``app.main`` sets it)."""
COMPUTE_THREADS: Final = 8
"""Worker threads per process: more would only share the GIL thinner."""
BUSY_RETRY_AFTER_S: Final = 2

COMPUTE_ROUTES: set[tuple[str, str]] = set()
"""(method, path) of every route whose work goes through ``compute`` (filled by ``computes``)."""

LIGHT_ROUTES: Final[dict[tuple[str, str], str]] = {}
"""(method, path) of routes that do not compute, with the reason their work is small and bounded
(filled by ``light``)."""


def computes(router: Any, path: str, method: str = "POST") -> Callable[[Any], Any]:
    """Mark an endpoint as going through ``compute`` (put it under the ``@router.<method>`` decorator)."""

    def mark(endpoint: Any) -> Any:
        COMPUTE_ROUTES.add((method, getattr(router, "prefix", "") + path))
        return endpoint

    return mark


def light(router: Any, path: str, method: str, reason: str) -> Callable[[Any], Any]:
    """Mark an endpoint that does not need the boundary, saying why its work is small and bounded."""

    def mark(endpoint: Any) -> Any:
        LIGHT_ROUTES[(method, getattr(router, "prefix", "") + path)] = reason
        return endpoint

    return mark


class NeedsDatabase(Exception):
    """The computation needs the database: run it again in a worker thread with a real session."""


NOT_ON_THE_LOOP: Final = "manacalc.not_on_the_loop"
"""Set in the scope, before any work starts, for a body that carries card text of its own (inline cards):
reading client text is the costliest and least predictable work there is, so such a request never runs on
the event loop, not even for the inline slice; it goes to a worker thread within the budget."""

_CARD_TEXT_MARKERS: Final = (b"oracle_text", b"card_faces", b"\\")


def carries_card_text(body: bytes) -> bool:
    """Whether a JSON body may hold inline card text: an ``oracle_text`` or ``card_faces`` key, or any
    escape (a key could be spelled with escapes). A decklist's line breaks are escapes too: decks always
    run in a worker, where their work belongs anyway."""
    return any(marker in body for marker in _CARD_TEXT_MARKERS)


COMPUTED: Final = "manacalc.computed"
"""Set in the scope by ``compute`` (the boundary test reads it)."""


class _OfflineSession:
    """Stands in for a Session; any use of it means the work needs the database."""

    def __getattr__(self, name: str) -> NoReturn:
        raise NeedsDatabase(name)


OFFLINE_SESSION = cast(Session, _OfflineSession())
"""The session of work on the event loop, which must not touch the database; and what a ``ComputeRoute``
endpoint (``app.api.routing``) passes to ``compute``: a read session is opened only if the work runs in a
worker thread."""


class _Job:
    """One request's work in a worker thread: its deadline, whether it began, and why it was stopped."""

    __slots__ = ("began", "deadline", "reason")

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.began = threading.Event()
        self.reason = "budget"

    def stop(self, reason: str) -> None:
        self.reason = reason
        self.deadline.cancel()

    def call(self, work: Callable[[], T]) -> T:
        if self.deadline.cancelled:
            raise DeadlineExceeded("cancelled before it started", cancelled=True)
        self.began.set()
        return _under(self.deadline, work)


def _under(deadline: Deadline, work: Callable[[], T]) -> T:
    """``work()`` under ``deadline``; ``DeadlineExceeded`` if any check raised, whatever work made of it."""
    try:
        with running(deadline):
            result = work()
    except DeadlineExceeded:
        raise
    except Exception:
        if deadline.tripped:  # e.g. turned into a problem answer by a service: the raise is what counts
            raise DeadlineExceeded from None
        raise
    if deadline.tripped:  # swallowed on the way (a batch's per-spell problem): the result is not whole
        raise DeadlineExceeded
    return result


_EXECUTOR = ThreadPoolExecutor(COMPUTE_THREADS, thread_name_prefix="manacalc-compute")
_TURNS = Turns()
"""The worker threads' turns at the rules core (``app.rules.deadline``): one computes at a time, so the
event loop competes for the GIL with one worker, not eight."""
_RUNNING: set[_Job] = set()


def cancel_all() -> int:
    """Stop every running or queued compute job (shutdown); returns how many there were."""
    jobs = list(_RUNNING)
    for job in jobs:
        job.stop("shutdown")
    return len(jobs)


async def compute(
    work: Callable[[Session], T],
    session: Session,
    *,
    size: int,
    request: Request,
) -> T:
    """``work(session)``, bounded: on the event loop when small and free of card text, else in a worker
    thread within the budget. ``TooLarge`` (422) past the budget, ``ServiceUnavailable`` (503) if no worker
    was free. Given ``OFFLINE_SESSION`` (a ``ComputeRoute`` opens none), work in a worker opens a read
    session of its own (``app.api.deps.worker_read_session``: ``read_session`` unless the
    app sets another, the tests' per-test session)."""
    scope = request.scope
    scope[COMPUTED] = True
    started = time.monotonic()
    if size <= INLINE_WORK_LIMIT and not scope.get(NOT_ON_THE_LOOP):
        try:
            return _inline(work, started)
        except (NeedsDatabase, DeadlineExceeded):
            pass  # the safety above: abandoned at a check, nothing kept
    budget = _budget(request.app)
    deadline = Deadline(started + budget, _TURNS)
    if session is OFFLINE_SESSION:
        app = request.app

        def opened(_offline: Session) -> T:
            with worker_read_session(app) as own:
                return work(own)

        return await _in_worker(opened, session, deadline, budget, request.receive)
    return await _in_worker(work, session, deadline, budget, request.receive)


async def run_bounded(work: Callable[[], T], request: Request) -> T:
    """``work()`` in a worker thread within the request's budget, for work that is not a service over a
    session (validating a large body, rendering a chart): the same bounds as ``compute``, never on the
    event loop."""
    return await compute(
        lambda _session: work(), OFFLINE_SESSION, size=INLINE_WORK_LIMIT + 1, request=request
    )


def _inline(work: Callable[[Session], T], started: float) -> T:
    """``work`` on the event loop with the offline session, stopped at a check past ``INLINE_SLICE_S``."""
    return _under(Deadline(started + INLINE_SLICE_S), lambda: work(OFFLINE_SESSION))


async def _in_worker(
    work: Callable[[Session], T], session: Session, deadline: Deadline, budget: float, receive: Receive | None
) -> T:
    job = _Job(deadline)
    future = asyncio.wrap_future(_EXECUTOR.submit(job.call, lambda: work(session)))
    future.add_done_callback(_retrieve)  # an abandoned job's DeadlineExceeded is expected
    watcher = asyncio.ensure_future(_disconnected(receive)) if receive is not None else None
    _RUNNING.add(job)
    try:
        waiting: set[asyncio.Future[Any]] = {future} if watcher is None else {future, watcher}
        done, _ = await asyncio.wait(
            waiting, timeout=max(0.0, deadline.remaining()), return_when=asyncio.FIRST_COMPLETED
        )
        if future not in done:
            job.stop("client" if watcher is not None and watcher in done else "budget")
            if job.began.is_set():
                # Wait for the thread to leave the work (and the session) before the route closes the
                # session: the work stops at its next check, a database call when it returns.
                await asyncio.wait({future}, timeout=budget)
        elif not future.exception():
            return future.result()
        elif not isinstance(future.exception(), DeadlineExceeded):
            return future.result()  # raises the work's own error
        if job.reason == "client":
            # The client is gone and reads no answer; 499 (nginx's "client closed request") in the log.
            raise BadRequest("The client closed the connection before the answer.", status=499)
        if job.reason == "shutdown":
            raise ServiceUnavailable(
                "The service is shutting down.", headers={"Retry-After": str(BUSY_RETRY_AFTER_S)}
            )
        if not job.began.is_set():
            raise ServiceUnavailable(
                f"Every compute worker was busy for {budget:g} s. Retry in {BUSY_RETRY_AFTER_S} seconds.",
                headers={"Retry-After": str(BUSY_RETRY_AFTER_S)},
            )
        raise too_large(budget)
    finally:
        _RUNNING.discard(job)
        if watcher is not None:
            watcher.cancel()


def too_large(budget: float) -> TooLarge:
    """The "ask for less" answer of a request that needs more than its time budget."""
    return TooLarge(
        f"The request needs more than its {budget:g} s of work; ask for less (fewer permanents,"
        " spells, names or symbols).",
        status=422,
        extra={"budget_seconds": budget},
    )


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


async def _disconnected(receive: Receive) -> None:
    """Returns when the client has gone. Only called once the body is read, so nothing else is lost."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _budget(app: Any) -> float:
    return float(settings_of(app).compute_budget_s)
