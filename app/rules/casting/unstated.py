"""Nothing silent: a fact a count or a condition reads that the request did not state is taken as the least
(an empty zone, no counters, 0 this turn, no opponent, no targets) and the answer says so in a warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from app.rules.casting.counts import relative
from app.rules.casting.spell_cost import CostWarning, SpellContext
from app.rules.effects.cost_effects import (
    Count,
    CountKind,
    Who,
)
from app.rules.values.board import Choices, Permanent

_GRAVEYARD_KINDS: Final = (
    CountKind.GRAVEYARD_CARDS,
    CountKind.GRAVEYARD_CARD_TYPES,
    CountKind.GRAVEYARD_MANA_VALUES,
)

# The player facts (Player.given) a count of each kind reads (graveyards: exile too for "and_exile").
_PLAYER_FACTS: Final[dict[CountKind, tuple[str, ...]]] = {
    CountKind.GRAVEYARD_CARDS: ("graveyard",),
    CountKind.GRAVEYARD_CARD_TYPES: ("graveyard",),
    CountKind.GRAVEYARD_MANA_VALUES: ("graveyard",),
    CountKind.HAND: ("hand",),
    CountKind.COMMANDER_MANA_VALUE: ("commander",),
    CountKind.PLAYER_COUNTERS: ("counters",),
    CountKind.SPEED: ("speed",),
}

# A permanent fact a count of permanents reads, when the request did not state it: (given name, message).
_PERMANENT_FACTS: Final[dict[str, tuple[str, str]]] = {
    "token": ("token", "whether {} are tokens was not given: taken as cards"),
    "attacking": ("combat", "whether {} attack was not given: taken as not attacking"),
}


def warn_count_facts(
    ctx: SpellContext, source: Permanent | None, controller: str, count: Count, card_name: str
) -> None:
    """Nothing silent: a zone a count reads (graveyard, hand) that the request did not give is taken as
    empty, counters on the permanents counted, when not given, as none, opponents and targets not given as
    none; each with a warning."""
    src = source.id if source else None
    _warn_opponents(ctx, src, controller, count, card_name)
    _warn_targets(ctx, src, count, card_name)
    _warn_commander_casts(ctx, src, count, card_name)
    _warn_chosen_colors(source, count, ctx, card_name)
    _warn_player_facts(ctx, src, controller, count, card_name)
    _warn_permanent_facts(ctx, src, controller, count, card_name)
    _warn_power(ctx, src, controller, count, card_name)
    _warn_counters(ctx, src, controller, count, card_name)


def _warn_opponents(
    ctx: SpellContext, src: str | None, controller: str, count: Count, card_name: str
) -> None:
    """CR 102.2, 100.1: "for each opponent you have" (undaunted, 702.125a), a count of what opponents control
    or have, "the greatest number ... an opponent controls", on a board with no other player: a game has two
    or more players, so the opponents were not given; taken as none."""
    reads_opponents = (
        count.kind is CountKind.OPPONENTS or count.whose is Who.OPPONENTS or count.fact == "greatest"
    )
    if reads_opponents and not ctx.board.opponents_of(controller):
        message = f"no opponent of {controller} was given (players): taken as 0 opponents"
        ctx.warnings.append(CostWarning(src, card_name, "players", message))


def _warn_commander_casts(ctx: SpellContext, src: str | None, count: Count, card_name: str) -> None:
    """CR 903.8: a count of the previous casts from the command zone that the request did not state."""
    if count.kind is CountKind.COMMANDER_CASTS and not ctx.spell.commander_casts_given:
        message = "the previous casts from the command zone were not given: taken as 0"
        ctx.warnings.append(CostWarning(src, card_name, "commander_casts", message))


def _warn_chosen_colors(source: Permanent | None, count: Count, ctx: SpellContext, card_name: str) -> None:
    """CR 105.2: "for each of the chosen colors it is" with no colors chosen for the source: none counted."""
    if count.kind is CountKind.SPELL_CHOSEN_COLORS and source is not None and not source.chosen.colors:
        message = f"no colors were chosen for {source.id} (chosen.colors): taken as none"
        ctx.warnings.append(CostWarning(source.id, card_name, "chosen.colors", message))


# The counts that read the spell's targets (CR 601.2c: chosen before the total is determined, 601.2f).
_TARGET_COUNTS: Final = (CountKind.TARGETS, CountKind.TARGETS_BEYOND_FIRST, CountKind.TARGETED)


_TARGETS_NOT_GIVEN: Final = "the spell's targets were not given: taken as no targets"


def _warn_targets(ctx: SpellContext, src: str | None, count: Count, card_name: str) -> None:
    """CR 601.2c: "for each target" (strive, an ability word, 207.2c: "for each target beyond the first")
    when the request did not state the spell's targets: taken as none."""
    if count.kind in _TARGET_COUNTS and not ctx.spell.targets and not ctx.spell.targets_given:
        ctx.warnings.append(CostWarning(src, card_name, "targets", _TARGETS_NOT_GIVEN))


_TARGET_WORD: Final = re.compile(r"\btargets?\b", re.IGNORECASE)


def warn_unstated_targets(ctx: SpellContext, src: str | None, card_name: str) -> None:
    """CR 601.2c: an effect on "spells that target ~" or "if it targets a Merfolk you control" (Kopala,
    Warden of Waves), read for a spell whose text says "target" (CR 115.1) when the request did not state
    its targets: taken as none, and said once per source."""
    spell = ctx.spell
    if spell.targets or spell.targets_given or not _TARGET_WORD.search(ctx.face.oracle_text):
        return
    warning = CostWarning(src, card_name, "targets", _TARGETS_NOT_GIVEN)
    if warning not in ctx.warnings:
        ctx.warnings.append(warning)


def _warn_player_facts(
    ctx: SpellContext, src: str | None, controller: str, count: Count, card_name: str
) -> None:
    """CR 404, 406, 402, 903.3, 122.1, 702.179: a zone or player fact the count reads, not given: empty."""
    facts = _PLAYER_FACTS.get(count.kind, ())
    if count.kind in _GRAVEYARD_KINDS and count.fact == "and_exile":
        facts = ("graveyard", "exile")
    for fact in facts:
        for player in ctx.board.players:
            if relative(count.whose, controller, player.name) and not player.knows(fact):
                message = f"{player.name}'s {fact} was not given: taken as empty"
                ctx.warnings.append(CostWarning(src, card_name, fact, message))


def _counted_ids(
    ctx: SpellContext, controller: str, count: Count, unknown: Callable[[Permanent], bool]
) -> list[str]:
    """The ids of the permanents of the count's kind (whose, quality) for which ``unknown`` holds."""
    return [
        p.id
        for p in ctx.board.permanents
        if relative(count.whose, controller, p.controller)
        and unknown(p)
        and count.matches(p.characteristics, Choices())
    ]


def _warn_permanent_facts(
    ctx: SpellContext, src: str | None, controller: str, count: Count, card_name: str
) -> None:
    """CR 111.1, 506.4: whether the permanents counted are tokens or attack, when not given: taken as not."""
    if count.kind is not CountKind.PERMANENTS or count.fact not in _PERMANENT_FACTS:
        return
    given, template = _PERMANENT_FACTS[count.fact]
    unknown = _counted_ids(ctx, controller, count, lambda p: not p.knows(given))
    if unknown:
        message = template.format(", ".join(unknown[:5]))
        ctx.warnings.append(CostWarning(src, card_name, count.fact, message))


def _warn_power(ctx: SpellContext, src: str | None, controller: str, count: Count, card_name: str) -> None:
    """CR 208.3: a power or toughness the count reads, not given, is the printed one with its counters."""
    if count.min_power is None and count.kind not in (CountKind.TOTAL_POWER, CountKind.GREATEST_POWER):
        return
    which = "toughness" if count.fact == "toughness" else "power"
    unknown = _counted_ids(
        ctx, controller, count, lambda p: (p.power if which == "power" else p.toughness) is None
    )
    if unknown:
        message = (
            f"the {which} of {', '.join(unknown[:5])} was not given: taken as printed with its +1/+1 and "
            "-1/-1 counters, other effects as none"
        )
        ctx.warnings.append(CostWarning(src, card_name, which, message))


def _warn_counters(ctx: SpellContext, src: str | None, controller: str, count: Count, card_name: str) -> None:
    """CR 122.1, 700.9: "with a counter on it" and "modified" read the counters of the permanents counted;
    not given, they are none (one warning per permanent)."""
    if count.kind is not CountKind.PERMANENTS or (count.counter is None and count.fact != "modified"):
        return
    for pid in _counted_ids(ctx, controller, count, lambda p: not p.knows("counters")):
        message = f"{pid}'s counters were not given: taken as no counters"
        ctx.warnings.append(CostWarning(src, card_name, "counters", message))


def warn_this_turn(
    ctx: SpellContext, source: Permanent | None, controller: str, whose: Who, fact: str | None, card_name: str
) -> None:
    """Nothing silent: a this-turn fact not given is taken as 0, with a warning naming it."""
    fact = fact or "spells_cast"
    for player in ctx.board.players:
        if relative(whose, controller, player.name) and not player.this_turn.knows(fact):
            message = f"{player.name}'s this_turn.{fact} was not given: taken as 0"
            ctx.warnings.append(CostWarning(source.id if source else None, card_name, "this_turn", message))


def warn_unknown_fact(
    ctx: SpellContext, source: Permanent | None, needed: bool, fact: str, card_name: str
) -> None:
    """Nothing silent: a board fact an effect reads but the request did not state is taken as the least
    (level 1, no counters) and the answer warns."""
    if not needed or source is None or source.knows(fact):
        return
    least = "level 1" if fact == "class_level" else "no counters"
    ctx.warnings.append(
        CostWarning(source.id, card_name, fact, f"{source.id}'s {fact} was not given: taken as {least}")
    )
