"""Readiness: is the database reachable and its schema at the latest migration."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.db.migrate import database_status
from app.errors import ServiceUnavailable


@dataclass(frozen=True, slots=True)
class Readiness:
    backend: str
    revisions: tuple[str, ...]


def check_ready(session: Session) -> Readiness:
    """The database's backend and schema revisions; ``ServiceUnavailable`` (a 503) when not ready."""
    state = database_status(session)
    if not state.ok:
        raise ServiceUnavailable(state.reason)
    return Readiness(backend=state.backend, revisions=tuple(sorted(state.revisions)))
