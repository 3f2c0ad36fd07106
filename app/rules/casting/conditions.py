"""Whether a board's cost effect covers the spell being cast: its ``SpellFilter`` (CR 601.2f, 105, 205,
ruling:heralds-horn, ruling:vorthos), its condition ("as long as", "if", 601.2c targets), and the
warnings for facts a condition reads that the request did not state.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules.casting.counts import board_count, is_commander, player_names, relative
from app.rules.casting.effects import (
    Condition,
    ConditionKind,
    CostEffect,
    CountKind,
    MinimumTotal,
    SpellFilter,
    Who,
)
from app.rules.casting.spell_cost import CostWarning, SpellContext
from app.rules.casting.unstated import warn_this_turn, warn_unknown_fact, warn_zones
from app.rules.text.characters import matches
from app.rules.values.board import Board, Choices, Permanent
from app.rules.values.cards import Face
from app.rules.values.names import fold_name
from app.rules.values.types import canonical_creature_type

_NO_CHOICES = Choices()


def _condition_holds(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    kind = cond.kind
    if kind is ConditionKind.SOURCE_UNTAPPED:
        return source is not None and not source.tapped
    if kind is ConditionKind.SOURCE_TAPPED:
        return source is not None and source.tapped
    if kind is ConditionKind.YOUR_TURN:
        return board.active_player == controller
    if kind is ConditionKind.NOT_YOUR_TURN:
        return board.active_player != controller
    if kind is ConditionKind.DAY_NIGHT:  # CR 730.1: it is day, night, or neither
        return board.day_night == cond.fact
    if kind is ConditionKind.STEP:  # CR 500.1, 513.1: your turn, in that step
        return board.active_player == controller and board.step == cond.fact
    if kind is ConditionKind.THIS_TURN:
        fact = cond.fact or "spells_cast"
        if cond.whose is Who.ANY:  # "if a creature died this turn": anyone's, summed
            n = sum(p.this_turn.count(fact) for p in board.players)
            return n >= cond.at_least and (cond.at_most is None or n <= cond.at_most)
        names = [controller] if cond.whose is Who.YOU else list(board.opponents_of(controller))
        for player in board.players:
            if player.name in names:
                n = player.this_turn.count(fact)
                if n >= cond.at_least and (cond.at_most is None or n <= cond.at_most):
                    return True
        return False
    if kind is ConditionKind.CLASS_LEVEL:
        return source is not None and source.class_level >= cond.at_least
    if kind is ConditionKind.COUNT and cond.count is not None:
        who = list(board.opponents_of(controller)) if cond.per_opponent else [controller]
        for holder in who:
            count = replace(cond.count, whose=Who.YOU) if cond.per_opponent else cond.count
            n = board_count(board, count, holder, source)
            if n >= cond.at_least and (cond.at_most is None or n <= cond.at_most):
                return True
        return False
    none = Choices()
    holders = [o for o in board.opponents_of(controller)] if cond.whose is Who.OPPONENTS else [controller]
    for holder in holders:
        n = sum(
            1
            for p in board.permanents
            if p.controller == holder and any(q.matches(p.characteristics, none) for q in cond.qualities)
        )
        if n >= cond.at_least and (cond.at_most is None or n <= cond.at_most):
            return True
    return False


def filter_covers(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, controller: str
) -> tuple[bool, str | None]:
    """Whether the filter covers this spell: (covered, note); a note means "relevant, but not applied"."""
    if not relative(f.caster, controller, ctx.caster):
        return False, None
    chosen = source.chosen if source is not None else _NO_CHOICES
    face = ctx.face
    if f.qualities:
        if any(q.chosen_card_type for q in f.qualities) and chosen.card_type is None:
            return False, "no card type was chosen, so no spell costs less (CR 205.2a)"
        if any(q.chosen_creature_type for q in f.qualities) and chosen.creature_type is None:
            return False, "no creature type was chosen, so no spell costs less (ruling:heralds-horn)"
        if not any(q.matches(face, chosen) for q in f.qualities):
            if any(q.chosen_creature_type for q in f.qualities):
                return False, f"{face.name} is not a {chosen.creature_type} spell"
            return False, None
    if f.min_mana_value is not None and (ctx.mv_on_stack is None or ctx.mv_on_stack < f.min_mana_value):
        return False, None
    if f.from_zone is not None and ctx.spell.cast_from != f.from_zone:
        return False, None
    if f.not_from_zone is not None and ctx.spell.cast_from == f.not_from_zone:
        return False, None
    if f.targets_source and (source is None or source.id not in ctx.spell.targets):
        return False, None  # CR 601.2c: the targets are chosen before the total is determined
    if f.from_zones and ctx.spell.cast_from not in f.from_zones:
        return False, None
    if f.commander:
        known = ctx.caster in player_names(ctx.board) and ctx.board.player(ctx.caster).knows("commander")
        if not known:
            message = f"{ctx.caster}'s commander was not given: taken as none"
            ctx.warnings.append(
                CostWarning(source.id if source else None, ctx.face.name, "commander", message)
            )
        if not is_commander(ctx.board, ctx.caster, ctx.spell.card):
            return False, None
    if f.kicked and not any(o.keyword in ("kicker", "multikicker") for o in ctx.spell.optional_costs):
        return False, None  # CR 702.33d: kicked when its kicker cost was paid
    if f.shares_creature_type and not _shares_creature_type(face, source):
        return False, None
    if f.shares_card_type_with_imprinted:
        if chosen.imprinted is None:
            return False, "no card is exiled with it (chosen.imprinted), so no spell shares a card type"
        exiled = set(chosen.imprinted.front.type_line.types)
        if not exiled & set(face.type_line.types):
            return False, None
    if f.chosen_name:
        if chosen.card_name is None:
            return False, "no card name was chosen"
        names = {fold_name(face.name), *(fold_name(x.name) for x in ctx.spell.card.faces)}
        if fold_name(chosen.card_name) not in names:
            return False, None
    if f.character:
        return _character_covers(ctx, chosen)
    return True, None


def _shares_creature_type(face: Face, source: Permanent | None) -> bool:
    """CR 205.3m, 702.73a: the spell and the source have a creature type in common (a changeling has all)."""
    if source is None:
        return False
    other = source.characteristics
    mine = [t for t in face.type_line.subtypes if canonical_creature_type(t) is not None]
    theirs = [t for t in other.type_line.subtypes if canonical_creature_type(t) is not None]
    if face.is_changeling and face.type_line.has_creature_types:
        return (other.is_changeling and other.type_line.has_creature_types) or bool(theirs)
    return any(other.has_creature_type(t) for t in mine)


def _character_covers(ctx: SpellContext, chosen: Choices) -> tuple[bool, str | None]:
    """ruling:vorthos: the chosen character in the printed card's name, flavor text or art, in any form.

    Acorn rules look at the actual printed card being cast, so this reads the physical card (its names
    and ``printing``) even when it is cast as another card through Mental Magic.
    """
    if chosen.character is None:
        return False, "no character was chosen (ruling:vorthos)"
    character = ctx.characters.resolve(chosen.character)
    card = ctx.spell.card
    flavor = ctx.spell.flavor_text
    if flavor is None:
        flavor = ctx.face.flavor_text if ctx.spell.cast_as is None else card.front.flavor_text
    names = [card.name, *(f.name for f in card.faces if f.name != card.name)]
    for name in names:
        m = matches(character, name=name, flavor_text=flavor, art_characters=ctx.spell.art_characters)
        if m is not None:
            return True, m.describe()
    return False, f"{chosen.character} is not in {card.name}'s name, flavor text or art"


def judge(
    ctx: SpellContext,
    source: Permanent | None,
    effect: CostEffect | MinimumTotal,
    controller: str,
    card_name: str,
) -> tuple[bool, str | None]:
    """Whether ``effect`` applies to this spell (its filter, then its condition), and a note of why not."""
    covered, why = filter_covers(ctx, effect.spells, source, controller)
    cond = effect.condition
    if covered and cond is not None:
        if cond.kind is ConditionKind.NOT_CASTERS_TURN:
            holds = ctx.board.active_player != ctx.caster  # the spell's controller is its caster (601.2a)
        elif cond.kind is ConditionKind.TARGETS:
            holds = _targets_hold(ctx, cond, controller, source, card_name)
        elif cond.kind is ConditionKind.OPTIONAL_PAID:  # CR 601.2b: announced before the total
            holds = any(o.keyword == cond.fact for o in ctx.spell.optional_costs)
        else:
            holds = _condition_holds(ctx.board, cond, controller, source)
        warn_unknown_fact(ctx, source, cond.kind is ConditionKind.CLASS_LEVEL, "class_level", card_name)
        if cond.kind is ConditionKind.THIS_TURN:
            warn_this_turn(ctx, source, controller, cond.whose, cond.fact, card_name)
        if cond.kind is ConditionKind.STEP and ctx.board.step is None:
            message = "step was not given: taken as not that step"
            ctx.warnings.append(CostWarning(source.id if source else None, card_name, "step", message))
        if cond.kind is ConditionKind.DAY_NIGHT and ctx.board.day_night is None:
            message = "day_night was not given: taken as neither day nor night"
            ctx.warnings.append(CostWarning(source.id if source else None, card_name, "day_night", message))
        if cond.kind is ConditionKind.COUNT and cond.count is not None:
            whose = Who.OPPONENTS if cond.per_opponent else cond.count.whose
            warn_zones(ctx, source, controller, replace(cond.count, whose=whose), card_name)
        if not holds:
            return False, f"condition not met: {cond.text.replace('~', card_name)}"
    if covered and isinstance(effect, CostEffect) and effect.per is not None:
        per, counted_for = effect.per, controller
        if per.whose is Who.CASTER:  # "its controller controls", "that player has cast": the caster's
            per, counted_for = replace(per, whose=Who.YOU), ctx.caster
        counts = per.kind is CountKind.COUNTERS_ON_SOURCE
        warn_unknown_fact(ctx, source, counts, "counters", card_name)
        warn_zones(ctx, source, counted_for, per, card_name)
        if per.kind is CountKind.THIS_TURN:
            warn_this_turn(ctx, source, counted_for, per.whose, per.fact, card_name)
    return covered, why


def _targets_hold(
    ctx: SpellContext, cond: Condition, controller: str, source: Permanent | None, card_name: str
) -> bool:
    """CR 601.2c: the targets are chosen before the total cost is determined (601.2f); whether one of them
    is a permanent of the condition's description ("a tapped creature", "a blue permanent you don't
    control", "enchanted creature": the one the source is attached to)."""
    by_id = {p.id: p for p in ctx.board.permanents}
    for target in ctx.spell.targets:
        if cond.attached:
            if source is None or source.attached_to != target:
                continue
            perm = by_id.get(target)  # a player ("enchanted player") has no characteristics to check
            if perm is None or any(q.matches(perm.characteristics, Choices()) for q in cond.qualities):
                return True
            continue
        perm = by_id.get(target)
        if perm is None:
            continue
        if not relative(cond.whose, controller, perm.controller):
            continue
        if cond.tapped and not perm.tapped:
            continue
        if cond.states:
            if ("attacking" in cond.states or "blocking" in cond.states) and not perm.knows("combat"):
                message = f"whether {perm.id} attacks or blocks was not given: taken as neither"
                ctx.warnings.append(CostWarning(source.id if source else None, card_name, "combat", message))
            if "token" in cond.states and not perm.knows("token"):
                message = f"whether {perm.id} is a token was not given: taken as a card"
                ctx.warnings.append(CostWarning(source.id if source else None, card_name, "token", message))
            state = {
                "tapped": perm.tapped,
                "attacking": perm.attacking,
                "blocking": perm.blocking,
                "token": perm.token,  # CR 111.1
            }
            if not any(state[s] for s in cond.states):
                continue
        if cond.commander and not is_commander(ctx.board, perm.controller, perm.card):
            continue
        if cond.counter is not None:
            if not perm.knows("counters"):
                message = f"{perm.id}'s counters were not given: taken as no counters"
                ctx.warnings.append(
                    CostWarning(source.id if source else None, card_name, "counters", message)
                )
            if perm.counter(cond.counter) == 0:
                continue
        if any(q.matches(perm.characteristics, Choices()) for q in cond.qualities):
            return True
    return False
