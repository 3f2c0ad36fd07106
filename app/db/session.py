"""Engines and session factories, built from settings and cached per database URL.

SQLite: usable from FastAPI's thread pool, WAL, foreign keys on, a busy timeout, and real transactions
(pysqlite's own transaction handling is switched off and BEGIN emitted by SQLAlchemy, so SAVEPOINTs and
transactional DDL behave as on PostgreSQL: the SQLAlchemy documentation's pysqlite recipe).
PostgreSQL: a liveness check at checkout that costs no round trip (``_drop_dead_connections``), a connect
timeout, a statement timeout.
"""

from __future__ import annotations

import logging
import os
import select
import socket
import threading
import time
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from app.config import Settings

logger = logging.getLogger("manacalc")

SQLITE_BUSY_TIMEOUT_MS = 5000


_ENGINES: dict[tuple[str, float, int], Engine] = {}
_LOCK = threading.Lock()


def get_engine(settings: Settings) -> Engine:
    """The engine for ``settings.database_url`` (one per URL and options per process; creating it does not
    connect)."""
    key = (settings.database_url, settings.db_pool_timeout, settings.statement_timeout_ms)
    with _LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = _create_engine(*key)
        return engine


POOL_SIZE = 15
"""Connections each worker process keeps (PostgreSQL); see docs/deploy.md, "Scaling out without
Kubernetes"."""


def _create_engine(url: str, pool_timeout: float, statement_timeout_ms: int) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql":
        connect_args.update(postgres_timeouts(pool_timeout))
        if statement_timeout_ms > 0:
            connect_args["options"] = f"-c statement_timeout={statement_timeout_ms}"
    # 15 connections at most per process, as SQLAlchemy's default 5 + 10 overflow, but all kept open:
    # overflow connections are closed on return, so under load every request beyond the fifth paid a
    # new connection (connect and disconnect churn dominated scenario reads).
    engine = create_engine(
        url,
        pool_size=POOL_SIZE,
        max_overflow=0,
        pool_timeout=pool_timeout,
        connect_args=connect_args,
        future=True,
    )
    if parsed.get_backend_name() == "postgresql":
        event.listen(engine, "checkout", _drop_dead_connections)
        seconds = answer_deadline_s(pool_timeout, statement_timeout_ms)

        def watch(conn: Any, *_args: Any) -> None:
            _WATCHDOG.watch(conn.connection.dbapi_connection, seconds)

        def done(conn: Any, *_args: Any) -> None:
            _WATCHDOG.done(conn.connection.dbapi_connection)

        def failed(context: Any) -> None:
            cursor = getattr(context.execution_context, "cursor", None)
            if cursor is not None:  # psycopg's cursor knows its connection, invalidated or not
                _WATCHDOG.done(cursor.connection)

        event.listen(engine, "before_cursor_execute", watch)
        event.listen(engine, "after_cursor_execute", done)
        event.listen(engine, "handle_error", failed)
    return engine


def answer_deadline_s(pool_timeout: float, statement_timeout_ms: int) -> float:
    """How long a PostgreSQL statement may wait for its answer before the client gives up on the server:
    the statement timeout (the server cancels the statement itself then) and a second for its answer to
    arrive; without a statement timeout, the pool timeout."""
    if statement_timeout_ms > 0:
        return statement_timeout_ms / 1000 + 1.0
    return pool_timeout


class AnswerWatchdog:
    """Cuts the socket of a PostgreSQL connection whose statement has had no answer by its deadline.

    A server that stays connected but never answers (stopped, frozen, a network path that
    swallows packets while the kernel still acknowledges them) hung every request that reached it for
    the whole outage: the statement timeout is the server's to enforce, ``tcp_user_timeout`` needs
    unacknowledged data, and libpq waits on its socket with no timeout. One thread checks the
    statements in flight every ``interval`` seconds; a late one's socket is shut down, so libpq's wait
    ends with an error, SQLAlchemy invalidates the connection, and the request answers a 503 problem
    with ``Retry-After`` (``app.errors.database_unavailable``). A statement costs two dictionary updates.
    """

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._pending: dict[int, tuple[float, Any]] = {}  # id(dbapi connection) -> (deadline, connection)
        self._thread: threading.Thread | None = None

    def watch(self, dbapi_connection: Any, seconds: float) -> None:
        with self._lock:
            self._pending[id(dbapi_connection)] = (time.monotonic() + seconds, dbapi_connection)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="db-answer-watchdog", daemon=True)
                self._thread.start()

    def done(self, dbapi_connection: Any) -> None:
        with self._lock:
            self._pending.pop(id(dbapi_connection), None)

    def _run(self) -> None:
        while True:
            time.sleep(self.interval)
            now = time.monotonic()
            with self._lock:  # cut under the lock: a statement that ends now cannot return its connection
                for key, (deadline, connection) in list(self._pending.items()):
                    if deadline <= now:
                        del self._pending[key]
                        _cut(connection)


def _cut(dbapi_connection: Any) -> None:
    logger.warning("the database did not answer a statement in time: dropping its connection")
    try:
        fd = dbapi_connection.pgconn.socket
        with socket.socket(fileno=os.dup(fd)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except Exception:  # already closed: the statement has ended one way or another
        logger.debug("could not cut a database connection", exc_info=True)


_WATCHDOG = AnswerWatchdog()


def _drop_dead_connections(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Refuse a pooled PostgreSQL connection the server has closed, without a round trip.

    ``pool_pre_ping`` sent a ``SELECT 1`` before every checkout, as costly as a scenario read's
    own statement. An idle connection has nothing to read: when the server
    ends it (a restart, ``pg_terminate_backend``, an idle timeout) it sends its FATAL message and closes
    the socket, which then polls readable. Such a connection (or one psycopg already knows is broken) is
    refused with ``DisconnectionError``, which makes the pool discard it and check out another (a new one
    if need be), so a restarted server costs no failed request (``bench/db_faults.py``). A peer that
    vanished silently sends nothing: TCP keepalives and ``tcp_user_timeout`` (``postgres_timeouts``)
    turn it into an error, as they did for the pre-ping. A spurious readable socket (a notice) only costs
    a reconnect.
    """
    if dbapi_connection.closed or dbapi_connection.broken:
        raise DisconnectionError("the connection is closed")
    if _readable(dbapi_connection.pgconn.socket):
        raise DisconnectionError("the server closed the idle connection")


def _readable(fd: int) -> bool:
    """Whether ``fd`` has something to read now (poll: select() refuses descriptors past 1023)."""
    if not hasattr(select, "poll"):  # pragma: no cover - Windows
        return bool(select.select([fd], [], [], 0)[0])
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def postgres_timeouts(pool_timeout: float) -> dict[str, Any]:
    """libpq options that turn a silent or vanished server into an error within ``pool_timeout`` seconds.

    ``connect_timeout`` bounds the connection handshake; ``tcp_user_timeout`` (milliseconds) drops a
    connection whose sent data stays unacknowledged; TCP keepalives find a dead peer on an idle pooled
    connection (so a dead peer is an error soon rather than after the kernel's two hours).
    """
    seconds = max(1, int(pool_timeout))
    return {
        "connect_timeout": seconds,
        "tcp_user_timeout": seconds * 1000,
        "keepalives": 1,
        "keepalives_idle": max(1, seconds // 2),
        "keepalives_interval": 1,
        "keepalives_count": 3,
    }


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
    )
    in_memory = make_url(url).database in (None, "", ":memory:")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (see _on_begin)
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            if not in_memory:
                cursor.execute("PRAGMA journal_mode=WAL")
                # In WAL mode NORMAL stays consistent after a crash (a power loss may drop the last
                # commits); FULL fsyncs every commit, which capped scenario writes near 100/s.
                cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        options = connection.get_execution_options()
        if not (options.get(READ_ONLY_OPTION) or options.get(AUTOCOMMIT_OPTION)):
            connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get(IMMEDIATE_OPTION) else "BEGIN")

    return engine


READ_ONLY_OPTION = "manacalc_read_only"
IMMEDIATE_OPTION = "manacalc_sqlite_immediate"
"""SQLite: a connection with this option begins its transaction with ``BEGIN IMMEDIATE``, a writer from
the start (``app.db.repositories.api_keys.take_sqlite_write_lock``)."""


@lru_cache(maxsize=16)
def read_engine(engine: Engine) -> Engine:
    """``engine`` for read-only requests, with no BEGIN, COMMIT or ROLLBACK sent: PostgreSQL in
    autocommit; on SQLite (already in driver autocommit, ``_on_begin`` sending BEGIN itself) without the
    BEGIN, so each statement runs on its own and the driver's commit and rollback have nothing to end."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT", **{READ_ONLY_OPTION: True})
    return engine.execution_options(**{READ_ONLY_OPTION: True})


AUTOCOMMIT_OPTION = "manacalc_autocommit"


@lru_cache(maxsize=16)
def statement_engine(engine: Engine) -> Engine:
    """``engine`` for a change made of ONE write statement, with reads before it: no BEGIN, COMMIT or
    ROLLBACK sent (PostgreSQL in autocommit; SQLite without the BEGIN), so each statement is its own
    transaction, atomic with the triggers it fires. Two writes there would be two transactions: a use
    case writing more than one statement takes the request's transaction (``SessionDep``) instead.

    A read-modify-write (read the row, then ``UPDATE ... WHERE version = <read>``) costs 2 round
    trips this way, where a transaction costs 4 (BEGIN, SELECT, UPDATE, COMMIT)."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT", **{AUTOCOMMIT_OPTION: True})
    return engine.execution_options(**{AUTOCOMMIT_OPTION: True})


@lru_cache(maxsize=16)
def get_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions for ``engine``. Objects stay readable after commit (responses are built from them)."""
    return sessionmaker(bind=engine, expire_on_commit=False, autoflush=True)


def dispose_engines() -> None:
    """Close and forget every cached engine (process shutdown, tests)."""
    with _LOCK:
        engines = list(_ENGINES.values())
        _ENGINES.clear()
        get_sessionmaker.cache_clear()
        read_engine.cache_clear()
        statement_engine.cache_clear()
    for engine in engines:
        engine.dispose()
