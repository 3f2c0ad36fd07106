"""A stored scenario changed in place: a permanent's chosen values, a card chosen through a Richard
Garfield, Ph.D. Each is a read-modify-write (a read, then one conditional write), retried when another
writer came in between."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from app.db.base import utcnow
from app.db.repositories import scenarios as repo
from app.db.repositories.scenarios import PermanentFacts
from app.errors import AmbiguousCard, Conflict, NotFound, RulesViolation, UnknownCard, from_rules_error
from app.rules.errors import RulesError
from app.rules.text.card_registry import is_richard
from app.rules.text.characters import validate_character
from app.rules.values.names import fold_name
from app.schemas.board import PermanentIn
from app.schemas.scenarios import ChoiceIn
from app.services.boards import resolve_card, validate_creature_type
from app.services.catalogue import Catalogue
from app.services.scenario_boards import MENTAL_MAGIC_RULE
from app.services.scenario_versions import StoredScenario, not_found, parse_if_match, stale, stored

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
            raise not_found(scenario_id)
        if condition is not None and not condition.any and row.version not in condition.versions:
            raise stale(scenario_id, row.version)
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
            return stored(updated)
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
