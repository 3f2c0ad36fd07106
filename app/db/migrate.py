"""Alembic, driven from code: the service migrates itself at start-up and ``/readyz`` checks it is at head.

The migration scripts live in the source checkout's ``migrations/``; an installed (non-editable) package
carries them in ``<prefix>/share/manacalc/migrations`` (see pyproject.toml).
"""

from __future__ import annotations

import logging
import sys
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
    """Apply pending migrations on ``connection`` inside its current transaction (the caller commits)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK_ID})
    before = current_revisions(connection)
    command.upgrade(alembic_config(connection), revision)
    after = current_revisions(connection)
    if after != before:
        logger.info("database migrated from %s to %s", sorted(before) or "an empty schema", sorted(after))


def upgrade_to_head(engine: Engine) -> None:
    """Apply every pending migration in one transaction: all of them or none."""
    with engine.begin() as connection:
        upgrade_connection(connection)


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
        logger.warning("database unreachable: %s", exc.__class__.__name__, exc_info=True)
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
