"""Stored scenarios: create, read, list, replace, delete, set a permanent's choice, record a Mental Magic
choice, and compute a spell's cost on a stored board.

Every board is validated exactly as the compute endpoints validate it (``build_board``) before anything is
stored. Changes are optimistic: the ``ETag`` is ``"<id>-v<version>"`` and every change is a conditional
update on the version (see ``app.db.repositories.scenarios``), so concurrent writers never lose an update:
one wins, the others get 412 (with ``If-Match``) or are applied after it (without: a read-modify-write
that lost the race reads the row again and retries). Each write is one statement (issue 14: at most 3
round trips). Functions flush, never commit.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from app.config import Settings
from app.cursors import cursor_datetime, decode_cursor, encode_cursor
from app.db.base import utcnow
from app.db.models.scenarios import NO_OWNER, ScenarioRow
from app.db.repositories import scenarios as repo
from app.db.repositories.scenarios import IdempotencyKeyTaken, PermanentFacts
from app.errors import (
    AmbiguousCard,
    AppError,
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
from app.rules.casting.cost_registry import is_richard
from app.rules.errors import RulesError
from app.rules.values.board import Board
from app.rules.values.names import fold_name
from app.schemas.board import BoardIn, PermanentIn
from app.schemas.scenarios import ChoiceIn, ScenarioComputedOut, ScenarioCostIn, ScenarioIn
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


BoardFacts = list[PermanentFacts]
"""What a valid board stores beside it (``checked_board``), handed from the validation to the write."""


@dataclass(frozen=True, slots=True)
class CheckedBoard:
    """A valid board's stored facts and the version of the catalogue that validated them."""

    facts: BoardFacts
    data_version: str


def checked_board(session: Session, board_in: BoardIn) -> CheckedBoard:
    """The stored facts of a valid board (a 422 for an invalid one), read with ``session``, and the catalogue
    version they were read from (the answer's ``data_version``): routes compute them before beginning the
    write, so that no write lock is held while names are resolved."""
    catalogue = Catalogue(session)
    return CheckedBoard(_validated_facts(board_in, catalogue), catalogue.data_version)


def catalogue_version(session: Session) -> str:
    """The catalogue's ``data_version`` as ``session`` sees it."""
    return Catalogue(session).data_version


def computed_answer(
    scenario: StoredScenario, *, rules_edition: str, data_version: str
) -> ScenarioComputedOut:
    """The answer of an operation that computed on the scenario's board (API.md: every computing answer
    carries ``rules_edition`` and ``data_version``)."""
    return ScenarioComputedOut.model_validate(
        {**scenario.fields(), "rules_edition": rules_edition, "data_version": data_version}
    )


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
            facts = _validated_facts(data.board, Catalogue(session))
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
    return Created(_stored(row), replayed=False)


def _replayed(first: ScenarioRow | Row[Any], request_hash: str | None) -> Created:
    """The answer to a request whose Idempotency-Key created ``first``: it, or 422 for another body."""
    if first.request_hash != request_hash:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was used with a different request body",
            errors=[
                {"loc": ["header", "Idempotency-Key"], "msg": "reused with another body", "type": "reused"}
            ],
        )
    return Created(_stored(first), replayed=True)


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


def _expected_versions(condition: IfMatch | None) -> Collection[int] | None:
    """The versions a conditional change must find (None: any); none (a tag of another scenario, a weak
    tag) is a miss, explained by ``_explain_miss``."""
    if condition is None or condition.any:
        return None
    return condition.versions


def _explain_miss(session: Session, *, api_key_id: int, scenario_id: str) -> NotFound | PreconditionFailed:
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    return _not_found(scenario_id) if row is None else _stale(scenario_id, row.version)


def replace_condition(if_match: str | None, scenario_id: str) -> IfMatch:
    """A PUT's ``If-Match``: 428 without one (checked before the board is validated)."""
    condition = parse_if_match(if_match, scenario_id)
    if condition is None:
        raise PreconditionRequired("PUT needs If-Match with the scenario's current ETag (or *)")
    return condition


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
        facts = _validated_facts(data.board, Catalogue(session))
    row = repo.update_scenario(
        session,
        api_key_id=api_key_id,
        scenario_id=scenario_id,
        expected_version=_expected_versions(condition),
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
    expected = _expected_versions(parse_if_match(if_match, scenario_id))
    if not repo.delete_scenario(
        session, api_key_id=api_key_id, scenario_id=scenario_id, expected_version=expected
    ):
        raise _explain_miss(session, api_key_id=api_key_id, scenario_id=scenario_id)


CHANGE_ATTEMPTS = 64
"""Reads and conditional writes a read-modify-write tries before answering 409: each lost race is another
writer's success, so only a scenario changed this many times during one request gets there."""

_Change = Callable[[dict[str, Any], list[PermanentFacts]], None]


def _change_board(
    session: Session, *, api_key_id: int, scenario_id: str, if_match: str | None, change: _Change
) -> StoredScenario:
    """Read the scenario, let ``change`` edit a copy of its board and its facts in place, and write them
    back with ``UPDATE ... WHERE version = <the version read>``: a read and one write, each its own
    transaction in a statement session (2 round trips; no lock is held between them). When another
    writer came in between, nothing was written: read again and redo (``If-Match`` then answers 412)."""
    condition = parse_if_match(if_match, scenario_id)
    for _ in range(CHANGE_ATTEMPTS):
        row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
        if row is None:
            raise _not_found(scenario_id)
        if condition is not None and not condition.any and row.version not in condition.versions:
            raise _stale(scenario_id, row.version)
        board = json.loads(json.dumps(row.board))  # a copy: the JSON column must see a new value
        facts = repo.facts_of(row)
        change(board, facts)
        updated = repo.update_scenario(
            session,
            api_key_id=api_key_id,
            scenario_id=scenario_id,
            expected_version=row.version,
            now=utcnow(),
            values={"board": board},
            permanents=facts,
        )
        if updated is not None:
            return _stored(updated)
    raise Conflict(f"scenario {scenario_id!r} kept changing during this request: retry")


def _find_permanent(board: dict[str, Any], scenario_id: str, permanent_id: str) -> tuple[int, dict[str, Any]]:
    for i, perm in enumerate(board.get("permanents", [])):
        if perm.get("id") == permanent_id:
            return i, perm
    raise NotFound(f"scenario {scenario_id!r} has no permanent {permanent_id!r}")


def _edit_facts(
    facts: list[PermanentFacts], permanent_id: str, edit: Callable[[PermanentFacts], PermanentFacts]
) -> None:
    """Replace the facts of ``permanent_id`` by ``edit`` of them (in place in ``facts``)."""
    for i, fact in enumerate(facts):
        if fact.permanent_id == permanent_id:
            facts[i] = edit(fact)
            return
    raise AssertionError(f"facts lack the board's permanent {permanent_id!r}")  # pragma: no cover


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

    choices = tuple((k, v) for k, v in values.items() if v is not None)

    def change(board: dict[str, Any], facts: list[PermanentFacts]) -> None:
        i, perm = _find_permanent(board, scenario_id, permanent_id)
        board["permanents"][i] = {**perm, "chosen": values}
        _edit_facts(facts, permanent_id, lambda fact: replace(fact, choices=choices))

    return _change_board(
        session, api_key_id=api_key_id, scenario_id=scenario_id, if_match=if_match, change=change
    )


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
    chosen_names = {fold_name(chosen.name), *(fold_name(f.name) for f in chosen.faces)}

    played = (fold_name(chosen.name), chosen.name)

    def change(board: dict[str, Any], facts: list[PermanentFacts]) -> None:
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
        if any(fold_name(n) in chosen_names for n in already):
            raise Conflict(
                f"{chosen.name!r} was already chosen through {permanent_id!r} ({MENTAL_MAGIC_RULE})"
            )
        board["permanents"][i] = {**perm, "played_as": [*already, chosen.name]}
        _edit_facts(facts, permanent_id, lambda fact: replace(fact, played=(*fact.played, played)))

    # The rows' key (a card once per Richard) holds too: a duplicate fails the UPDATE, a 409.
    return _change_board(
        session, api_key_id=api_key_id, scenario_id=scenario_id, if_match=if_match, change=change
    )


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
