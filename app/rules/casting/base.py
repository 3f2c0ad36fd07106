"""The first stages of CR 601.2f: the characteristics of what is cast (601.2a-b, 709.3, 712.8c, Mental Magic),
the mana cost or an alternative cost with X, Y, Z (118.9, 107.3), then the costs added to it: additional
costs (118.8), optional additional costs paid (601.2b), the text's mandatory ones, commander tax (903.8).
"""

from __future__ import annotations

from app.rules.casting.counts import times
from app.rules.casting.mental_magic import verify_cast_as
from app.rules.casting.offered import way_mana
from app.rules.casting.spell_cost import (
    CastCharacteristics,
    CostRun,
    CostStep,
    CostWarning,
    SpellToCast,
    StepKind,
    Variables,
)
from app.rules.effects.keywords import keyword_rule
from app.rules.effects.other_costs import OtherCost
from app.rules.effects.ways import OptionalCost, Way, WayKind
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.text.additional_costs import modal_keyword
from app.rules.text.reading import read_face
from app.rules.values.board import Board
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost


def cast_face(card: Card, face: str | None, cast_from: str) -> tuple[Face, Face | None]:
    """The characteristics of the spell (CR 709.3, 702.102, 712.11, 715.3) and, for the back face of a
    nonmodal double-faced card, the front face whose mana cost gives its mana value (712.8c)."""
    if face is not None and face.casefold() == "fuse":
        if len(card.faces) < 2 or not card.is_split:
            raise InvalidChoiceError(f"{card.name} is not a split card; only split cards fuse", field="face")
        if not any(f.has_keyword("Fuse") for f in card.faces) and "Fuse" not in card.front.oracle_text:
            raise IllegalError(f"{card.name} does not have fuse", rule="702.102a")
        if cast_from != "hand":
            raise IllegalError("a split card with fuse is fused only when cast from a hand", rule="702.102a")
        return card.fused(), None
    if face is None:
        if card.is_split and len(card.faces) > 1:
            halves = " or ".join(repr(f.name) for f in card.faces)
            fuse = ' (or "fuse")' if any(f.has_keyword("Fuse") for f in card.faces) else ""
            raise InvalidChoiceError(
                f"{card.name} is a split card: choose the half to cast, {halves}{fuse} (CR 709.3)",
                field="face",
            )
        return card.front, None
    chosen = card.face(face)
    if card.layout in ("transform", "meld") and chosen is not card.front:
        return chosen, card.front
    return chosen, None


def _check_castable(face: Face) -> None:
    if face.type_line.is_land and len(face.type_line.types) == 1:
        raise IllegalError(f"{face.name} is a land: lands are played, not cast", rule="305.1")


def _check_targets(board: Board, targets: tuple[str, ...]) -> None:
    """CR 601.2c: a spell's targets are objects or players; here permanents on the board or its players."""
    players = {p.name for p in board.players}
    ids = {p.id for p in board.permanents}
    for i, target in enumerate(targets):
        if target not in ids and target not in players:
            raise InvalidChoiceError(
                f"target {target!r} is neither a permanent nor a player of this board (CR 601.2c)",
                field=f"targets.{i}",
            )


def cast_characteristics(
    board: Board, caster: str, spell: SpellToCast, choices: list[str]
) -> CastCharacteristics:
    """The spell's characteristics (CR 601.2a-b): its face (709.3, 702.102, 712.11, 715.3) or, through
    a Richard Garfield, Ph.D., the card it is cast as (ruling:richard-garfield-phd); lands are not cast
    (305.1)."""
    _check_targets(board, spell.targets)
    face, mv_front = cast_face(spell.card, spell.face, spell.cast_from)
    cast_as_card: Card | None = None
    if spell.cast_as is not None:
        verify_cast_as(board, caster, spell.card, spell.cast_as.card, spell.cast_as.via)
        cast_as_card = spell.cast_as.card
        face = (
            cast_as_card.fused()
            if cast_as_card.is_split and len(cast_as_card.faces) > 1
            else cast_as_card.front
        )
        mv_front = None
        choices.append(
            f"cast as {cast_as_card.name} through {spell.cast_as.via} (ruling:richard-garfield-phd)"
        )
    _check_castable(face)
    mana_cost = face.mana_cost if cast_as_card is None else cast_as_card.mana_cost
    mv_cost = mv_front.mana_cost if mv_front is not None else mana_cost
    return CastCharacteristics(face, cast_as_card, mana_cost, mv_cost)


def base_cost(
    spell: SpellToCast, chars: CastCharacteristics, run: CostRun, way: Way | None = None
) -> Variables:
    """CR 601.2f starts from the mana cost or an alternative cost (118.9), X, Y, Z substituted (107.3a).

    An alternative cost without {X} makes X 0 when the mana cost has {X} (107.3b); a cost with no mana cost
    needs an alternative cost (118.6); {∞} cannot be paid in full (107.4), and the total keeps it. A way to
    cast (``way``) gives the alternative cost its keyword defines: [cost] (118.9), {3} face down (702.37c),
    nothing for "without paying its mana cost" (118.9), or the mana cost itself (retrace, jump-start).
    """
    mana_cost = chars.mana_cost
    alt, alt_rule, alt_label = _alternative(spell, chars, run, way)
    if alt is not None:
        v, x_forced = _alternative_variables(spell, chars, way, alt)
        base_src = alt
    else:
        if mana_cost is None:
            raise IllegalError(
                f"{chars.face.name} has no mana cost: it can be cast only with an alternative cost",
                rule="118.6",
            )
        chooses_x = bool(mana_cost.variables) or any(a.variables for a in spell.additional_costs)
        v, x_forced, base_src = Variables(spell.x, spell.y, spell.z, chooses_x), False, mana_cost
    if mana_cost is not None and mana_cost.is_infinite and alt is None:
        run.choices.append("{∞} cannot be paid in full; the total keeps it")
    if not v.chooses_x and (spell.x or spell.y or spell.z) and not x_forced:
        run.warnings.append(
            CostWarning(None, spell.card.name, "x", "X was given but no cost of this spell has {X}")
        )
    current = base_src.with_variables(v.x, v.y, v.z)
    var_note = _var_note(base_src, v.x, v.y, v.z)
    if alt is None:
        run.record(CostStep(StepKind.BASE, current, "601.2f", amount=base_src, note=var_note))
        return v
    bare = "alternative cost" if way is None else f"{way.keyword} cost"
    note = f"{alt_label} {mana_cost}" if mana_cost is not None else bare
    if x_forced:
        note += "; X is 0: the spell is cast without paying a cost that includes {X} (CR 107.3b)"
    elif var_note:
        note += f"; {var_note}"
    run.record(CostStep(StepKind.ALTERNATIVE, current, alt_rule, amount=alt, note=note))
    return v


def _alternative(
    spell: SpellToCast, chars: CastCharacteristics, run: CostRun, way: Way | None
) -> tuple[ManaCost | None, str, str]:
    """CR 118.9: the alternative cost paid (the request's, or the one the way defines) with its rule and
    label; the way's other costs go to the other costs ("pay life equal to its mana value", 118.9)."""
    if way is None:
        return spell.alternative_cost, "118.9", "paid rather than the mana cost"
    run.other_costs.extend(way.other_costs)
    if way.kind is WayKind.WITH_MANA_COST:
        return spell.alternative_cost, "118.9", "paid rather than the mana cost"
    if way.life_for_mana:
        life = mana_value_of(chars.mv_cost, 0, 0, 0, on_stack=False)
        paid = int(life) if isinstance(life, int | float) else 0
        run.other_costs.append(OtherCost(f"Pay {paid} life", paid))
    return way_mana(way), way.rule, f"{way.keyword} cost, paid rather than the mana cost"


def _alternative_variables(
    spell: SpellToCast, chars: CastCharacteristics, way: Way | None, alt: ManaCost
) -> tuple[Variables, bool]:
    """CR 107.3a-b: X, Y, Z under an alternative cost, and whether they were forced to 0: chosen when a cost
    paid has {X} (an X in a non-mana part of the way's cost, "Remove X loyalty counters", too); 0 when
    the mana cost has {X} and no cost paid does."""
    has_x = bool(chars.mana_cost is not None and chars.mana_cost.variables)
    in_others = way is not None and any(" X " in f" {o.text} " for o in way.other_costs)
    chooses_x = bool(alt.variables) or any(a.variables for a in spell.additional_costs) or in_others
    if has_x and not chooses_x and (spell.x or spell.y or spell.z):
        return Variables(0, 0, 0, chooses_x), True
    return Variables(spell.x, spell.y, spell.z, chooses_x), False


def additional_costs(spell: SpellToCast, v: Variables, run: CostRun) -> None:
    """CR 601.2f, 118.8: each additional cost is added to the total, with the same X (107.3a)."""
    for extra in spell.additional_costs:
        run.record(
            CostStep(
                StepKind.ADDITIONAL, run.current + extra.with_variables(v.x, v.y, v.z), "118.8", amount=extra
            )
        )


def commander_tax(spell: SpellToCast, run: CostRun) -> None:
    """CR 903.8: {2} more for each previous cast from the command zone, only when cast from there. Cast from
    there with the previous casts not stated: taken as none (the first cast), and said (nothing silent)."""
    if not spell.commander_casts:
        if spell.cast_from == "command" and not spell.commander_casts_given:
            message = (
                "previous casts from the command zone were not given: taken as 0, no commander tax (CR 903.8)"
            )
            run.warnings.append(CostWarning(None, spell.card.name, "commander_casts", message))
        return
    tax = ManaCost.of(2 * spell.commander_casts)
    if spell.cast_from == "command":
        note = (
            f"commander tax: {{2}} for each of {spell.commander_casts} previous casts from the command zone"
        )
        run.record(CostStep(StepKind.INCREASE, run.current + tax, "903.8", amount=tax, note=note))
    else:
        note = "commander tax applies only to casts from the command zone"
        run.record(CostStep(StepKind.INCREASE, run.current, "903.8", amount=tax, applied=False, note=note))


def optional_costs(
    spell: SpellToCast,
    face: Face,
    v: Variables,
    run: CostRun,
    granted: tuple[tuple[str, str, OptionalCost, bool], ...] = (),
) -> None:
    """CR 601.2b, 601.2f, 118.8: each optional additional cost paid is added (kicker 702.33, multikicker
    702.33c, buyback 702.27, entwine 702.42, replicate 702.56, ...), read from the card's text or given by
    a permanent as its own (``granted``: (permanent id, card name, cost, one spell each turn), CR 613.1f);
    one that the card lacks and no permanent gives, paid twice, or paid more than once when it is not
    repeatable, is illegal."""
    own = read_face(face).ways
    seen: set[tuple[str, int]] = set()
    modal = modal_keyword(own)
    if modal is not None:
        chosen_modes = sum(1 for c in spell.optional_costs if c.keyword == modal.keyword)
        if modal.keyword == "tiered" and chosen_modes > 1:
            raise IllegalError("tiered: exactly one of its additional costs is chosen", rule=modal.rule)
        if not chosen_modes:
            message = (
                f"{modal.keyword}: at least one mode and its + cost is chosen as the spell is cast (CR "
                f"{modal.rule}); none was, so the base cost alone is shown: add an optional cost "
                f"{modal.keyword} with which n for each mode"
            )
            run.warnings.append(CostWarning(None, face.name, modal.text, message))
    for choice in spell.optional_costs:
        opt = own.optional_cost(choice.keyword)
        source: tuple[str, str, OptionalCost, bool] | None = None
        if opt is None:
            source = next((g for g in granted if g[2].keyword == choice.keyword), None)
            opt = source[2] if source is not None else None
        if opt is None:
            rule = keyword_rule(choice.keyword) or "601.2b"
            raise IllegalError(
                f"{face.name} has no {choice.keyword} in its text and no permanent gives it one", rule=rule
            )
        if source is not None and source[3]:
            message = (
                f"{source[1]} gives {choice.keyword} to one such spell each turn: whether this is the first "
                "is not stated (players.<caster>.this_turn), assumed so"
            )
            run.warnings.append(CostWarning(source[0], source[1], opt.text, message))
        if not 1 <= choice.which <= len(opt.costs):
            raise InvalidChoiceError(
                f"{face.name}'s {opt.keyword} has {len(opt.costs)} cost(s), not a cost {choice.which}",
                field="optional_costs",
            )
        if (choice.keyword, choice.which) in seen:
            raise IllegalError(f"{opt.keyword} is chosen once; give times to pay it again", rule=opt.rule)
        seen.add((choice.keyword, choice.which))
        if choice.times > 1 and not opt.repeatable:
            raise IllegalError(f"{opt.keyword} can be paid only once", rule=opt.rule)
        if opt.x_at_least_one and v.x == 0:
            raise IllegalError(f"{face.name}: X can't be 0 when its {opt.keyword} is paid", rule="601.2b")
        mana, others = opt.costs[choice.which - 1]
        amount = times(mana.with_variables(v.x, v.y, v.z), choice.times)
        note = opt.keyword if choice.times == 1 else f"{opt.keyword} paid {choice.times} times"
        by = (source[0], source[1]) if source is not None else (None, None)
        run.record(
            CostStep(
                StepKind.ADDITIONAL, run.current + amount, opt.rule, by[0], by[1], amount=amount, note=note
            )
        )
        for _ in range(min(choice.times, 20)):
            run.other_costs.extend(others)


def mandatory_costs(face: Face, v: Variables, run: CostRun) -> None:
    """CR 601.2b, 601.2f, 118.8: the additional costs the spell's text always asks for ("As an additional
    cost to cast this spell, sacrifice a creature."): mana is added to the total, the rest goes to the other
    costs. When the text offers a choice ("sacrifice a creature or pay {3}{B}") the first is shown, with a
    warning naming the others (the caster chooses as the spell is cast, 601.2b)."""
    for extra in read_face(face).ways.mandatory:
        mana, others = extra.costs[0]
        amount = mana.with_variables(v.x, v.y, v.z)
        note = "; ".join(o.text for o in others) or f"pay {mana}"
        run.record(CostStep(StepKind.ADDITIONAL, run.current + amount, "601.2b", amount=amount, note=note))
        run.other_costs.extend(others)
        if len(extra.costs) > 1:
            rest = " or ".join(o[1][0].text if o[1] else f"pay {o[0]}" for o in extra.costs[1:])
            message = f"the caster chooses one of these additional costs; shown: {note}; instead: {rest}"
            run.warnings.append(CostWarning(None, face.name, extra.text, message))


def _var_note(cost: ManaCost, x: int, y: int, z: int) -> str | None:
    if not cost.variables:
        return None
    values = {"X": x, "Y": y, "Z": z}
    return ", ".join(f"{v}={values[v]}" for v in dict.fromkeys(cost.variables)) + " (CR 107.3a)"


def mana_value_of(cost: ManaCost | None, x: int, y: int, z: int, *, on_stack: bool) -> int | float | None:
    """CR 202.3: no mana cost is 0 (202.3a); X is 0 off the stack and its value on the stack (202.3e)."""
    if cost is None:
        return 0
    return cost.with_variables(x, y, z).mana_value if on_stack else cost.mana_value
