"""Whether a board's cost effect covers the spell being cast: its ``SpellFilter`` (CR 601.2f, 105, 205,
ruling:heralds-horn, ruling:vorthos), its condition ("as long as", "if", 601.2c targets), and the
warnings for facts a condition reads that the request did not state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from app.rules.casting.counts import board_count, is_commander, player_names, relative
from app.rules.casting.spell_cost import CostWarning, SpellContext
from app.rules.casting.unstated import (
    warn_count_facts,
    warn_this_turn,
    warn_unknown_fact,
    warn_unstated_targets,
)
from app.rules.effects.cost_effects import (
    Condition,
    ConditionKind,
    CostEffect,
    CountKind,
    MinimumTotal,
    SpellFilter,
    Who,
)
from app.rules.text.characters import matches
from app.rules.values.board import Board, Choices, Permanent
from app.rules.values.cards import Face
from app.rules.values.names import fold_name
from app.rules.values.types import canonical_creature_type

_NO_CHOICES = Choices()


def _in_range(n: int, cond: Condition) -> bool:
    """Whether ``n`` is between the condition's ``at_least`` and ``at_most`` (none: no upper bound)."""
    return n >= cond.at_least and (cond.at_most is None or n <= cond.at_most)


def _source_untapped(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 110.5: "as long as ~ is untapped"."""
    return source is not None and not source.tapped


def _source_tapped(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 110.5: "as long as ~ is tapped"."""
    return source is not None and source.tapped


def _your_turn(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 102.1: "during your turn": the controller is the active player."""
    return board.active_player == controller


def _not_your_turn(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 102.1: "during each opponent's turn": another player is the active player."""
    return board.active_player != controller


def _day_night(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 730.1: it is day, night, or neither."""
    return board.day_night == cond.fact


def _step(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 500.1, 513.1: your turn, in that step."""
    return board.active_player == controller and board.step == cond.fact


def _this_turn(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 500.1: a fact of this turn in range: anyone's summed ("if a creature died this turn"), else the
    controller's or one opponent's."""
    fact = cond.fact or "spells_cast"
    if cond.whose is Who.ANY:
        return _in_range(sum(p.this_turn.count(fact) for p in board.players), cond)
    names = [controller] if cond.whose is Who.YOU else list(board.opponents_of(controller))
    return any(_in_range(p.this_turn.count(fact), cond) for p in board.players if p.name in names)


def _class_level(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 716.2a: a Class's level ability: the source is at least that level."""
    return source is not None and source.class_level >= cond.at_least


def _count_holds(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 601.2f: a count in range ("if you have 3 or less life"); "an opponent has ...": one opponent's."""
    if cond.count is None:
        return _controls(board, cond, controller, source)
    who = list(board.opponents_of(controller)) if cond.per_opponent else [controller]
    count = replace(cond.count, whose=Who.YOU) if cond.per_opponent else cond.count
    return any(_in_range(board_count(board, count, holder, source), cond) for holder in who)


def _controls(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """CR 109.5: "if you control a Wizard" (or an opponent does): permanents with one of the qualities."""
    none = Choices()
    holders = list(board.opponents_of(controller)) if cond.whose is Who.OPPONENTS else [controller]
    for holder in holders:
        n = sum(
            1
            for p in board.permanents
            if p.controller == holder and any(q.matches(p.characteristics, none) for q in cond.qualities)
        )
        if _in_range(n, cond):
            return True
    return False


_Holds = Callable[[Board, Condition, str, Permanent | None], bool]

# Conditions on the board; any other kind is "controls" (the ones on the spell are judged in ``judge``).
_HOLDS: Final[dict[ConditionKind, _Holds]] = {
    ConditionKind.SOURCE_UNTAPPED: _source_untapped,
    ConditionKind.SOURCE_TAPPED: _source_tapped,
    ConditionKind.YOUR_TURN: _your_turn,
    ConditionKind.NOT_YOUR_TURN: _not_your_turn,
    ConditionKind.DAY_NIGHT: _day_night,
    ConditionKind.STEP: _step,
    ConditionKind.THIS_TURN: _this_turn,
    ConditionKind.CLASS_LEVEL: _class_level,
    ConditionKind.COUNT: _count_holds,
}


def _condition_holds(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    """Whether a board condition holds, by the function of its kind."""
    return _HOLDS.get(cond.kind, _controls)(board, cond, controller, source)


# What a check of a spell filter finds: None when the spell passes it, else (False, note of why).
_Verdict = tuple[bool, str | None]
_REFUSED: Final[_Verdict] = (False, None)


def _by_qualities(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 105, 205: the spell has one of the qualities; "of the chosen type" needs a choice (CR 205.2a,
    ruling:heralds-horn)."""
    if not f.qualities:
        return None
    if any(q.chosen_card_type for q in f.qualities) and chosen.card_type is None:
        return False, "no card type was chosen, so no spell costs less (CR 205.2a)"
    if any(q.chosen_creature_type for q in f.qualities) and chosen.creature_type is None:
        return False, "no creature type was chosen, so no spell costs less (ruling:heralds-horn)"
    if any(q.matches(ctx.face, chosen) for q in f.qualities):
        return None
    if any(q.chosen_creature_type for q in f.qualities):
        return False, f"{ctx.face.name} is not a {chosen.creature_type} spell"
    return _REFUSED


def _by_mana_value(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 202.3: "with mana value N or greater", the spell's mana value on the stack (X as chosen)."""
    if f.min_mana_value is not None and (ctx.mv_on_stack is None or ctx.mv_on_stack < f.min_mana_value):
        return _REFUSED
    return None


def _by_zone(ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices) -> _Verdict | None:
    """CR 601.2a: "spells cast from your graveyard", "spells you cast from anywhere other than your hand"."""
    if f.from_zone is not None and ctx.spell.cast_from != f.from_zone:
        return _REFUSED
    if f.not_from_zone is not None and ctx.spell.cast_from == f.not_from_zone:
        return _REFUSED
    return None


def _by_target(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 601.2c: "spells that target ~": the targets are chosen before the total is determined."""
    if f.targets_source and (source is None or source.id not in ctx.spell.targets):
        warn_unstated_targets(ctx, source.id if source else None, source.name if source else ctx.face.name)
        return _REFUSED
    return None


def _by_zones(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 601.2a: "from your graveyard or from exile": cast from any of these zones."""
    return _REFUSED if f.from_zones and ctx.spell.cast_from not in f.from_zones else None


def _by_commander(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 903.3: "your commander": the spell is one of its caster's commanders; commanders not given are
    taken as none, with a warning (nothing silent)."""
    if not f.commander:
        return None
    known = ctx.caster in player_names(ctx.board) and ctx.board.player(ctx.caster).knows("commander")
    if not known:
        message = f"{ctx.caster}'s commander was not given: taken as none"
        ctx.warnings.append(CostWarning(source.id if source else None, ctx.face.name, "commander", message))
    return None if is_commander(ctx.board, ctx.caster, ctx.spell.card) else _REFUSED


def _by_kicker(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 702.33d: "kicked spells": kicked when its kicker cost was paid."""
    if f.kicked and not any(o.keyword in ("kicker", "multikicker") for o in ctx.spell.optional_costs):
        return _REFUSED
    return None


def _by_shared_type(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 205.3m: "that share a creature type with ~" (a changeling has all, 702.73a)."""
    if f.shares_creature_type and not _shares_creature_type(ctx.face, source):
        return _REFUSED
    return None


def _by_imprinted(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 205.2a: "that share a card type with the exiled card" (``chosen.imprinted``)."""
    if not f.shares_card_type_with_imprinted:
        return None
    if chosen.imprinted is None:
        return False, "no card is exiled with it (chosen.imprinted), so no spell shares a card type"
    exiled = set(chosen.imprinted.front.type_line.types)
    return None if exiled & set(ctx.face.type_line.types) else _REFUSED


def _by_chosen_name(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, chosen: Choices
) -> _Verdict | None:
    """CR 201.2: "spells with the chosen name": the spell's name, or any of its card's faces'."""
    if not f.chosen_name:
        return None
    if chosen.card_name is None:
        return False, "no card name was chosen"
    names = {fold_name(ctx.face.name), *(fold_name(x.name) for x in ctx.spell.card.faces)}
    return None if fold_name(chosen.card_name) in names else _REFUSED


_Check = Callable[[SpellContext, SpellFilter, Permanent | None, Choices], _Verdict | None]

# In order: the first check the spell fails decides (the commander check warns only when reached).
_FILTER_CHECKS: Final[tuple[_Check, ...]] = (
    _by_qualities,
    _by_mana_value,
    _by_zone,
    _by_target,
    _by_zones,
    _by_commander,
    _by_kicker,
    _by_shared_type,
    _by_imprinted,
    _by_chosen_name,
)


def filter_covers(
    ctx: SpellContext, f: SpellFilter, source: Permanent | None, controller: str
) -> tuple[bool, str | None]:
    """Whether the filter covers this spell: (covered, note); a note means "relevant, but not applied"."""
    if not relative(f.caster, controller, ctx.caster):
        return False, None
    chosen = source.chosen if source is not None else _NO_CHOICES
    for check in _FILTER_CHECKS:
        verdict = check(ctx, f, source, chosen)
        if verdict is not None:
            return verdict
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
            if not holds:
                warn_unstated_targets(ctx, source.id if source else None, card_name)
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
            warn_count_facts(ctx, source, controller, replace(cond.count, whose=whose), card_name)
        if not holds:
            return False, f"condition not met: {cond.text.replace('~', card_name)}"
    if covered and isinstance(effect, CostEffect) and effect.per is not None:
        per, counted_for = effect.per, controller
        if per.whose is Who.CASTER:  # "its controller controls", "that player has cast": the caster's
            per, counted_for = replace(per, whose=Who.YOU), ctx.caster
        counts = per.kind is CountKind.COUNTERS_ON_SOURCE
        warn_unknown_fact(ctx, source, counts, "counters", card_name)
        warn_count_facts(ctx, source, counted_for, per, card_name)
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
            if _attached_target(cond, source, by_id, target):
                return True
            continue
        perm = by_id.get(target)
        if perm is not None and _target_is(ctx, cond, controller, source, card_name, perm):
            return True
    return False


def _attached_target(
    cond: Condition, source: Permanent | None, by_id: dict[str, Permanent], target: str
) -> bool:
    """CR 303.4: "enchanted creature/player": the target is what the source is attached to (a player has
    no characteristics to check)."""
    if source is None or source.attached_to != target:
        return False
    perm = by_id.get(target)
    return perm is None or any(q.matches(perm.characteristics, Choices()) for q in cond.qualities)


def _target_is(
    ctx: SpellContext,
    cond: Condition,
    controller: str,
    source: Permanent | None,
    card_name: str,
    perm: Permanent,
) -> bool:
    """CR 601.2c: whether the target permanent ``perm`` fits the condition: whose (109.5), tapped (110.5),
    its combat state or token (506.4, 111.1), a commander (903.3), a counter (122.1), a quality."""
    if not relative(cond.whose, controller, perm.controller):
        return False
    if cond.tapped and not perm.tapped:
        return False
    if cond.states and not _target_state(ctx, cond, source, card_name, perm):
        return False
    if cond.commander and not is_commander(ctx.board, perm.controller, perm.card):
        return False
    if cond.counter is not None:
        if not perm.knows("counters"):
            message = f"{perm.id}'s counters were not given: taken as no counters"
            ctx.warnings.append(CostWarning(source.id if source else None, card_name, "counters", message))
        if perm.counter(cond.counter) == 0:
            return False
    return any(q.matches(perm.characteristics, Choices()) for q in cond.qualities)


def _target_state(
    ctx: SpellContext, cond: Condition, source: Permanent | None, card_name: str, perm: Permanent
) -> bool:
    """CR 506.4, 111.1: the target is in one of the states (attacking, blocking, tapped, a token); a combat
    or token fact not given is taken as not, with a warning (nothing silent)."""
    src = source.id if source else None
    if ("attacking" in cond.states or "blocking" in cond.states) and not perm.knows("combat"):
        message = f"whether {perm.id} attacks or blocks was not given: taken as neither"
        ctx.warnings.append(CostWarning(src, card_name, "combat", message))
    if "token" in cond.states and not perm.knows("token"):
        message = f"whether {perm.id} is a token was not given: taken as a card"
        ctx.warnings.append(CostWarning(src, card_name, "token", message))
    state = {
        "tapped": perm.tapped,
        "attacking": perm.attacking,
        "blocking": perm.blocking,
        "token": perm.token,
    }
    return any(state[s] for s in cond.states)
