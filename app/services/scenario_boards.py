"""A scenario's board checked before it is stored (the facts its rows hold), and computed on once stored:
the answers that carry ``rules_edition`` and ``data_version``, a spell's cost on the stored board."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.db.models.scenarios import ScenarioRow
from app.db.repositories import scenarios as repo
from app.db.repositories.scenarios import PermanentFacts
from app.errors import InputError, RulesViolation
from app.rules.text.ledger import board_unread
from app.rules.values.board import Board
from app.rules.values.names import fold_name
from app.schemas.board import BoardIn
from app.schemas.scenarios import ScenarioComputedOut, ScenarioCostIn
from app.schemas.spells import SpellCostOut
from app.services import spells as spell_service
from app.services.boards import build_board
from app.services.catalogue import Catalogue
from app.services.scenario_versions import StoredScenario, not_found

MENTAL_MAGIC_RULE = "ruling:richard-garfield-phd"


def validated_facts(board_in: BoardIn, catalogue: Catalogue) -> list[PermanentFacts]:
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
    return CheckedBoard(validated_facts(board_in, catalogue), catalogue.data_version)


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


def scenario_spell_cost(
    session: Session, *, api_key_id: int, scenario_id: str, request: ScenarioCostIn, settings: Settings
) -> SpellCostOut:
    """The ``POST /v1/spells/cost`` answer for ``request.spell`` on the stored board."""
    row = repo.get_scenario(session, api_key_id=api_key_id, scenario_id=scenario_id)
    if row is None:
        raise not_found(scenario_id)
    catalogue = Catalogue(session)
    board = _stored_board(row, catalogue, extra_players=(request.caster,))
    spell = spell_service.spell_to_cast(request.spell, catalogue=catalogue)
    result = spell_service.compute(board, request.caster, spell)
    return spell_service.cost_answer(
        result,
        rules_edition=settings.rules_edition,
        data_version=catalogue.data_version,
        unread=board_unread(board),
    )


def _stored_board(row: ScenarioRow, catalogue: Catalogue, *, extra_players: Sequence[str]) -> Board:
    """The rules board of a stored scenario (validated again: the catalogue may have changed since)."""
    try:
        board_in = BoardIn.model_validate(row.board)
    except ValueError as exc:  # pragma: no cover - stored boards come from BoardIn
        raise InputError(f"scenario {row.id!r} holds a board this version cannot read: {exc}") from exc
    return build_board(board_in, catalogue=catalogue, loc=("scenario", "board"), extra_players=extra_players)
