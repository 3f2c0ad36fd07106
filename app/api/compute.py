"""Run compute work bounded in time: a short slice on the event loop, the rest in a worker thread.

A sync route costs a thread-pool hop per request, which measured as most of the time of a small
``spells/cost`` (hundreds of µs against ~200 µs of real work). So a compute route first runs its service
on the event loop with a session that refuses any use (``NeedsDatabase``): the work is pure and free of
side effects until it would read the database, so an attempt can simply be dropped.

Issue 15: a 230-byte request could hold the event loop for minutes (backtracking, exponential lists, an
exponential payment search), so that ``/healthz`` stopped answering and a shutdown waited for it. Now:

- the inline attempt gets ``INLINE_SLICE_S``; a watchdog thread interrupts it past that, and the work
  starts again in a worker thread, where it cannot stop other requests;
- in the worker, the whole request gets ``compute_budget_s`` (queueing included); past it, or when the
  client disconnects, or at shutdown, the work is interrupted and the answer is a 422 ``too-large``
  (a 503 with ``Retry-After`` if every worker was busy the whole time).

Interrupting is ``PyThreadState_SetAsyncExc``: the interpreter raises ``WorkCancelled`` in the working
thread at its next bytecode boundary, so pure-Python work is checked "as it goes" at no cost per step.
The exception derives from ``BaseException`` so that no ``except Exception`` in the rules swallows it. A
thread inside a long C call (a database round trip) is interrupted when the call returns; the statement
timeout bounds those.
"""

from __future__ import annotations

import asyncio
import ctypes
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, NoReturn, TypeVar, cast

from sqlalchemy.orm import Session
from starlette.types import Receive, Scope

from app.errors import BadRequest, ServiceUnavailable, TooLarge
from app.logs import current_request

T = TypeVar("T")

INLINE_WORK_LIMIT: Final = 2_000
"""Permanents x spells a request may hold and still be tried on the event loop (a few ms at most)."""
INLINE_SLICE_S: Final = 0.01
"""How long work may hold the event loop before it moves to a worker thread (a large ordinary board
takes a few ms)."""
GIL_SWITCH_INTERVAL_S: Final = 0.001
"""The event loop's thread competes for the GIL with busy workers: at CPython's default 5 ms it waited
40-120 ms for it with two hostile requests running, at 1 ms 20-40 ms (``app.main`` sets it)."""
DEFAULT_BUDGET_S: Final = 1.5
"""A request's time budget when the app gives none (``Settings.compute_budget_s``)."""
COMPUTE_THREADS: Final = 8
"""Worker threads per process: more would only share the GIL thinner."""
BUSY_RETRY_AFTER_S: Final = 2


class NeedsDatabase(Exception):
    """The computation needs the database: run it again in a worker thread with a real session."""


class Fallback(Exception):
    """Work given ``OFFLINE_SESSION`` (``app.api.direct``) needs the database, more than the inline slice,
    or is too big for the event loop: serve the request through FastAPI, with a session, instead."""


INLINE_TRIED: Final = "manacalc.inline_tried"
"""Set in the scope when the direct lane's inline attempt failed: the FastAPI rerun goes straight to a
worker thread instead of trying the event loop again."""


class WorkCancelled(BaseException):
    """Raised inside a working thread that overran its budget, lost its client or is shut down."""


class _OfflineSession:
    """Stands in for a Session; any use of it means the work needs the database."""

    def __getattr__(self, name: str) -> NoReturn:
        raise NeedsDatabase(name)


OFFLINE_SESSION = cast(Session, _OfflineSession())
"""The session of work that must not touch the database; passed to ``compute`` by the direct lane."""


def _set_async_exc(thread_id: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in the thread at its next bytecode boundary (``None`` clears a pending one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc is not None else None
    )


class _Interruptible:
    """Work running in one thread that another thread may interrupt (again, until it stops).

    ``state`` moves queued -> running -> done under ``lock``; ``interrupt`` raises only while running,
    and the working thread clears any pending exception under the same lock as it finishes, so the
    exception can never escape into the code that runs after the work (the event loop or the pool).
    """

    __slots__ = ("lock", "state", "thread_id")

    QUEUED, RUNNING, INTERRUPTED, DONE = range(4)

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.thread_id = 0
        self.state = self.QUEUED

    def call(self, work: Callable[[], T]) -> T:
        """``work()`` in the current thread; ``WorkCancelled`` if interrupted (or cancelled before)."""
        try:
            try:
                with self.lock:
                    if self.state != self.QUEUED:
                        raise WorkCancelled
                    self.thread_id = threading.get_ident()
                    self.state = self.RUNNING
                return work()
            finally:
                with self.lock:
                    if self.state == self.INTERRUPTED:
                        _set_async_exc(self.thread_id, None)
                    self.state = self.DONE
        except WorkCancelled:
            # Raised in work(), or pending until one of the lines above; nothing of it is left pending.
            raise WorkCancelled from None

    def interrupt(self) -> bool:
        """Stop the work: True if it had not started (it never will), False if interrupted or done."""
        with self.lock:
            if self.state == self.QUEUED:
                self.state = self.DONE
                return True
            if self.state in (self.RUNNING, self.INTERRUPTED):
                # Again while still running: an exception that lands in a finalizer or a weakref
                # callback is printed as "ignored" and lost, and the work would then run on unbounded.
                self.state = self.INTERRUPTED
                _set_async_exc(self.thread_id, WorkCancelled)
            return False


class _Watchdog:
    """One daemon thread that interrupts inline work holding the event loop longer than its slice."""

    def __init__(self, period: float) -> None:
        self.period = period
        self.lock = threading.Lock()
        self.armed: tuple[_Interruptible, float] | None = None
        self.thread: threading.Thread | None = None

    def arm(self, job: _Interruptible, deadline: float) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._watch, name="manacalc-watchdog", daemon=True)
            self.thread.start()
        self.armed = (job, deadline)

    def disarm(self) -> None:
        self.armed = None

    def _watch(self) -> None:
        while True:
            time.sleep(self.period)
            armed = self.armed
            if armed is not None and time.monotonic() > armed[1]:
                armed[0].interrupt()


_WATCHDOG = _Watchdog(INLINE_SLICE_S / 2)
_EXECUTOR = ThreadPoolExecutor(COMPUTE_THREADS, thread_name_prefix="manacalc-compute")
_RUNNING: set[_Interruptible] = set()


def ignore_lost_interruptions() -> None:
    """Keep interruptions Python could not deliver out of the log (idempotent; ``app.main`` calls it).

    An interruption that lands in a finalizer or a weakref callback the interrupted work triggered is
    "ignored" by Python, which prints it with a traceback through ``sys.unraisablehook``, and the
    watchdog sends it again until the work stops (``_Interruptible``). Expected, so dropped here; any
    other unraisable exception goes to the hook as before (seen during ``bench/db_faults.py``'s outage)."""
    previous = sys.unraisablehook
    if getattr(previous, "_manacalc", False):
        return

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, WorkCancelled):
            return
        previous(unraisable)

    hook._manacalc = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def cancel_all() -> int:
    """Interrupt every running or queued compute job (shutdown); returns how many there were."""
    jobs = list(_RUNNING)
    for job in jobs:
        job.interrupt()
    return len(jobs)


async def compute(work: Callable[[Session], T], session: Session, *, size: int) -> T:
    """``work(session)``, bounded: inline when small, pure and quick, else in a worker thread within the
    budget. ``TooLarge`` (422) past the budget, ``ServiceUnavailable`` (503) if no worker was free."""
    bound = current_request()
    scope = bound[0] if bound else None
    started = time.monotonic()
    if session is OFFLINE_SESSION:  # the direct lane: inline, or through FastAPI with a session
        if size > INLINE_WORK_LIMIT:
            raise Fallback
        try:
            return _inline(work, started)
        except (NeedsDatabase, WorkCancelled):
            if scope is not None:
                scope[INLINE_TRIED] = True
            raise Fallback from None
    budget = _budget(scope)
    if size <= INLINE_WORK_LIMIT and not (scope is not None and scope.get(INLINE_TRIED)):
        try:
            return _inline(work, started)
        except (NeedsDatabase, WorkCancelled):
            pass
    return await _in_worker(work, session, started + budget, budget, bound[1] if bound else None)


def _inline(work: Callable[[Session], T], started: float) -> T:
    """``work`` on the event loop with the offline session, interrupted past ``INLINE_SLICE_S``."""
    inline = _Interruptible()
    _WATCHDOG.arm(inline, started + INLINE_SLICE_S)
    try:
        return inline.call(lambda: work(OFFLINE_SESSION))
    finally:
        _WATCHDOG.disarm()


async def _in_worker(
    work: Callable[[Session], T], session: Session, deadline: float, budget: float, receive: Receive | None
) -> T:
    job = _Interruptible()
    future = asyncio.wrap_future(_EXECUTOR.submit(job.call, lambda: work(session)))
    future.add_done_callback(_retrieve)  # an abandoned job's WorkCancelled is expected, not "never retrieved"
    watcher = asyncio.ensure_future(_disconnected(receive)) if receive is not None else None
    _RUNNING.add(job)
    try:
        waiting: set[asyncio.Future[Any]] = {future} if watcher is None else {future, watcher}
        timeout = max(0.0, deadline - time.monotonic())
        done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if future in done:
            try:
                return future.result()
            except WorkCancelled:  # shut down meanwhile
                raise ServiceUnavailable(
                    "The service is shutting down.", headers={"Retry-After": str(BUSY_RETRY_AFTER_S)}
                ) from None
        never_started = job.interrupt()
        if not never_started:
            # Interrupted: wait for the thread to leave the work (and the session) before the route
            # closes the session; pure Python stops at once, a database call when it returns.
            await asyncio.wait({future}, timeout=budget)
        if watcher is not None and watcher in done:
            # The client is gone and reads no answer; 499 (nginx's "client closed request") in the log.
            raise BadRequest("The client closed the connection before the answer.", status=499)
        if never_started:
            raise ServiceUnavailable(
                f"Every compute worker was busy for {budget:g} s. Retry in {BUSY_RETRY_AFTER_S} seconds.",
                headers={"Retry-After": str(BUSY_RETRY_AFTER_S)},
            )
        raise TooLarge(
            f"The request needs more than its {budget:g} s of work; ask for less (fewer permanents,"
            " spells or symbols).",
            status=422,
            extra={"budget_seconds": budget},
        )
    finally:
        _RUNNING.discard(job)
        if watcher is not None:
            watcher.cancel()


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


async def _disconnected(receive: Receive) -> None:
    """Returns when the client has gone. Only called once the body is read, so nothing else is lost."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _budget(scope: Scope | None) -> float:
    app = scope.get("app") if scope is not None else None
    settings = getattr(getattr(app, "state", None), "settings", None)
    return float(getattr(settings, "compute_budget_s", DEFAULT_BUDGET_S))
