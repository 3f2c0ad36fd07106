"""Alembic, driven from code: the service migrates itself at start-up and ``/readyz`` checks it is at head.

The migration scripts live in the source checkout's ``migrations/``; an installed (non-editable) package
carries them in ``<prefix>/share/manacalc/migrations`` (see pyproject.toml).
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

logger = logging.getLogger(__name__)

_REPO_MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
_INSTALLED_MIGRATIONS = Path(sys.prefix) / "share" / "manacalc" / "migrations"
# Any constant: serialises concurrent migrations (several instances starting at once) on PostgreSQL.
_PG_LOCK_ID = 7_264_530_011
_LOCK_POLL_MAX = 0.5  # seconds between two tries while another process holds the migration lock
_held = threading.local()  # URLs whose migration lock this thread holds (the lock is re-entrant)


def migrations_dir() -> Path:
    """Where the migration scripts are."""
    for candidate in (_REPO_MIGRATIONS, _INSTALLED_MIGRATIONS):
        if (candidate / "env.py").is_file():
            return candidate
    raise RuntimeError(f"migration scripts not found in {_REPO_MIGRATIONS} or {_INSTALLED_MIGRATIONS}")


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for our scripts; with ``connection``, migrations run on it (env.py uses it)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@lru_cache(maxsize=1)
def head_revisions() -> frozenset[str]:
    """The head revision(s) of the migration scripts."""
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_revisions(connection: Connection) -> frozenset[str]:
    """The revision(s) the database is at (empty when never migrated)."""
    return frozenset(MigrationContext.configure(connection).get_current_heads())


def is_at_head(connection: Connection) -> bool:
    return current_revisions(connection) == head_revisions()


def upgrade_connection(connection: Connection, revision: str = "head") -> None:
    """Apply pending migrations on ``connection`` inside its current transaction (the caller commits and
    holds ``migration_lock`` when other processes may migrate at the same time)."""
    before = current_revisions(connection)
    command.upgrade(alembic_config(connection), revision)
    after = current_revisions(connection)
    if after != before:
        logger.info("database migrated from %s to %s", sorted(before) or "an empty schema", sorted(after))


def upgrade_to_head(engine: Engine) -> None:
    """Apply every pending migration in one transaction (all of them or none), under ``migration_lock``."""
    with migration_lock(engine), engine.begin() as connection:
        upgrade_connection(connection)


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the database's migration lock for the block, so processes starting together (replicas, uvicorn
    workers) migrate and seed one after another: the next one finds the work done.

    PostgreSQL: the session-level advisory lock ``_PG_LOCK_ID``, on a connection of its own (autocommit, so
    it holds no snapshot), released at the end; it dies with its session if the process does. Taken by
    polling ``pg_try_advisory_lock``: no statement waits, so ``statement_timeout`` cannot cut a long wait.
    SQLite: an exclusive ``flock`` on ``<database file>.migrate-lock`` (processes sharing a file share a
    machine); an in-memory database needs none. Re-entrant within a thread.
    """
    key = engine.url.render_as_string(hide_password=False)
    held: set[str] = _held.__dict__.setdefault("urls", set())
    if key in held:
        yield
        return
    with _pg_advisory_lock(engine) if engine.dialect.name == "postgresql" else _file_lock(engine):
        held.add(key)
        try:
            yield
        finally:
            held.discard(key)


@contextmanager
def _pg_advisory_lock(engine: Engine) -> Iterator[None]:
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        delay = 0.05
        waited = False
        while not connection.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _PG_LOCK_ID}).scalar():
            if not waited:
                logger.info("waiting for another process to finish migrating the database")
                waited = True
            time.sleep(delay)
            delay = min(delay * 2, _LOCK_POLL_MAX)
        try:
            yield
        finally:
            try:
                connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_LOCK_ID})
            except SQLAlchemyError:
                connection.invalidate()  # closing the session releases the lock as well


@contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    database = engine.url.database or ":memory:"
    if engine.dialect.name != "sqlite" or database == ":memory:" or database.startswith("file:"):
        yield
        return
    try:
        import fcntl
    except ImportError:  # not on a POSIX system: no inter-process lock
        yield
        return
    with open(f"{database}.migrate-lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            logger.info("waiting for another process to finish migrating the database")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def downgrade(engine: Engine, revision: str) -> None:
    """Revert to ``revision`` (``"base"`` for an empty schema)."""
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), revision)


@dataclass(frozen=True, slots=True)
class DatabaseStatus:
    """What ``/readyz`` reports: reachable, and at the latest migration."""

    ok: bool
    backend: str
    revisions: frozenset[str]
    reason: str


def database_status(session: Session) -> DatabaseStatus:
    """Check the database behind ``session`` answers and its schema is at head (never raises)."""
    backend = session.get_bind().dialect.name
    try:
        connection = session.connection()
        connection.execute(text("SELECT 1"))
        current = current_revisions(connection)
    except SQLAlchemyError as exc:
        # One line, no traceback: probes repeat every few seconds for as long as the database is away.
        cause = str(getattr(exc, "orig", None) or exc).strip().splitlines() or [""]
        logger.warning("database unreachable: %s: %s", exc.__class__.__name__, cause[0][:300])
        return DatabaseStatus(False, backend, frozenset(), "The database is unreachable.")
    heads = head_revisions()
    if current != heads:
        return DatabaseStatus(
            False,
            backend,
            current,
            f"The database schema is at {sorted(current) or 'no revision'}, not at {sorted(heads)}:"
            " run `manacalc migrate`.",
        )
    return DatabaseStatus(True, backend, current, "ready")
