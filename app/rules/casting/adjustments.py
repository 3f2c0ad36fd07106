"""The later stages of CR 601.2f: cost increases added (in board order), reductions (``reductions``), then
effects on the locked total (Trinisphere); and the effects the spell brings itself (its own cost
abilities, undaunted 702.125a, harmonize 702.180a, "Buyback costs cost {2} less") and the ways to pay
permanents grant it (convoke, improvise, delve: 613.1f).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.casting.conditions import filter_covers, judge
from app.rules.casting.counts import amount_of
from app.rules.casting.prepared import PreparedBoard
from app.rules.casting.reductions import Reduction, pay_units, reduce_cost
from app.rules.casting.spell_cost import CostRun, CostStep, CostWarning, SpellContext, SpellToCast, StepKind
from app.rules.effects.cost_effects import (
    CostEffect,
    Count,
    CountKind,
    Direction,
    KeywordGrant,
    MinimumTotal,
    SpellFilter,
    Who,
)
from app.rules.effects.other_costs import OtherCost
from app.rules.text.reading import read_face
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost


def cost_increases(
    ctx: SpellContext, candidates: Sequence[tuple[Permanent | None, CostEffect | MinimumTotal]], run: CostRun
) -> tuple[list[Reduction], list[tuple[Permanent, MinimumTotal]]]:
    """CR 601.2f: cost increases are added, in board order (addition commutes).

    Every effect that does not apply is recorded with its reason; reductions (118.7) and effects on the
    locked total are set aside for the later stages, in the same order.
    """
    reds: list[Reduction] = []
    totals: list[tuple[Permanent, MinimumTotal]] = []
    for source, effect in candidates:
        controller = source.controller if source is not None else ctx.caster
        src_id = source.id if source is not None else None
        card_name = source.card.name if source is not None else ctx.face.name
        key = (effect, src_id)  # by value: an effect made afresh for each call (harmonize) finds itself
        known = ctx.judged.get(key) if ctx.judged is not None else None
        if known is not None:
            covered, why = known[0], known[1]
        else:
            covered, why = judge(ctx, source, effect, controller, card_name)
        if isinstance(effect, MinimumTotal):
            if covered and source is not None:
                totals.append((source, effect))
            elif why:
                run.record(
                    CostStep(
                        StepKind.TOTAL, run.current, effect.rule, src_id, card_name, applied=False, note=why
                    )
                )
            continue
        kind = StepKind.REDUCTION if effect.direction is Direction.REDUCTION else StepKind.INCREASE
        if not covered:
            if ctx.judged is not None and known is None:
                ctx.judged[key] = (covered, why, None, None)
            if why:
                run.record(
                    CostStep(kind, run.current, effect.rule, src_id, card_name, effect.amount, False, why)
                )
            continue
        if effect.life:
            _life_increase(ctx, effect, source, controller, card_name, run)
            continue
        if known is not None and known[2] is not None:
            amount, amount_note = known[2], known[3]
        else:
            amount, amount_note = amount_of(ctx, effect, controller, source)
            if ctx.judged is not None:
                ctx.judged[key] = (covered, why, amount, amount_note)
        if why:
            amount_note = f"{why}; {amount_note}" if amount_note else why
        if amount.is_zero:
            run.record(
                CostStep(kind, run.current, effect.rule, src_id, card_name, amount, False, amount_note)
            )
        elif effect.direction is Direction.INCREASE:
            run.record(
                CostStep(
                    kind, run.current + amount, effect.rule, src_id, card_name, amount, True, amount_note
                )
            )
        else:
            reds.append(Reduction(len(reds), effect, source, amount, amount_note))
    return reds, totals


def _life_increase(
    ctx: SpellContext,
    effect: CostEffect,
    source: Permanent | None,
    controller: str,
    card_name: str,
    run: CostRun,
) -> None:
    """ "costs 3 life more to cast for each target", "cost an additional 3 life to cast": a life payment
    added to the total cost (CR 601.2f, 119.4), shown in other_costs; the mana total is unchanged."""
    unit, note = amount_of(ctx, replace(effect, amount=ManaCost.of(1)), controller, source)
    life = effect.life * unit.generic
    src_id = source.id if source is not None else None
    if life <= 0:
        run.record(CostStep(StepKind.INCREASE, run.current, "119.4", src_id, card_name, None, False, note))
        return
    run.other_costs.append(OtherCost(f"Pay {life} life", life))
    text = f"pay {life} life" + (f" ({note})" if note else "")
    run.record(CostStep(StepKind.INCREASE, run.current, "119.4", src_id, card_name, None, True, text))


def cost_reductions(reds: list[Reduction], run: CostRun) -> None:
    """CR 601.2f, 118.7: reductions are subtracted in the order, and with the hybrid halves (118.7e), that
    give the cheapest total; generic reductions reduce only generic mana (118.7a), colored ones spill onto
    generic (118.7b-d), never below {0}."""
    if reds:
        run.current = reduce_cost(run.current, reds, run.steps, run.choices)


def effects_on_total(totals: Sequence[tuple[Permanent, MinimumTotal]], run: CostRun) -> None:
    """CR 601.2f: once the total is determined, effects that directly affect the total apply (Trinisphere:
    a total of less than three mana costs three, the rest generic), then the total is locked in."""
    for source, mt in totals:
        current = run.current
        units = pay_units((current.generic, current.others))
        if current.is_infinite or units >= 2 * mt.amount:
            note = f"the total already costs {mt.amount} or more mana"
            run.record(
                CostStep(
                    StepKind.TOTAL, current, mt.rule, source.id, source.card.name, applied=False, note=note
                )
            )
            continue
        add = ManaCost.of((2 * mt.amount - units + 1) // 2)
        note = f"the spell would cost less than {mt.amount} mana; the rest is generic"
        run.record(
            CostStep(StepKind.TOTAL, current + add, mt.rule, source.id, source.card.name, add, note=note)
        )
    run.record(CostStep(StepKind.TOTAL, run.current, "601.2f", note="total cost locked in"))


def harmonize(
    board: Board, caster: str, name: str, run: CostRun
) -> list[tuple[Permanent | None, CostEffect | MinimumTotal]]:
    """CR 702.180a: casting it by harmonize, its controller may tap an untapped creature they control to
    reduce the cost by {X}, X that creature's power. The cheapest choice: the greatest power (its stated
    power, else the printed one, CR 208.3)."""
    creatures = [
        p
        for p in board.permanents
        if p.controller == caster and not p.tapped and "Creature" in p.characteristics.type_line.types
    ]
    if not creatures:
        return []
    best = max(creatures, key=lambda p: p.current("power"))
    power = best.current("power")
    if power <= 0:
        return []
    run.choices.append(
        f"harmonize: taps {best.id} (power {power}) to reduce the cost by {{{power}}} (CR 702.180a)"
    )
    if best.power is None:
        message = "its power was not stated: its printed power with its counters is used (CR 208.3)"
        run.warnings.append(CostWarning(best.id, best.card.name, "power", message))
    effect = CostEffect(
        Direction.REDUCTION, ManaCost.of(power), SpellFilter(), "702.180a", "Harmonize: tap a creature"
    )
    return [(best, effect)]


def keyword_cost_changes(
    prepared: PreparedBoard, spell: SpellToCast, face: Face
) -> list[tuple[Permanent | None, CostEffect | MinimumTotal]]:
    """ "Buyback costs cost {2} less." (Memory Crystal): a reduction of the generic mana of that optional
    cost when it is paid (CR 118.7a, 601.2f): at most the generic mana that cost has, each time it is paid."""
    out: list[tuple[Permanent | None, CostEffect | MinimumTotal]] = []
    own = read_face(face).ways
    for source, change in prepared.keyword_costs:
        for choice in spell.optional_costs:
            opt = own.optional_cost(choice.keyword)
            if choice.keyword != change.keyword or opt is None or not 1 <= choice.which <= len(opt.costs):
                continue
            generic = opt.costs[choice.which - 1][0].generic
            amount = min(change.amount, generic) * choice.times
            effect = CostEffect(
                Direction.REDUCTION, ManaCost.of(amount), SpellFilter(), "118.7a", change.text
            )
            out.append((source, effect))
    return out


def granted_keywords(
    ctx: SpellContext, grants: Sequence[tuple[Permanent, KeywordGrant]], run: CostRun
) -> tuple[str, ...]:
    """CR 613.1f: the ways to pay that permanents grant this spell ("Creature spells you cast have
    convoke"): convoke 702.51a, improvise 702.126a, delve 702.66a. The total stays as it is (they are
    ways to pay it); the payment uses them."""
    out: list[str] = []
    for source, grant in grants:
        covered, _why = filter_covers(ctx, grant.spells, source, source.controller)
        if covered and grant.keyword not in out:
            out.append(grant.keyword)
            run.choices.append(
                f"{source.card.name} gives it {grant.keyword} (CR {grant.rule}): a way to pay, the total is "
                "unchanged"
            )
    return tuple(out)


def own_effects(face: Face, run: CostRun) -> list[tuple[Permanent | None, CostEffect | MinimumTotal]]:
    """The spell's own cost abilities (affinity, "this spell costs ... for each ..."), warning on the rest."""
    own = read_face(face).costs
    for u in own.own_unsupported:
        run.warnings.append(
            CostWarning(None, face.name, u.text, f"not understood, given no effect: {u.reason}")
        )
    found: list[tuple[Permanent | None, CostEffect | MinimumTotal]] = [(None, e) for e in own.own]
    if face.has_keyword("Undaunted") or _undaunted_line(face.oracle_text):
        found.append((None, _UNDAUNTED))
    return found


@text_cache(entries=8192, chars=2_000_000)
def _undaunted_line(text: str) -> bool:
    """An "Undaunted" keyword line (reminder text aside), for faces whose keyword list does not say it."""
    return any(line.strip().split(" (", 1)[0] == "Undaunted" for line in text.split("\n"))


# CR 702.125a: "Undaunted" means "This spell costs {1} less to cast for each opponent you have."
_UNDAUNTED: Final = CostEffect(
    Direction.REDUCTION,
    ManaCost.of(1),
    SpellFilter(),
    "702.125a",
    "Undaunted",
    Count(CountKind.OPPONENTS, "opponent", whose=Who.OPPONENTS),
    own=True,
)
