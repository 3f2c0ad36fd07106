"""Stored scenarios: create, read, list, replace, delete, set a permanent's choice, record a Mental Magic
choice, and compute a spell's cost on a stored board.

Every board is validated exactly as the compute endpoints validate it (``build_board``) before anything is
stored. Changes are optimistic: the ``ETag`` is ``"<id>-v<version>"`` and every change is a conditional
update on the version (see ``app.db.repositories.scenarios``), so concurrent writers never lose an update:
one wins, the others get 412 (with ``If-Match``) or are applied after it (without: a read-modify-write
that lost the race reads the row again and retries). Each write is one statement (at most 3
round trips). Functions flush, never commit.

This module holds creating, reading, listing, replacing and deleting; the rest lives in modules named for
it, and every name is still importable from here: a scenario as answered and its versions
(``scenario_versions``), its board checked and computed on (``scenario_boards``), the read-modify-write
changes (``scenario_choices``).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from app.cursors import cursor_datetime, decode_cursor, encode_cursor
from app.db.base import utcnow
from app.db.models.scenarios import NO_OWNER, ScenarioRow
from app.db.repositories import scenarios as repo
from app.db.repositories.scenarios import IdempotencyKeyTaken, PermanentFacts
from app.errors import AppError, BadRequest, InputError
from app.rules.errors import RulesError
from app.schemas.board import BoardIn
from app.schemas.scenarios import ScenarioIn
from app.services.catalogue import Catalogue
from app.services.scenario_boards import (
    MENTAL_MAGIC_RULE,
    BoardFacts,
    CheckedBoard,
    catalogue_version,
    checked_board,
    computed_answer,
    scenario_spell_cost,
    validated_facts,
)
from app.services.scenario_choices import CHANGE_ATTEMPTS, add_played_as, set_choice
from app.services.scenario_versions import (
    IfMatch,
    StoredScenario,
    etag,
    etag_matches_none,
    expected_versions,
    explain_miss,
    not_found,
    parse_if_match,
    replace_condition,
    stored,
)

__all__ = [
    "CHANGE_ATTEMPTS",
    "LIST_CHUNK_ROWS",
    "LIST_PAGE_MAX_BYTES",
    "MENTAL_MAGIC_RULE",
    "BoardFacts",
    "CheckedBoard",
    "Created",
    "IdempotencyKeyReused",
    "IfMatch",
    "ScenarioList",
    "StoredScenario",
    "add_played_as",
    "catalogue_version",
    "checked_board",
    "computed_answer",
    "create_scenario",
    "delete_scenario",
    "etag",
    "etag_matches_none",
    "get_scenario",
    "list_scenarios",
    "parse_if_match",
    "replace_condition",
    "replace_scenario",
    "scenario_spell_cost",
    "set_choice",
]


class IdempotencyKeyReused(InputError):
    type_slug = "idempotency-key-reused"
    title = "Idempotency Key Reused"
    description = (
        "This Idempotency-Key was already used with a different request body; a retry must send the same"
        " body (draft-ietf-httpapi-idempotency-key-header: 422)."
    )


@dataclass(frozen=True, slots=True)
class Created:
    scenario: StoredScenario
    replayed: bool  # True: an Idempotency-Key retry answered with the scenario created first


@dataclass(frozen=True, slots=True)
class ScenarioList:
    items: list[StoredScenario]
    next_cursor: str | None


# A listing page's budget: boards' JSON bytes per page (the page ends past it), and rows read at once.
LIST_PAGE_MAX_BYTES = 4 * 1024 * 1024
LIST_CHUNK_ROWS = 20


def _board_json(board_in: BoardIn) -> dict[str, Any]:
    return board_in.model_dump(mode="json", exclude_defaults=False)


def _request_hash(data: ScenarioIn) -> str:
    canonical = json.dumps(data.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# --- use cases -------------------------------------------------------------------------------------------


def create_scenario(
    session: Session,
    *,
    api_key_id: int,
    data: ScenarioIn,
    idempotency_key: str | None = None,
    facts: list[PermanentFacts] | None = None,
    invalid: AppError | RulesError | None = None,
) -> Created:
    """Store a new scenario (version 1). A retry with the same ``idempotency_key`` and body answers the
    scenario first created (``replayed``); the same key with another body is 422; a name already used by
    this key and owner is 409. One INSERT: the key's earlier use comes back from it (no look-up first).

    ``facts`` (or ``invalid``, the board's error) are ``checked_board``'s facts when the caller
    validated the board already; else it is validated here."""
    request_hash = _request_hash(data) if idempotency_key is not None else None
    try:
        if invalid is not None:
            raise invalid
        if facts is None:
            facts = validated_facts(data.board, Catalogue(session))
    except (AppError, RulesError):
        # A retry answers what the first request made even when its board no longer validates (the
        # catalogue changed), and another body with a used key is a reuse before it is a bad board.
        if idempotency_key is not None:
            record = repo.get_idempotency(session, api_key_id=api_key_id, key=idempotency_key)
            if record is not None:
                return _replayed(record, request_hash)
        raise
    now = utcnow()
    row = ScenarioRow(
        id=str(uuid.uuid4()),
        api_key_id=api_key_id,
        owner=data.owner if data.owner is not None else NO_OWNER,
        name=data.name,
        description=data.description,
        board=_board_json(data.board),
        version=1,
        created_at=now,
        updated_at=now,
    )
    idem = (idempotency_key, request_hash) if idempotency_key is not None and request_hash else None
    try:
        repo.insert_scenario(session, row=row, permanents=facts, idempotency=idem)
    except IdempotencyKeyTaken as taken:
        # This key was used before, maybe by a concurrent request a moment ago: answer what it created.
        return _replayed(taken.row, request_hash)
    return Created(stored(row), replayed=False)


def _replayed(first: ScenarioRow | Row[Any], request_hash: str | None) -> Created:
    """The answer to a request whose Idempotency-Key created ``first``: it, or 422 for another body."""
    if first.request_hash != request_hash:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was used with a different request body",
            errors=[
                {"loc": ["header", "Idempotency-Key"], "msg": "reused with another body", "type": "reused"}
            ],
        )
    return Created(stored(first), replayed=True)


def get_scenario(session: Session, *, api_key_id: int, scenario_id: str) -> StoredScenario:
    """The key's scenario; another key's, or none, is ``NotFound``."""
    row = repo.read_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    if row is None:
        raise not_found(scenario_id)
    return stored(row)


def list_scenarios(
    session: Session,
    *,
    api_key_id: int,
    name: str | None = None,
    owner: str | None = None,
    limit: int = 100,
    cursor: str | None = None,
) -> ScenarioList:
    """The key's scenarios in creation order, optionally only those of ``owner`` / named ``name``.

    A page holds at most ``limit`` scenarios and about ``LIST_PAGE_MAX_BYTES`` of boards (at least one
    scenario): rows are read ``LIST_CHUNK_ROWS`` at a time and the page ends, with a ``next_cursor``,
    once the boards read add up past the budget (1,000 large scenarios would take 17 GB).
    """
    after = _cursor_position(cursor) if cursor else None
    items: list[StoredScenario] = []
    last: ScenarioRow | None = None
    size = 0
    more = False
    while len(items) < limit:
        chunk = min(LIST_CHUNK_ROWS, limit - len(items))
        rows = repo.list_scenarios(
            session, api_key_id=api_key_id, owner=owner, name=name, after=after, limit=chunk + 1
        )
        for row in rows[:chunk]:
            if items and size >= LIST_PAGE_MAX_BYTES:
                more = True
                break
            size += len(json.dumps(row.board, separators=(",", ":")))
            items.append(stored(row))
            last = row
        else:
            more = len(rows) > chunk
            if more and last is not None:
                after = (last.created_at, last.id)
                continue
        break
    next_cursor = (
        encode_cursor({"c": last.created_at.isoformat(), "i": last.id}) if more and last is not None else None
    )
    return ScenarioList(items, next_cursor)


def _cursor_position(cursor: str) -> tuple[datetime, str]:
    position = decode_cursor(cursor)
    try:
        created = cursor_datetime(position["c"])
        last_id = position["i"]
        if not isinstance(last_id, str):
            raise ValueError("bad cursor")
    except (KeyError, ValueError) as exc:
        raise BadRequest(
            "Invalid cursor: pass back next_cursor from the previous page unchanged.",
            errors=[{"loc": ["query", "cursor"], "msg": "invalid cursor", "type": "invalid_cursor"}],
        ) from exc
    return created, last_id


def replace_scenario(
    session: Session,
    *,
    api_key_id: int,
    scenario_id: str,
    data: ScenarioIn,
    if_match: str | None,
    facts: list[PermanentFacts] | None = None,
) -> StoredScenario:
    """Replace the scenario whole. ``If-Match`` is required (428 without, 412 when stale). ``facts``:
    ``checked_board``'s facts when the caller validated the board already."""
    condition = replace_condition(if_match, scenario_id)
    if facts is None:
        facts = validated_facts(data.board, Catalogue(session))
    row = repo.update_scenario(
        session,
        api_key_id=api_key_id,
        scenario_id=scenario_id,
        expected_version=expected_versions(condition),
        now=utcnow(),
        values={
            "name": data.name,
            "description": data.description,
            "owner": data.owner if data.owner is not None else NO_OWNER,
            "board": _board_json(data.board),
        },
        permanents=facts,
    )
    if row is None:
        raise explain_miss(session, api_key_id=api_key_id, scenario_id=scenario_id)
    return stored(row)


def delete_scenario(session: Session, *, api_key_id: int, scenario_id: str, if_match: str | None) -> None:
    """Delete the scenario; with ``If-Match``, only at that version (412 otherwise)."""
    expected = expected_versions(parse_if_match(if_match, scenario_id))
    if not repo.delete_scenario(
        session, api_key_id=api_key_id, scenario_id=scenario_id, expected_version=expected
    ):
        raise explain_miss(session, api_key_id=api_key_id, scenario_id=scenario_id)
