"""The values the readers of casting text build: ways to cast, optional and additional costs, what a card's
text offers (CR 601.2b, 601.2f, 601.3, 118.8, 118.9).

A ``Way`` is a way to cast a card (CR 601.2b: an alternative cost, 118.9, or a keyword method of CR 702, with
``WayKind`` saying how it sets the cost that 601.2f starts from); an ``OptionalCost`` an optional or
mandatory additional cost (CR 118.8); an ``OtherCost`` a part of a cost that is not mana (CR 118.1, a life
payment 119.4); ``number_word`` reads the numbers of rules text (CR 107.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from app.rules.casting.effects import CostEffect

if TYPE_CHECKING:
    from app.rules.casting.permissions import OwnPermission
from app.rules.values.costs import ManaCost
from app.rules.values.names import NUMBER_WORDS


class WayKind(StrEnum):
    """How a way to cast sets the cost that 601.2f starts from."""

    ALTERNATIVE = "alternative"  # [cost] rather than the mana cost (118.9)
    WITH_MANA_COST = "with_mana_cost"  # the mana cost, plus what the keyword adds (retrace, jump-start)
    FACE_DOWN = "face_down"  # {3} rather than the mana cost, as a face-down 2/2 (702.37c, 702.168a)
    WITHOUT_MANA = "without_mana"  # without paying its mana cost (plot, 702.170d; 118.9)


@dataclass(frozen=True, slots=True)
class OtherCost:
    """A part of a cost that is not mana (CR 118.1): its text, and ``life`` when it is a life payment."""

    text: str
    life: int | None = None

    def __init__(self, text: str, life: int | None = None) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "life", life)


@dataclass(frozen=True, slots=True)
class Way:
    """A way to cast the card that its text offers: the keyword, its rule, the zones it applies from, the
    mana part of its cost (None: the keyword's own, e.g. {3} face down or the mana cost for retrace) and
    the rest."""

    keyword: str
    rule: str
    kind: WayKind
    zones: tuple[str, ...]
    cost: ManaCost | None
    other_costs: tuple[OtherCost, ...]
    condition: str | None
    text: str
    x_at_least_one: bool = False  # "If you cast this spell this way, X can't be 0."
    reduction: CostEffect | None = None  # "This spell costs {X} less to cast this way, where X is ..."
    which: int | None = None  # the alternative costs written in the text ("alternative"), numbered from 1
    granted_by: str | None = None  # the permanent or effect granting it (CR 601.2b, 613), None: the card
    life_for_mana: bool = False  # life equal to the spell's mana value rather than its mana cost (118.9)
    once_per_turn: bool = False  # the grant allows one such spell each turn: whether it was used, not said
    sacrifice: str | None = None  # emerge, offering: the id of the permanent sacrificed (702.119a, 702.48a)


@dataclass(frozen=True, slots=True)
class OptionalCost:
    """An optional additional cost the card offers (CR 118.8, 601.2b): ``costs`` holds each of its forms
    (kicker's two-cost form has two, chosen by ``which``), each as (mana, other costs)."""

    keyword: str
    rule: str
    costs: tuple[tuple[ManaCost, tuple[OtherCost, ...]], ...]
    repeatable: bool
    text: str
    x_at_least_one: bool = False  # "Kicker {X}. X can't be 0."


@dataclass(frozen=True, slots=True)
class NotRead:
    """A keyword line whose cost could not be read: it is left out, and the answer warns."""

    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class CardWays:
    """What a card's text offers: ways to cast, optional additional costs, the additional costs it always
    has ("As an additional cost to cast this spell, sacrifice a creature.", CR 601.2b, 118.8: ``mandatory``,
    each with its forms when the caster chooses one) and the lines not read."""

    ways: tuple[Way, ...] = ()
    optional: tuple[OptionalCost, ...] = ()
    not_read: tuple[NotRead, ...] = ()
    mandatory: tuple[OptionalCost, ...] = ()
    extra_zones: tuple[tuple[str, str], ...] = ()  # (keyword, zone): "cast ~ from your graveyard using its
    # mutate ability" (CR 601.3)
    permissions: tuple[OwnPermission, ...] = ()  # its own permissions to be cast from another zone

    def way(self, keyword: str, which: int | None = None) -> Way | None:
        return next(
            (w for w in self.ways if w.keyword == keyword and (which is None or w.which == which)), None
        )

    def optional_cost(self, keyword: str) -> OptionalCost | None:
        return next((o for o in self.optional if o.keyword == keyword), None)


def number_word(word: str) -> int | None:
    """ "3" or "three" (CR 107.1: numbers in rules text are whole numbers); None for anything else."""
    if word.isdigit() and len(word) <= 7:
        return int(word)
    return NUMBER_WORDS.get(word.casefold())
