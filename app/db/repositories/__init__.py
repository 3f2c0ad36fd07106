"""Repositories: all SQL lives here; they flush, never commit (the request owns the transaction).

The ``app_meta`` key-value helpers live here; other repositories get their own modules.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.db.base import utcnow
from app.db.models import AppMeta


def get_meta(session: Session, key: str) -> str | None:
    """The value stored under ``key`` in ``app_meta``, or None."""
    row = session.get(AppMeta, key)
    return None if row is None else row.value


def set_meta(session: Session, key: str, value: str) -> None:
    """Store ``value`` under ``key`` (insert or update), then flush."""
    row = session.get(AppMeta, key)
    if row is None:
        session.add(AppMeta(key=key, value=value, updated_at=utcnow()))
    else:
        row.value = value
        row.updated_at = utcnow()
    session.flush()
