"""All SQL of API keys. Functions flush, never commit."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models.api_keys import ApiKeyRow
from app.db.session import IMMEDIATE_OPTION
from app.errors import Conflict


def insert_api_key(session: Session, *, name: str, key_hash: str, now: datetime) -> ApiKeyRow:
    """Store a new key; a name already used (even by a revoked key) is a ``Conflict``."""
    row = ApiKeyRow(name=name, key_hash=key_hash, created_at=now, revoked_at=None)
    try:
        with session.begin_nested():  # a failed INSERT must not poison the transaction (PostgreSQL)
            session.add(row)
            session.flush()
    except IntegrityError as exc:
        raise Conflict(f"an API key named {name!r} already exists (names are never reused)") from exc
    return row


def active_key_id(session: Session, key_hash: str) -> int | None:
    """The id of the unrevoked key with this hash, or None."""
    return session.scalar(
        select(ApiKeyRow.id).where(ApiKeyRow.key_hash == key_hash, ApiKeyRow.revoked_at.is_(None))
    )


def revoke_api_key(session: Session, *, name: str, now: datetime) -> bool:
    """Revoke the key named ``name``; False when there is no unrevoked key of that name."""
    result = session.execute(
        update(ApiKeyRow)
        .where(ApiKeyRow.name == name, ApiKeyRow.revoked_at.is_(None))
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def take_sqlite_write_lock(session: Session) -> None:
    """SQLite only: make a write request's transaction a writer from its first statement.

    A WAL read transaction cannot become a writer once another connection has committed
    (SQLITE_BUSY_SNAPSHOT, which the busy timeout does not wait out), so a request that reads and then
    writes under concurrency would fail. Its transaction begins with ``BEGIN IMMEDIATE`` instead, which
    takes the write lock (waiting up to the busy timeout) in the BEGIN's own round trip (an
    UPDATE changing nothing did it before, one more round trip per write); SQLite serialises writers
    anyway, so this costs no parallelism. Only a session that has not begun yet can (the writer's key is
    the first dependency of a writing route; a test's session bound to its own transaction has).
    """
    if not session.in_transaction():
        session.connection(execution_options={IMMEDIATE_OPTION: True})
