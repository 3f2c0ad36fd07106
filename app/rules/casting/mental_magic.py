"""Mental Magic through Richard Garfield, Ph.D. (ruling:richard-garfield-phd).

"You may play cards as though they were other cards of your choice with the same mana cost. You can't
choose the same card twice. (Mana cost includes color.)" Each Richard keeps its own list of cards chosen
through it (``Permanent.played_as``); the same card is free again through another Richard.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.rules.errors import IllegalError
from app.rules.text.card_registry import is_richard
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Card
from app.rules.values.names import fold_name

RULE = "ruling:richard-garfield-phd"


def verify_cast_as(board: Board, caster: str, card: Card, chosen: Card, via: str) -> Permanent:
    """Check that ``caster`` may cast ``card`` as ``chosen`` through permanent ``via``; return that Richard.

    Raises ``IllegalError`` naming the reason: ``via`` is not a Richard Garfield, Ph.D., is controlled by
    another player, the costs differ (equal as multisets of symbols, so color counts), the chosen card is
    the card itself, or it was already chosen through this Richard.
    """
    richard = board.get(via)
    if not is_richard(richard.characteristics):
        raise IllegalError(
            f"cast_as.via {via!r} is {richard.characteristics.name}, not Richard Garfield, Ph.D.", rule=RULE
        )
    if richard.controller != caster:
        raise IllegalError(
            f"{via} is controlled by {richard.controller}, not by {caster}: only its controller plays cards "
            "through it",
            rule=RULE,
        )
    reason = exclusion_reason(richard, card, chosen)
    if reason is not None:
        raise IllegalError(f"cannot cast {card.name} as {chosen.name}: {reason}", rule=RULE)
    return richard


def exclusion_reason(richard: Permanent, card: Card, chosen: Card) -> str | None:
    """Why ``card`` may not be played as ``chosen`` through ``richard``, or None when it may."""
    if card.mana_cost is None or chosen.mana_cost is None or card.mana_cost != chosen.mana_cost:
        mine = str(card.mana_cost) if card.mana_cost is not None else "no mana cost"
        theirs = str(chosen.mana_cost) if chosen.mana_cost is not None else "no mana cost"
        return f"the mana costs differ ({mine} vs {theirs}; mana cost includes color)"
    if fold_name(card.name) == fold_name(chosen.name):
        return "the chosen card must be another card"
    if already_chosen(richard, chosen):
        return f"already chosen through {richard.id}"
    return None


def already_chosen(richard: Permanent, chosen: Card) -> bool:
    names = {fold_name(chosen.name), *(fold_name(f.name) for f in chosen.faces)}
    return any(fold_name(n) in names for n in richard.played_as)


@dataclass(frozen=True, slots=True)
class Options:
    """Cards the revealed card may be played as, and those left out with the reason."""

    allowed: tuple[Card, ...]
    excluded: tuple[tuple[Card, str], ...]


def options(richard: Permanent, card: Card, candidates: Iterable[Card]) -> Options:
    """Split ``candidates`` (cards with the same mana cost in the allowed pool) into allowed and excluded."""
    allowed: list[Card] = []
    excluded: list[tuple[Card, str]] = []
    for c in candidates:
        reason = exclusion_reason(richard, card, c)
        if reason is None:
            allowed.append(c)
        elif fold_name(c.name) != fold_name(card.name):
            excluded.append((c, reason))
    return Options(tuple(allowed), tuple(excluded))
