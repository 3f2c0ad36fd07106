"""The total cost of a spell (CR 601.2f), step by step.

Start from the mana cost or an alternative cost (CR 118.9; X substituted, 0 when neither it nor the
alternative cost has X, 107.3b), add additional costs (118.8) and increases (commander tax, 903.8), apply
reductions (118.7) in the cheapest order with the cheapest halves of hybrid symbols (118.7e, 601.2b), then
effects on the total (Trinisphere); never below {0} (118.7, 601.2f).

Use ``prepare_board`` once per board when costing many spells (a decklist): it reads every permanent's
cost effects from the per-text cache a single time.

The stages live in modules of their own (DEVELOPERS.md, casting/): ``base`` (characteristics, base and
added costs), ``offered`` (ways to cast), ``adjustments`` (increases, effects on the total),
``reductions`` (cheapest order and halves), ``conditions`` and ``counts`` (what a board effect covers and
counts), ``unstated`` (the warnings for facts not given). This module runs them in order and re-exports
their public names.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from app.rules.casting.adjustments import (
    cost_increases,
    cost_reductions,
    effects_on_total,
    granted_keywords,
    harmonize,
    keyword_cost_changes,
    own_effects,
)
from app.rules.casting.availability import AVAILABLE, unknown_message, way_availability
from app.rules.casting.base import (
    additional_costs,
    base_cost,
    cast_characteristics,
    cast_face,
    commander_tax,
    mana_value_of,
    mandatory_costs,
    optional_costs,
)
from app.rules.casting.offered import (
    chosen_way,
    granted_optional,
    has_aftermath,
    offered_ways,
    way_characteristics,
)
from app.rules.casting.prepared import PreparedBoard, prepare_board
from app.rules.casting.spell_cost import (
    CostResult,
    CostRun,
    CostWarning,
    Judged,
    OptionalChoice,
    SpellContext,
    SpellToCast,
    WayTotal,
)
from app.rules.effects.cost_effects import CostEffect, MinimumTotal
from app.rules.effects.ways import CardWays, OptionalCost, Way
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.text.additional_costs import modal_keyword
from app.rules.text.characters import CharacterIndex
from app.rules.text.reading import read_face
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost

_NO_CHARACTERS: Final = CharacterIndex(())


def ways_to_cast(
    board: Board | PreparedBoard,
    caster: str,
    spell: SpellToCast,
    *,
    characters: CharacterIndex | None = None,
    known: CostResult | None = None,
    refused: list[CostWarning] | None = None,
) -> tuple[WayTotal, ...]:
    """Each way to cast the card from ``cast_from`` on this board (``offered_ways``: the normal way where it
    applies, its keywords, the alternative costs in its text, the ways permanents grant), alone and with
    each optional cost it offers, and its total (CR 601.2b, 601.2f). An alternative cost is one at a time
    (118.9a): each way is listed alone; optional costs combine with it.

    ``known``: ``total_cost`` of ``spell`` itself on this board; when ``spell`` is cast the normal way with
    no optional or alternative cost, the normal way's total is its total (not computed again). ``refused``
    receives a warning for each way the text or the board offers that this board does not allow (a
    condition it does not meet), with the rule: nothing is left out unsaid."""
    plain = _plain(known, spell)
    prepared = board if isinstance(board, PreparedBoard) else prepare_board(board)
    face = cast_face(spell.card, spell.face, spell.cast_from)[0] if spell.cast_as is None else None
    if face is None:
        return ()
    if has_aftermath(face) and spell.cast_from != "graveyard":
        return ()
    given = tuple(opt.keyword for _s, _p, opt in granted_optional(prepared, caster, face, spell.card))
    options = _option_sets(read_face(face).ways, given)
    out: list[WayTotal] = []
    # Whether and by how much each board effect applies depends on the spell (its face, mana value, zone,
    # optional costs, X), not on the way: it is worked out once per such spell for all the ways (the
    # answer's warnings come from the spell's own computation, not from these)
    judged: _JudgedBySpell = {}
    board_state = prepared.board
    for way in offered_ways(prepared, caster, spell.cast_from, face, spell.card):
        # CR 601.2b: whether the way is available on the stated board; one that is not is listed with its
        # total as if it were, and why not (API 1.3); one not known is listed with what would decide it
        found = AVAILABLE if way is None else way_availability(board_state, caster, way, face.name)
        if way is not None and found.available is None and refused is not None:
            refused.append(CostWarning(way.granted_by, face.name, way.text, unknown_message(way, found)))
        for chosen in options:
            if known is not None and plain and way is None and not chosen:
                out.append(WayTotal("normal", chosen, known.total_cost, other_costs=known.other_costs))
                continue
            variant = _variant(spell, way, chosen, assumed=found.available is not True)
            try:
                result = total_cost(prepared, caster, variant, characters=characters, judged=judged)
            except (IllegalError, InvalidChoiceError) as exc:
                if refused is not None and not chosen and way is not None:
                    refused.append(_refusal(way, face.name, exc))
                continue
            rule = "601.2f" if way is None else way.rule
            out.append(
                WayTotal(
                    variant.method or "normal",
                    chosen,
                    result.total_cost,
                    variant.which,
                    variant.granted_by,
                    rule,
                    result.other_costs,
                    found.available,
                    found.reason,
                    found.needs,
                )
            )
    return tuple(out)


_JudgedBySpell = dict[tuple[object, ...], dict[tuple[CostEffect | MinimumTotal, str | None], Judged]]


def _plain(known: CostResult | None, spell: SpellToCast) -> bool:
    """Whether ``known`` is the normal way's total with no optional cost: the spell itself cast normally."""
    return (
        known is not None
        and known.method == "normal"
        and known.granted_by is None
        and spell.method in (None, "normal")
        and not spell.optional_costs
        and spell.alternative_cost is None
    )


def _option_sets(own: CardWays, granted: tuple[str, ...] = ()) -> list[tuple[OptionalChoice, ...]]:
    """No optional cost, then each optional cost the card offers, one of its costs at a time (CR 601.2b),
    then each that a permanent gives it (``granted``, CR 613.1f); a spree or tiered spell is cast with at
    least one mode chosen (702.172a, 702.183a): never bare."""
    options: list[tuple[OptionalChoice, ...]] = [] if modal_keyword(own) is not None else [()]
    for opt in own.optional:
        options.extend((OptionalChoice(opt.keyword, which),) for which in range(1, len(opt.costs) + 1))
    mine = {opt.keyword for opt in own.optional}
    options.extend((OptionalChoice(kw),) for kw in dict.fromkeys(granted) if kw not in mine)
    return options


def _granted_optional(
    prepared: PreparedBoard, caster: str, spell: SpellToCast, face: Face
) -> tuple[tuple[str, str, OptionalCost, bool], ...]:
    """The optional costs permanents give the spell (CR 613.1f), as ``base.optional_costs`` takes them: a
    grant to the first such spell each turn is certain only when the caster is stated to have cast no
    spell this turn (else it is warned about)."""
    if not spell.optional_costs or spell.cast_as is not None:
        return ()
    turn = prepared.board.player(caster).this_turn
    first = turn.knows("spells_cast") and turn.spells_cast == 0
    return tuple(
        (source.id, source.card.name, opt, perm.once_per_turn and not first)
        for source, perm, opt in granted_optional(prepared, caster, face, spell.card)
    )


def _variant(
    spell: SpellToCast, way: Way | None, chosen: tuple[OptionalChoice, ...], *, assumed: bool = False
) -> SpellToCast:
    """``spell`` cast by ``way`` with the optional costs ``chosen`` and no alternative cost (CR 118.9a);
    ``assumed``: costed as if the way's condition held (its availability is said beside its total)."""
    return replace(
        spell,
        method="normal" if way is None else way.keyword,
        which=None if way is None else way.which,
        granted_by=None if way is None else way.granted_by,
        optional_costs=chosen,
        alternative_cost=None,
        condition_assumed=assumed,
    )


def _refusal(way: Way, name: str, exc: IllegalError | InvalidChoiceError) -> CostWarning:
    """Nothing silent: a way offered that this board does not allow, with the rule that refuses it."""
    rule = getattr(exc, "rule", None) or way.rule
    message = f"{way.keyword} is not available on this board: {exc} (CR {rule})"
    return CostWarning(way.granted_by, name, way.text, message)


def total_cost(
    board: Board | PreparedBoard,
    caster: str,
    spell: SpellToCast,
    *,
    characters: CharacterIndex | None = None,
    judged: dict[tuple[object, ...], dict[tuple[CostEffect | MinimumTotal, str | None], Judged]]
    | None = None,
) -> CostResult:
    """The total cost of ``spell`` cast by ``caster`` on ``board`` (CR 601.2f), with every step explained.

    The stages of 601.2f in order: ``base_cost`` (mana cost or alternative cost), ``additional_costs``,
    increases (``commander_tax``, ``cost_increases``), ``cost_reductions``, ``effects_on_total``.
    Raises ``InvalidChoiceError`` for a face the card does not have (or a split card with no half chosen),
    ``IllegalError`` for what cannot be cast (a land, 305.1; no mana cost and no alternative cost, 118.6;
    an impossible ``cast_as``, ruling:richard-garfield-phd).
    """
    prepared = board if isinstance(board, PreparedBoard) else prepare_board(board)
    run = CostRun(ManaCost.zero(), [], list(prepared.warnings), [])
    chars = cast_characteristics(prepared.board, caster, spell, run.choices)
    way = chosen_way(prepared, caster, spell, chars, run)
    chars = way_characteristics(chars, way, spell.card)
    v = base_cost(spell, chars, run, way)
    for unread in read_face(chars.face).ways.not_read:  # nothing silent: a casting line not read is said
        run.warnings.append(
            CostWarning(
                None, chars.face.name, unread.text, f"not understood, given no effect: {unread.reason}"
            )
        )
    if way is not None and way.x_at_least_one and v.x == 0:  # the card's own restriction (601.2b)
        raise IllegalError(f"{chars.face.name}: X can't be 0 when cast by its {way.keyword}", rule="601.2b")
    additional_costs(spell, v, run)
    optional_costs(spell, chars.face, v, run, _granted_optional(prepared, caster, spell, chars.face))
    mandatory_costs(chars.face, v, run)
    commander_tax(spell, run)

    mv_on_stack = mana_value_of(chars.mv_cost, v.x, v.y, v.z, on_stack=True)
    ctx = SpellContext(
        prepared.board, caster, spell, chars.face, mv_on_stack, characters or _NO_CHARACTERS, run.warnings
    )
    if judged is not None:  # the ways of one spell share what each effect does to the same spell
        spell_key = (
            id(chars.face),
            mv_on_stack,
            spell.cast_from,
            spell.optional_costs,
            spell.x,
            spell.y,
            spell.z,
        )
        ctx.judged = judged.setdefault(spell_key, {})
    candidates: list[tuple[Permanent | None, CostEffect | MinimumTotal]] = [
        (s.permanent, s.effect) for s in prepared.sources
    ]
    candidates.extend(own_effects(chars.face, run))
    if way is not None and way.reduction is not None:  # "costs {X} less to cast this way" (CR 601.2f)
        candidates.append((None, way.reduction))
    if way is not None and way.keyword == "harmonize":
        candidates.extend(harmonize(prepared.board, caster, chars.face.name, run))
    if spell.optional_costs:
        candidates.extend(keyword_cost_changes(prepared, spell, chars.face))
    reds, totals = cost_increases(ctx, candidates, run)
    cost_reductions(reds, run)
    effects_on_total(totals, run)
    granted = granted_keywords(ctx, prepared.grants, run)
    return CostResult(
        card=spell.card,
        face=chars.face,
        cast_as=chars.cast_as,
        mana_cost=chars.mana_cost,
        mana_value=mana_value_of(chars.mv_cost, 0, 0, 0, on_stack=False),
        mana_value_on_stack=mv_on_stack,
        total_cost=run.current,
        steps=tuple(run.steps),
        warnings=tuple(run.warnings),
        x_for_etb=v.x if v.chooses_x else 0,
        choices=tuple(run.choices),
        method=way.keyword if way is not None else "normal",
        other_costs=tuple(run.other_costs),
        granted=granted,
        which=way.which if way is not None else None,
        granted_by=way.granted_by if way is not None else None,
        way_rule=way.rule if way is not None else "601.2f",
    )


__all__ = ["total_cost", "ways_to_cast"]
