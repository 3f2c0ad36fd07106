"""Serve pure computations on the event loop when the in-process card cache can answer them.

A sync route costs a thread-pool hop per request, which measured as most of the time of a small
``spells/cost`` (hundreds of µs against ~200 µs of real work). The compute services only touch the
database when the card cache misses or the catalogue's data_version is due for its once-a-second check.
So a compute route first runs its service with a session that refuses any use (``NeedsDatabase``); the
service's work is pure and side-effect free until it would read the database, so the attempt is simply
dropped and the service runs again in the thread pool with the request's real session. Large requests go
to the thread pool directly, so one big board never holds the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

T = TypeVar("T")

INLINE_WORK_LIMIT = 2_000
"""Permanents x spells a request may hold and still be computed on the event loop (a few ms at most)."""


class NeedsDatabase(Exception):
    """The computation needs the database: run it again in the thread pool with a real session."""


class _OfflineSession:
    """Stands in for a Session; any use of it means the work needs the database."""

    def __getattr__(self, name: str) -> NoReturn:
        raise NeedsDatabase(name)


_OFFLINE = cast(Session, _OfflineSession())


async def compute(work: Callable[[Session], T], session: Session, *, size: int) -> T:
    """``work(session)``, inline when ``size`` (permanents x spells) is small and no database is needed."""
    if size <= INLINE_WORK_LIMIT:
        try:
            return work(_OFFLINE)
        except NeedsDatabase:
            pass
    return cast(T, await run_in_threadpool(cast(Callable[..., Any], work), session))
