"""A stored scenario as answered (``StoredScenario``) and its versions: the ETag ``"<id>-v<version>"``,
``If-Match`` and ``If-None-Match`` read against it, and the 404, 412 and 428 of a conditional change."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from app.db.models.scenarios import NO_OWNER, ScenarioRow
from app.db.repositories import scenarios as repo
from app.errors import NotFound, PreconditionFailed, PreconditionRequired


@dataclass(frozen=True, slots=True)
class StoredScenario:
    """A scenario as answered: its fields, the stored board JSON, and its ETag."""

    id: str
    name: str
    description: str
    owner: str | None
    board: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime

    @property
    def etag(self) -> str:
        return etag(self.id, self.version)

    def fields(self) -> dict[str, Any]:
        """The fields a ``ScenarioOut`` answers (the board as stored, not copied)."""
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "owner": self.owner,
            "board": self.board,
            "version": self.version,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


def etag(scenario_id: str, version: int) -> str:
    """The strong validator of a scenario version."""
    return f'"{scenario_id}-v{version}"'


_TAG = re.compile(r'\s*(W/)?"?([^",\s]*)"?\s*')


@dataclass(frozen=True, slots=True)
class IfMatch:
    """A parsed ``If-Match``: ``any`` for ``*``, else the versions of this scenario it names."""

    any: bool
    versions: frozenset[int]


def parse_if_match(header: str | None, scenario_id: str) -> IfMatch | None:
    """None when absent. Tags name versions of ``scenario_id`` only; weak tags never match (If-Match uses
    the strong comparison, RFC 9110 13.1.1); quotes may be left out."""
    if header is None:
        return None
    if header.strip() == "*":
        return IfMatch(True, frozenset())
    prefix = f"{scenario_id}-v"
    versions: set[int] = set()
    for part in header[:2000].split(","):
        m = _TAG.fullmatch(part)
        if m is None or m.group(1):
            continue
        tag = m.group(2)
        if tag.startswith(prefix) and tag[len(prefix) :].isdigit() and len(tag) - len(prefix) <= 18:
            versions.add(int(tag[len(prefix) :]))
    return IfMatch(False, frozenset(versions))


def etag_matches_none(header: str, scenario: StoredScenario) -> bool:
    """True when ``If-None-Match`` names the scenario's current version (a GET answers 304); the weak
    comparison applies here (RFC 9110 13.1.2)."""
    if header.strip() == "*":
        return True
    current = etag(scenario.id, scenario.version)
    return any(
        m is not None and f'"{m.group(2)}"' == current
        for m in (_TAG.fullmatch(part) for part in header[:2000].split(","))
    )


def stale(scenario_id: str, current: int | None = None) -> PreconditionFailed:
    now = f" (current ETag {etag(scenario_id, current)})" if current is not None else ""
    return PreconditionFailed(
        f"scenario {scenario_id!r} has changed since that ETag{now}: fetch it and retry"
    )


def not_found(scenario_id: str) -> NotFound:
    return NotFound(f"no scenario {scenario_id!r}")


def stored(row: ScenarioRow | Row[Any]) -> StoredScenario:
    """``row``: a loaded ScenarioRow, or the fields that ``repo.read_scenario`` reads (same names)."""
    return StoredScenario(
        id=row.id,
        name=row.name,
        description=row.description,
        owner=row.owner if row.owner != NO_OWNER else None,
        board=row.board,
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def expected_versions(condition: IfMatch | None) -> Collection[int] | None:
    """The versions a conditional change must find (None: any); none (a tag of another scenario, a weak
    tag) is a miss, explained by ``_explain_miss``."""
    if condition is None or condition.any:
        return None
    return condition.versions


def explain_miss(session: Session, *, api_key_id: int, scenario_id: str) -> NotFound | PreconditionFailed:
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    return not_found(scenario_id) if row is None else stale(scenario_id, row.version)


def replace_condition(if_match: str | None, scenario_id: str) -> IfMatch:
    """A PUT's ``If-Match``: 428 without one (checked before the board is validated)."""
    condition = parse_if_match(if_match, scenario_id)
    if condition is None:
        raise PreconditionRequired("PUT needs If-Match with the scenario's current ETag (or *)")
    return condition
