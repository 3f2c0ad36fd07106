"""Nothing silent: a fact a count or a condition reads that the request did not state is taken as the least
(an empty zone, no counters, 0 this turn, no opponent, no targets) and the answer says so in a warning.
"""

from __future__ import annotations

from typing import Final

from app.rules.casting.counts import relative
from app.rules.casting.effects import (
    Count,
    CountKind,
    Who,
)
from app.rules.casting.spell_cost import CostWarning, SpellContext
from app.rules.values.board import Choices, Permanent

_GRAVEYARD_KINDS: Final = (
    CountKind.GRAVEYARD_CARDS,
    CountKind.GRAVEYARD_CARD_TYPES,
    CountKind.GRAVEYARD_MANA_VALUES,
)


def warn_zones(
    ctx: SpellContext, source: Permanent | None, controller: str, count: Count, card_name: str
) -> None:
    """Nothing silent: a zone a count reads (graveyard, hand) that the request did not give is taken as
    empty, and counters on the permanents counted, when not given, as none; each with a warning."""
    src = source.id if source else None
    facts: tuple[str, ...] = ()
    if count.kind in _GRAVEYARD_KINDS:
        facts = ("graveyard", "exile") if count.fact == "and_exile" else ("graveyard",)
    elif count.kind is CountKind.HAND:
        facts = ("hand",)
    elif count.kind is CountKind.COMMANDER_MANA_VALUE:
        facts = ("commander",)
    elif count.kind is CountKind.PLAYER_COUNTERS:
        facts = ("counters",)
    elif count.kind is CountKind.SPEED:
        facts = ("speed",)
    for fact in facts:
        for player in ctx.board.players:
            if relative(count.whose, controller, player.name) and not player.knows(fact):
                message = f"{player.name}'s {fact} was not given: taken as empty"
                ctx.warnings.append(CostWarning(src, card_name, fact, message))
    # A permanent fact the count reads that the request did not state: (fact, given name, message).
    unstated = {
        "token": ("token", "whether {} are tokens was not given: taken as cards"),
        "attacking": ("combat", "whether {} attack was not given: taken as not attacking"),
    }
    if count.kind is CountKind.PERMANENTS and count.fact in unstated:
        given, template = unstated[count.fact]
        unknown = [
            p.id
            for p in ctx.board.permanents
            if relative(count.whose, controller, p.controller)
            and not p.knows(given)
            and count.matches(p.characteristics, Choices())
        ]
        if unknown:
            message = template.format(", ".join(unknown[:5]))
            ctx.warnings.append(CostWarning(src, card_name, count.fact, message))
    if count.min_power is not None or count.kind in (CountKind.TOTAL_POWER, CountKind.GREATEST_POWER):
        which = "toughness" if count.fact == "toughness" else "power"
        unknown = [
            p.id
            for p in ctx.board.permanents
            if relative(count.whose, controller, p.controller)
            and (p.power if which == "power" else p.toughness) is None
            and count.matches(p.characteristics, Choices())
        ]
        if unknown:
            message = (
                f"the {which} of {', '.join(unknown[:5])} was not given: taken as printed with its +1/+1 and "
                "-1/-1 counters, other effects as none"
            )
            ctx.warnings.append(CostWarning(src, card_name, which, message))
    if count.kind is CountKind.PERMANENTS and (count.counter is not None or count.fact == "modified"):
        for p in ctx.board.permanents:
            mine = relative(count.whose, controller, p.controller)
            if mine and not p.knows("counters") and count.matches(p.characteristics, Choices()):
                message = f"{p.id}'s counters were not given: taken as no counters"
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
