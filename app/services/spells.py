"""Spell costs: read the request's board and spells, run the CR 601.2f engine, render the answer.

``spell_to_cast`` and ``cost_answer`` are shared with payments and scenarios (a stored board's costs).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import AmbiguousCard, AppError, TooLarge, UnknownCard, app_error_body, from_rules_error
from app.rules.casting.engine import total_cost, ways_to_cast
from app.rules.casting.prepared import PreparedBoard, prepare_board
from app.rules.casting.spell_cost import CastAs, CostResult, CostWarning, OptionalChoice, SpellToCast
from app.rules.errors import RulesError
from app.rules.text.card_registry import RevealAnswer
from app.rules.text.card_registry import heralds_horn_reveal as rules_heralds_horn_reveal
from app.rules.text.characters import CharacterIndex
from app.rules.text.ledger import UnreadSentence
from app.rules.values.board import Board
from app.rules.values.cards import Card
from app.rules.values.costs import ManaCost
from app.schemas.board import BoardIn, CardRef
from app.schemas.spells import (
    CostStepOut,
    NamedCard,
    OptionalCostOut,
    OtherCostOut,
    Spell,
    SpellCostBatchItem,
    SpellCostBatchOut,
    SpellCostBatchRequest,
    SpellCostOut,
    SpellCostRequest,
    WayOut,
)
from app.schemas.warnings import CostWarningOut
from app.services.board_memo import BOARDS
from app.services.boards import build_board, resolve_card
from app.services.catalogue import Catalogue
from app.services.unread_text import unread_for_costs

Loc = tuple[str | int, ...]

# A batch stops computing after this many seconds: later spells answer a too-large problem each (retry
# them in another request), so no batch (250 spells on a huge hostile board) holds a worker for minutes.
BATCH_TIME_BUDGET_S = 3.0
# And once its answers hold this many bytes (a 21 KB batch of costly spells on a board of many
# cost effects answered 10.9 MB, every spell explaining every step): the spells after it answer a
# too-large problem each, to be sent again in another request. 250 ordinary answers take about 0.5 MB.
BATCH_MAX_BYTES = 4 * 1024 * 1024


def character_index() -> CharacterIndex:
    """The bundled character index (ruling:vorthos), loaded once by the characters service."""
    from app.services import characters

    index: CharacterIndex = characters.character_index()
    return index


def _card(ref: object, *, catalogue: Catalogue, loc: Loc) -> Card:
    try:
        return resolve_card(ref, catalogue=catalogue)  # type: ignore[arg-type]
    except (UnknownCard, AmbiguousCard) as exc:
        exc.errors = [{"loc": list(loc), "msg": exc.detail, "type": exc.type_slug}]
        raise
    except RulesError as exc:  # a bad inline card
        raise from_rules_error(exc, loc) from exc


def spell_to_cast(spell: Spell, *, catalogue: Catalogue, loc: Loc = ("body", "spell")) -> SpellToCast:
    """The rules ``SpellToCast`` for a request's ``Spell``: cards resolved, costs parsed."""
    card = _card(spell.card, catalogue=catalogue, loc=(*loc, "card"))
    cast_as = None
    if spell.cast_as is not None:
        chosen = _card(spell.cast_as.card, catalogue=catalogue, loc=(*loc, "cast_as", "card"))
        cast_as = CastAs(chosen, spell.cast_as.via)
    printing = spell.printing
    return SpellToCast(
        card=card,
        face=spell.face,
        x=spell.x,
        y=spell.y,
        z=spell.z,
        alternative_cost=ManaCost.parse(spell.alternative_cost)
        if spell.alternative_cost is not None
        else None,
        additional_costs=tuple(ManaCost.parse(c) for c in spell.additional_costs),
        cast_from=spell.cast_from,
        commander_casts=spell.commander_casts,
        cast_as=cast_as,
        flavor_text=printing.flavor_text if printing is not None else None,
        art_characters=tuple(printing.art_characters) if printing is not None else (),
        targets=tuple(spell.targets),
        method=spell.method,
        optional_costs=tuple(OptionalChoice(o.keyword, o.which, o.times) for o in spell.optional_costs),
        which=spell.which,
        granted_by=spell.granted_by,
        targets_given="targets" in spell.model_fields_set,  # absent: a count of targets warns
        commander_casts_given="commander_casts"
        in spell.model_fields_set,  # absent from the command zone: warned
    )


def compute(
    board: Board | PreparedBoard, caster: str, spell: SpellToCast, *, loc: Loc = ("body", "spell")
) -> CostResult:
    """Run the engine, turning rules errors into the service's problems placed at ``loc``; the result
    carries the ways the card offers from ``cast_from`` with their totals (API.md 1.1 ``ways``)."""
    try:
        prepared = board if isinstance(board, PreparedBoard) else prepare_board(board)  # once for both
        result = total_cost(prepared, caster, spell, characters=character_index())
        if not result.ways:
            refused: list[CostWarning] = []
            ways = ways_to_cast(
                prepared, caster, spell, characters=character_index(), known=result, refused=refused
            )
            result = result.with_ways(ways, tuple(refused))
        return result
    except RulesError as exc:
        field = getattr(exc, "field", None)
        where = (*loc, "cast_as") if spell.cast_as is not None and field is None else loc
        if field in ("face", "which"):
            where = (*loc, field)
        elif isinstance(field, str) and field.startswith("targets."):
            where = (*loc, "targets", int(field.split(".", 1)[1]))
        raise from_rules_error(exc, where) from exc


def cost_answer(
    result: CostResult,
    *,
    rules_edition: str,
    data_version: str,
    unread: Sequence[UnreadSentence] = (),
) -> SpellCostOut:
    """The API answer for an engine result; the unread sentences of the spell and ``unread`` (those of the
    board's permanents) are warnings too (``unread_text``)."""
    card = result.card
    warnings = [
        CostWarningOut(source=w.source, card=w.card, text=w.text, message=w.message, rule=w.rule)
        for w in result.warnings
    ]
    warnings.extend(unread_for_costs(unread, (card, result.face), warnings))
    return SpellCostOut(
        rules_edition=rules_edition,
        data_version=data_version,
        card=NamedCard(name=card.name, oracle_id=card.oracle_id),
        face=result.face.name,
        cast_as=NamedCard(name=result.cast_as.name, oracle_id=result.cast_as.oracle_id)
        if result.cast_as
        else None,
        mana_cost=str(result.mana_cost) if result.mana_cost is not None else None,
        mana_value=result.mana_value,
        mana_value_on_stack=result.mana_value_on_stack,
        total_cost=str(result.total_cost),
        steps=[
            CostStepOut(
                kind=s.kind.value,
                result=str(s.result),
                rule=s.rule,
                source=s.source,
                card=s.card,
                amount=str(s.amount) if s.amount is not None else None,
                applied=s.applied,
                note=s.note,
            )
            for s in result.steps
        ],
        warnings=warnings,
        x_for_etb=result.x_for_etb,
        choices=list(result.choices),
        method=result.method,
        which=result.which,
        granted_by=result.granted_by,
        other_costs=[OtherCostOut(text=o.text, life=o.life) for o in result.other_costs],
        ways=[
            WayOut(
                method=w.method,
                which=w.which,
                granted_by=w.granted_by,
                rule=w.rule,
                optional_costs=[
                    OptionalCostOut(keyword=o.keyword, which=o.which if o.which != 1 else None)
                    for o in w.optional_costs
                ],
                total_cost=str(w.total_cost),
                other_costs=[OtherCostOut(text=o.text, life=o.life) for o in w.other_costs],
                available="unknown" if w.available is None else w.available,
                reason=w.reason if w.available is not True else None,
                needs=list(w.needs) if w.available is None else None,
            )
            for w in result.ways
        ],
    )


def spell_cost(*, request: SpellCostRequest, session: Session, settings: Settings) -> SpellCostOut:
    """``POST /v1/spells/cost``."""
    catalogue = Catalogue(session)
    version = catalogue.data_version
    built = BOARDS.get(request.board, catalogue, version, extra_players=(request.caster,))
    spell = spell_to_cast(request.spell, catalogue=catalogue)
    result = compute(built.prepared, request.caster, spell)
    return cost_answer(
        result, rules_edition=settings.rules_edition, data_version=version, unread=built.unread
    )


def spell_cost_batch(
    *, request: SpellCostBatchRequest, session: Session, settings: Settings
) -> SpellCostBatchOut:
    """``POST /v1/spells/cost/batch``: one board read once, each spell answered or given its own problem."""
    catalogue = Catalogue(session)
    version = catalogue.data_version
    built = BOARDS.get(request.board, catalogue, version, extra_players=(request.caster,))
    prepared = built.prepared
    return SpellCostBatchOut(
        rules_edition=settings.rules_edition,
        data_version=version,
        data=_batch(
            prepared, request.caster, request.spells, catalogue, settings.rules_edition, version, built.unread
        ),
    )


def _batch(
    prepared: PreparedBoard,
    caster: str,
    spells: Sequence[Spell],
    catalogue: Catalogue,
    rules_edition: str,
    version: str,
    unread: Sequence[UnreadSentence] = (),
) -> list[SpellCostBatchItem]:
    items: list[SpellCostBatchItem] = []
    deadline = time.monotonic() + BATCH_TIME_BUDGET_S
    size = 0
    for i, spell_in in enumerate(spells):
        loc: Loc = ("body", "spells", i)
        if time.monotonic() > deadline or size >= BATCH_MAX_BYTES:
            spent = (
                f"its {BATCH_TIME_BUDGET_S:g} s of computation"
                if size < BATCH_MAX_BYTES
                else f"its {BATCH_MAX_BYTES:,} bytes of answers"
            )
            late = TooLarge(
                f"The batch used up {spent} before this spell; send the remaining spells in another request."
            )
            items.append(SpellCostBatchItem(index=i, problem=app_error_body(late)))
            continue
        try:
            spell = spell_to_cast(spell_in, catalogue=catalogue, loc=loc)
            result = compute(prepared, caster, spell, loc=loc)
        except AppError as exc:
            items.append(SpellCostBatchItem(index=i, problem=app_error_body(exc)))
            continue
        answer = cost_answer(result, rules_edition=rules_edition, data_version=version, unread=unread)
        size += len(answer.model_dump_json())
        items.append(SpellCostBatchItem(index=i, result=answer))
    return items


def heralds_horn_reveal(
    *, board_in: BoardIn, horn: str, top_card: CardRef, session: Session
) -> tuple[RevealAnswer, str]:
    """``POST /v1/heralds-horn/reveal``: the answer and the catalogue's data_version."""
    catalogue = Catalogue(session)
    board = build_board(board_in, catalogue=catalogue)
    card = _card(top_card, catalogue=catalogue, loc=("body", "top_card"))
    try:
        answer = rules_heralds_horn_reveal(board, horn, card)
    except RulesError as exc:
        raise from_rules_error(exc, ("body", "horn")) from exc
    return answer, catalogue.data_version
