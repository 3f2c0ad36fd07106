"""Stored scenarios: create, read, list, replace, delete, set a permanent's choice, record a Mental Magic
choice, and compute a spell's cost on a stored board.

Every board is validated exactly as the compute endpoints validate it (``build_board``) before anything is
stored. Changes are optimistic: the ``ETag`` is ``"<id>-v<version>"`` and every change is a conditional
update on the version (see ``app.db.repositories.scenarios``), so concurrent writers never lose an update:
one wins, the others get 412 (with ``If-Match``) or are applied after it (without). Functions flush, never
commit.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from app.config import Settings
from app.cursors import decode_cursor, encode_cursor
from app.db.base import utcnow
from app.db.models.scenarios import NO_OWNER, ScenarioRow
from app.db.repositories import scenarios as repo
from app.db.repositories.scenarios import IdempotencyKeyTaken, PermanentFacts
from app.errors import (
    AmbiguousCard,
    BadRequest,
    Conflict,
    InputError,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    RulesViolation,
    UnknownCard,
    from_rules_error,
)
from app.rules.board import Board
from app.rules.cost_registry import is_richard
from app.rules.errors import RulesError
from app.rules.names import fold_name
from app.schemas.board import BoardIn, PermanentIn
from app.schemas.scenarios import ChoiceIn, ScenarioCostIn, ScenarioIn
from app.schemas.spells import SpellCostOut
from app.services import spells as spell_service
from app.services.boards import build_board, resolve_card, validate_creature_type
from app.services.catalogue import Catalogue
from app.services.characters import validate_character

MENTAL_MAGIC_RULE = "ruling:richard-garfield-phd"


class IdempotencyKeyReused(InputError):
    type_slug = "idempotency-key-reused"
    title = "Idempotency Key Reused"
    description = (
        "This Idempotency-Key was already used with a different request body; a retry must send the same"
        " body (draft-ietf-httpapi-idempotency-key-header: 422)."
    )


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


@dataclass(frozen=True, slots=True)
class Created:
    scenario: StoredScenario
    replayed: bool  # True: an Idempotency-Key retry answered with the scenario created first


@dataclass(frozen=True, slots=True)
class ScenarioList:
    items: list[StoredScenario]
    next_cursor: str | None


# --- ETags -----------------------------------------------------------------------------------------------


# A listing page's budget: boards' JSON bytes per page (the page ends past it), and rows read at once.
LIST_PAGE_MAX_BYTES = 4 * 1024 * 1024
LIST_CHUNK_ROWS = 20


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


def _stale(scenario_id: str, current: int | None = None) -> PreconditionFailed:
    now = f" (current ETag {etag(scenario_id, current)})" if current is not None else ""
    return PreconditionFailed(
        f"scenario {scenario_id!r} has changed since that ETag{now}: fetch it and retry"
    )


def _not_found(scenario_id: str) -> NotFound:
    return NotFound(f"no scenario {scenario_id!r}")


# --- converting ------------------------------------------------------------------------------------------


def _stored(row: ScenarioRow | Row[Any]) -> StoredScenario:
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


def _board_json(board_in: BoardIn) -> dict[str, Any]:
    return board_in.model_dump(mode="json", exclude_defaults=False)


def _validated_facts(board_in: BoardIn, catalogue: Catalogue) -> list[PermanentFacts]:
    """Validate the board as the compute endpoints do (every problem at once, 422), plus what storing
    needs: no card twice in one Richard's ``played_as`` (ruling: each card can be chosen only once)."""
    board = build_board(board_in, catalogue=catalogue)
    errors: list[dict[str, Any]] = []
    facts: list[PermanentFacts] = []
    for i, perm in enumerate(board.permanents):
        played: dict[str, str] = {}
        for j, name in enumerate(perm.played_as):
            folded = fold_name(name)
            if folded in played:
                errors.append(
                    {
                        "loc": ["body", "board", "permanents", i, "played_as", j],
                        "msg": f"permanent {perm.id!r}: {name!r} is already in played_as"
                        " (each card can be chosen only once)",
                        "type": "duplicate_played_as",
                    }
                )
            played[folded] = name
        c = perm.chosen
        choices = tuple(
            (kind, value)
            for kind, value in (
                ("creature_type", c.creature_type),
                ("character", c.character),
                ("color", c.color),
                ("card_name", c.card_name),
            )
            if value is not None
        )
        facts.append(
            PermanentFacts(
                permanent_id=perm.id,
                card_name=perm.card.name,
                oracle_id=perm.card.oracle_id,
                controller=perm.controller,
                choices=choices,
                played=tuple(played.items()),
            )
        )
    if errors:
        raise RulesViolation(
            f"the board has {len(errors)} problem(s): {errors[0]['msg']}",
            errors=errors,
            extra={"rule": MENTAL_MAGIC_RULE},
        )
    return facts


def _request_hash(data: ScenarioIn) -> str:
    canonical = json.dumps(data.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# --- use cases -------------------------------------------------------------------------------------------


def create_scenario(
    session: Session, *, api_key_id: int, data: ScenarioIn, idempotency_key: str | None = None
) -> Created:
    """Store a new scenario (version 1). A retry with the same ``idempotency_key`` and body answers the
    scenario first created (``replayed``); the same key with another body is 422; a name already used by
    this key and owner is 409."""
    request_hash = _request_hash(data) if idempotency_key is not None else None
    if idempotency_key is not None:
        replay = _replay(session, api_key_id=api_key_id, key=idempotency_key, request_hash=request_hash)
        if replay is not None:
            return replay
    facts = _validated_facts(data.board, Catalogue(session))
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
    except IdempotencyKeyTaken:
        # A concurrent request with the same key won the race: answer what it created.
        assert idempotency_key is not None and request_hash is not None
        replay = _replay(session, api_key_id=api_key_id, key=idempotency_key, request_hash=request_hash)
        if replay is None:  # pragma: no cover - the key was seen a moment ago
            raise Conflict("a request with this Idempotency-Key is in progress; retry") from None
        return replay
    return Created(_stored(row), replayed=False)


def _replay(session: Session, *, api_key_id: int, key: str, request_hash: str | None) -> Created | None:
    record = repo.get_idempotency(session, api_key_id=api_key_id, key=key)
    if record is None:
        return None
    if record.request_hash != request_hash:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was used with a different request body",
            errors=[
                {"loc": ["header", "Idempotency-Key"], "msg": "reused with another body", "type": "reused"}
            ],
        )
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=record.scenario_id)
    if row is None:  # pragma: no cover - the record goes with its scenario (ON DELETE CASCADE)
        return None
    return Created(_stored(row), replayed=True)


def get_scenario(session: Session, *, api_key_id: int, scenario_id: str) -> StoredScenario:
    """The key's scenario; another key's, or none, is ``NotFound``."""
    row = repo.read_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    if row is None:
        raise _not_found(scenario_id)
    return _stored(row)


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
    once the boards read add up past the budget (issue 15: 1,000 large scenarios would take 17 GB).
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
            items.append(_stored(row))
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
        created = datetime.fromisoformat(str(position["c"]))
        last_id = position["i"]
        if created.tzinfo is None or not isinstance(last_id, str):
            raise ValueError("bad cursor")
    except (KeyError, ValueError) as exc:
        raise BadRequest(
            "Invalid cursor: pass back next_cursor from the previous page unchanged.",
            errors=[{"loc": ["query", "cursor"], "msg": "invalid cursor", "type": "invalid_cursor"}],
        ) from exc
    return created, last_id


def _expected_version(
    session: Session, *, api_key_id: int, scenario_id: str, condition: IfMatch | None
) -> int | None:
    """The version a conditional change must find (None: any). A condition no version can meet is 412
    (404 when the scenario is not the key's)."""
    if condition is None or condition.any:
        return None
    if len(condition.versions) == 1:
        return next(iter(condition.versions))
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    if row is None:
        raise _not_found(scenario_id)
    if row.version not in condition.versions:
        raise _stale(scenario_id, row.version)
    return row.version


def _explain_miss(session: Session, *, api_key_id: int, scenario_id: str) -> NotFound | PreconditionFailed:
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    return _not_found(scenario_id) if row is None else _stale(scenario_id, row.version)


def replace_scenario(
    session: Session, *, api_key_id: int, scenario_id: str, data: ScenarioIn, if_match: str | None
) -> StoredScenario:
    """Replace the scenario whole. ``If-Match`` is required (428 without, 412 when stale)."""
    condition = parse_if_match(if_match, scenario_id)
    if condition is None:
        raise PreconditionRequired("PUT needs If-Match with the scenario's current ETag (or *)")
    expected = _expected_version(session, api_key_id=api_key_id, scenario_id=scenario_id, condition=condition)
    facts = _validated_facts(data.board, Catalogue(session))
    row = repo.update_scenario(
        session,
        api_key_id=api_key_id,
        scenario_id=scenario_id,
        expected_version=expected,
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
        raise _explain_miss(session, api_key_id=api_key_id, scenario_id=scenario_id)
    return _stored(row)


def delete_scenario(session: Session, *, api_key_id: int, scenario_id: str, if_match: str | None) -> None:
    """Delete the scenario; with ``If-Match``, only at that version (412 otherwise)."""
    condition = parse_if_match(if_match, scenario_id)
    expected = _expected_version(session, api_key_id=api_key_id, scenario_id=scenario_id, condition=condition)
    if not repo.delete_scenario(
        session, api_key_id=api_key_id, scenario_id=scenario_id, expected_version=expected
    ):
        raise _explain_miss(session, api_key_id=api_key_id, scenario_id=scenario_id)


def _locked(session: Session, *, api_key_id: int, scenario_id: str, if_match: str | None) -> ScenarioRow:
    """The scenario's row, locked for a read-modify-write, after checking ``If-Match`` against it."""
    condition = parse_if_match(if_match, scenario_id)
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id, for_update=True)
    if row is None:
        raise _not_found(scenario_id)
    if condition is not None and not condition.any and row.version not in condition.versions:
        raise _stale(scenario_id, row.version)
    return row


def _find_permanent(board: dict[str, Any], scenario_id: str, permanent_id: str) -> tuple[int, dict[str, Any]]:
    for i, perm in enumerate(board.get("permanents", [])):
        if perm.get("id") == permanent_id:
            return i, perm
    raise NotFound(f"scenario {scenario_id!r} has no permanent {permanent_id!r}")


def _save_board(session: Session, row: ScenarioRow, board: dict[str, Any], api_key_id: int) -> StoredScenario:
    updated = repo.update_scenario(
        session,
        api_key_id=api_key_id,
        scenario_id=row.id,
        expected_version=row.version,  # the row is locked: this holds unless the lock was not taken
        now=utcnow(),
        values={"board": board},
    )
    if updated is None:  # pragma: no cover - only without a row lock
        raise _stale(row.id)
    return _stored(updated)


def set_choice(
    session: Session,
    *,
    api_key_id: int,
    scenario_id: str,
    permanent_id: str,
    choice: ChoiceIn,
    if_match: str | None = None,
) -> StoredScenario:
    """Replace a permanent's chosen values after validating them: a creature type must be one existing
    type (CR 205.3m; not a card type, not two types: Herald's Horn rulings), a character one of the index
    (ruling:vorthos). ``If-Match`` optional."""
    try:
        creature_type = validate_creature_type(choice.creature_type) if choice.creature_type else None
    except RulesError as exc:
        raise from_rules_error(exc, ("body", "creature_type")) from exc
    try:
        character = validate_character(choice.character) if choice.character else None
    except RulesError as exc:
        raise from_rules_error(exc, ("body", "character")) from exc
    values = {
        "creature_type": creature_type,
        "character": character,
        "color": choice.color,
        "card_name": choice.card_name,
    }
    row = _locked(session, api_key_id=api_key_id, scenario_id=scenario_id, if_match=if_match)
    board = json.loads(json.dumps(row.board))  # a copy: the JSON column must see a new value
    i, perm = _find_permanent(board, scenario_id, permanent_id)
    perm["chosen"] = values
    board["permanents"][i] = perm
    stored = _save_board(session, row, board, api_key_id)
    repo.replace_choices(
        session,
        scenario_id=scenario_id,
        permanent_id=permanent_id,
        choices=[(k, v) for k, v in values.items() if v is not None],
    )
    return stored


def add_played_as(
    session: Session,
    *,
    api_key_id: int,
    scenario_id: str,
    permanent_id: str,
    card: str,
    if_match: str | None = None,
) -> StoredScenario:
    """Record that ``card`` was chosen through the Richard Garfield, Ph.D. ``permanent_id``
    (ruling:richard-garfield-phd: "You can't choose the same card twice"): 409 when that Richard already
    chose it, 422 when the permanent is not a Richard. The name is stored as the catalogue spells it."""
    catalogue = Catalogue(session)
    try:
        chosen = catalogue.by_name(card)
    except (UnknownCard, AmbiguousCard) as exc:
        exc.errors = [{"loc": ["body", "card"], "msg": exc.detail, "type": exc.type_slug}]
        raise
    row = _locked(session, api_key_id=api_key_id, scenario_id=scenario_id, if_match=if_match)
    board = json.loads(json.dumps(row.board))
    i, perm = _find_permanent(board, scenario_id, permanent_id)
    p_in = PermanentIn.model_validate(perm)
    richard_card = resolve_card(p_in.card, catalogue=catalogue)
    face = richard_card.face(p_in.face) if p_in.face is not None else richard_card.front
    if not is_richard(face):
        raise RulesViolation(
            f"permanent {permanent_id!r} is {face.name}, not Richard Garfield, Ph.D.: nothing is chosen"
            " through it",
            errors=[
                {"loc": ["path", "permanent_id"], "msg": "not a Richard Garfield, Ph.D.", "type": "rules"}
            ],
            extra={"rule": MENTAL_MAGIC_RULE},
        )
    already = [str(n) for n in perm.get("played_as") or []]
    chosen_names = {fold_name(chosen.name), *(fold_name(f.name) for f in chosen.faces)}
    if any(fold_name(n) in chosen_names for n in already):
        raise Conflict(f"{chosen.name!r} was already chosen through {permanent_id!r} ({MENTAL_MAGIC_RULE})")
    perm["played_as"] = [*already, chosen.name]
    board["permanents"][i] = perm
    stored = _save_board(session, row, board, api_key_id)
    repo.add_played_card(
        session,
        scenario_id=scenario_id,
        permanent_id=permanent_id,
        name_folded=fold_name(chosen.name),
        name=chosen.name,
        position=len(already),
    )
    return stored


def scenario_spell_cost(
    session: Session, *, api_key_id: int, scenario_id: str, request: ScenarioCostIn, settings: Settings
) -> SpellCostOut:
    """The ``POST /v1/spells/cost`` answer for ``request.spell`` on the stored board."""
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    if row is None:
        raise _not_found(scenario_id)
    catalogue = Catalogue(session)
    board = _stored_board(row, catalogue, extra_players=(request.caster,))
    spell = spell_service.spell_to_cast(request.spell, catalogue=catalogue)
    result = spell_service.compute(board, request.caster, spell)
    return spell_service.cost_answer(
        result, rules_edition=settings.rules_edition, data_version=catalogue.data_version
    )


def _stored_board(row: ScenarioRow, catalogue: Catalogue, *, extra_players: Sequence[str]) -> Board:
    """The rules board of a stored scenario (validated again: the catalogue may have changed since)."""
    try:
        board_in = BoardIn.model_validate(row.board)
    except ValueError as exc:  # pragma: no cover - stored boards come from BoardIn
        raise InputError(f"scenario {row.id!r} holds a board this version cannot read: {exc}") from exc
    return build_board(board_in, catalogue=catalogue, loc=("scenario", "board"), extra_players=extra_players)
