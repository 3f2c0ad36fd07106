"""Annotated dependency aliases for routes: ``SettingsDep``, ``SessionDep``,
``ReadSessionDep``, ``StatementSessionDep``.

The request owns the transaction: ``SessionDep`` commits once the endpoint returns without error (before
the response is sent, so a failed commit is a failed request) and rolls back otherwise. Services and
repositories only flush.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, asynccontextmanager, contextmanager
from typing import Annotated, TypeVar

from fastapi import Depends, Request
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.config import Settings, get_settings
from app.db.session import get_engine, get_sessionmaker, read_engine, statement_engine

# These dependencies are async on purpose: none of them does I/O on the way in, and a sync dependency
# costs a thread-pool hop per request (measured: about half the throughput of the compute endpoints).


def settings_of(app: object) -> Settings:
    """The settings ``app`` was built with (``create_app(settings)``), else the process's."""
    settings = getattr(getattr(app, "state", None), "settings", None)
    return settings if isinstance(settings, Settings) else get_settings()


async def get_request_settings(request: Request) -> Settings:
    """The settings the app was built with (``create_app(settings)``), else the process's."""
    return settings_of(request.app)


SettingsDep = Annotated[Settings, Depends(get_request_settings)]


def _engine(request: Request) -> Engine:
    """The app's engine, read from the request: the session dependencies below take the request itself
    rather than ``EngineDep`` (itself over ``SettingsDep``), each dependency FastAPI solves costing the
    request (a scenario read solved six)."""
    return get_engine(settings_of(request.app))  # cached per URL; creating an engine does not connect


async def get_db_session(request: Request) -> AsyncIterator[Session]:
    """One session per request; commit on success, rollback on any error.

    A session connects only when first used, so a request served from caches never touches the pool;
    when it did use the database, commit and rollback run in the thread pool, off the event loop.
    """
    session = get_sessionmaker(_engine(request))()
    try:
        yield session
    except BaseException:
        if session.in_transaction():
            await run_in_threadpool(session.rollback)
        raise
    else:
        if session.in_transaction():
            await run_in_threadpool(session.commit)
    finally:
        if session.in_transaction():
            await run_in_threadpool(session.close)
        else:
            session.close()


# scope="function": the commit runs right after the endpoint returns, before the response is sent.
SessionDep = Annotated[Session, Depends(get_db_session, scope="function")]


@asynccontextmanager
async def _closing(session: Session) -> AsyncIterator[Session]:
    """``session``, closed on the way out: in the thread pool when it holds a connection (closing it
    then talks to the database), else on the event loop."""
    try:
        yield session
    finally:
        if session.in_transaction():
            await run_in_threadpool(session.close)
        else:
            session.close()


async def get_db_read_session(request: Request) -> AsyncIterator[Session]:
    """A session for routes that only read: on PostgreSQL in autocommit, so a read costs its statements
    and no BEGIN or COMMIT round trips (a scenario read in at most 2 round trips, auth
    included). Each statement sees a consistent snapshot; the routes using it read one row set."""
    async with _closing(get_sessionmaker(read_engine(_engine(request)))()) as session:
        yield session


ReadSessionDep = Annotated[Session, Depends(get_db_read_session, scope="function")]

T = TypeVar("T")


def worker_read_session(app: object) -> AbstractContextManager[Session]:
    """A read session for work in a worker thread, dependencies unsolved: ``app.state.worker_session``
    when the app sets one (the tests' per-test session), else ``read_session``."""
    settings = settings_of(app)
    opener = getattr(getattr(app, "state", None), "worker_session", read_session)
    session: AbstractContextManager[Session] = opener(settings)
    return session


async def read_in_one_hop(request: Request, read: Callable[[Session], T]) -> T:
    """``read(session)`` in the thread pool with a read session opened and closed there, so that a reading
    route leaves the event loop once and FastAPI solves no session dependency for it: a sync endpoint over
    ``ReadSessionDep`` takes a second hop to close a session holding a connection, and the dependency, an
    async generator entered through FastAPI's exit stack, costs the event loop more than a read's other
    parameters together (docs/performance.md, "The scenario read in one hop")."""
    app = request.app

    def read_in_worker() -> T:
        with worker_read_session(app) as session:
            return read(session)

    return await run_in_threadpool(read_in_worker)


async def get_db_statement_session(request: Request) -> AsyncIterator[Session]:
    """A session for a change made of one write statement after its reads (a read-modify-write):
    every statement is its own transaction (``app.db.session.statement_engine``), so nothing is left to
    commit or roll back (read and write in 2 round trips, where BEGIN and COMMIT would make 4).
    The one exception to "the request owns the transaction": a use case writing more than one statement
    takes ``SessionDep``."""
    async with _closing(get_sessionmaker(statement_engine(_engine(request)))()) as session:
        yield session


StatementSessionDep = Annotated[Session, Depends(get_db_statement_session, scope="function")]


@contextmanager
def read_session(settings: Settings) -> Iterator[Session]:
    """``get_db_read_session`` outside dependency solving, for a worker thread (the work of a
    ``ComputeRoute`` that runs in one, ``app.api.compute``): the same autocommit read session, closed on the
    way out."""
    session = get_sessionmaker(read_engine(get_engine(settings)))()
    try:
        yield session
    finally:
        session.close()
