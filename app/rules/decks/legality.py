"""Whether a deck is legal in a format: size, copies, the catalogue's legalities, Commander's own rules.

- Constructed (CR 100.2a): a main deck of at least 60 cards, at most 15 in the sideboard, and at most four
  copies of a card (main deck and sideboard together) other than basic lands (CR 205.4a) and cards whose
  text says "A deck can have any number of cards named" it.
- A restricted card (Vintage) may have one copy; a banned or not-legal card none.
- Commander (CR 903.5): exactly 100 cards including the commander(s), one copy of each card but basic lands
  (903.5b), and every card's color identity within the commander's (903.5c, 903.4). Brawl is 60 with the
  same rules; Gladiator is a 100-card singleton without a commander.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, get_args

SINGLETON_SIZE: Final = {
    "commander": 100,
    "duel": 100,
    "paupercommander": 100,
    "historicbrawl": 100,
    "brawl": 60,
    "gladiator": 100,
}
"""Singleton formats and their exact deck size (commander included)."""
COMMANDER_FORMATS: Final = frozenset(SINGLETON_SIZE) - {"gladiator"}
CONSTRUCTED_MIN: Final = 60
SIDEBOARD_MAX: Final = 15
MAX_COPIES: Final = 4
ANY_NUMBER: Final = "a deck can have any number of cards named"


@dataclass(frozen=True, slots=True)
class DeckCard:
    """One distinct card of a deck as legality reads it. ``status`` is the catalogue's word for the format
    ("legal", "banned", "restricted"; None: not legal); ``identity`` its color identity (CR 903.4)."""

    name: str
    main: int
    sideboard: int
    commander: int
    status: str | None
    basic_land: bool
    any_number: bool
    identity: frozenset[str]


ReasonKind = Literal[
    "banned",
    "not_legal",
    "restricted",
    "too_many_copies",
    "deck_size",
    "sideboard_size",
    "singleton",
    "no_commander",
    "color_identity",
]
"""What makes a deck illegal, as a closed set of tokens a client can switch on; each ``Reason`` says the
same in words in ``detail``, with the counts it found."""

REASON_KINDS: Final[tuple[ReasonKind, ...]] = get_args(ReasonKind)


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason a deck is not legal: its token, a sentence for people, the card if one, the rule."""

    reason: ReasonKind
    detail: str
    card: str | None = None
    rule: str = "100.2a"


def any_number(oracle_text: str) -> bool:
    """Whether a card's text lifts the copy limit (Relentless Rats, Rat Colony)."""
    return ANY_NUMBER in oracle_text.lower()


def is_commander_format(fmt: str) -> bool:
    return fmt in COMMANDER_FORMATS


def check(fmt: str, cards: Iterable[DeckCard], *, commander_deck: bool = False) -> tuple[Reason, ...]:
    """Every reason the deck is not legal in ``fmt`` (empty: legal)."""
    cards = tuple(cards)
    reasons: list[Reason] = []
    main = sum(c.main for c in cards)
    side = sum(c.sideboard for c in cards)
    commanders = [c for c in cards if c.commander]
    singleton = fmt in SINGLETON_SIZE or commander_deck
    for c in cards:
        if c.status is None:
            reasons.append(Reason("not_legal", f"not legal in {fmt}", c.name, "100.6"))
        elif c.status == "banned":
            reasons.append(Reason("banned", f"banned in {fmt}", c.name, "100.6"))
        total = c.main + c.sideboard + c.commander
        if c.status == "restricted" and total > 1:
            reasons.append(
                Reason("restricted", f"restricted in {fmt}: {total} copies; at most 1", c.name, "100.6")
            )
    if singleton:
        size = SINGLETON_SIZE.get(fmt, 100)
        found = main + sum(c.commander for c in cards)
        if found != size:
            reasons.append(
                Reason(
                    "deck_size",
                    f"the deck has {found} cards with its commander; exactly {size}",
                    None,
                    "903.5a",
                )
            )
        for c in cards:
            copies = c.main + c.commander
            if copies > 1 and not (c.basic_land or c.any_number):
                reasons.append(
                    Reason(
                        "singleton",
                        f"{copies} copies; a singleton deck has one of each card",
                        c.name,
                        "903.5b",
                    )
                )
        if fmt in COMMANDER_FORMATS or commander_deck:
            if not commanders:
                reasons.append(Reason("no_commander", "the deck names no commander", None, "903.3"))
            else:
                identity = frozenset().union(*(c.identity for c in commanders))
                for c in cards:
                    if c.main and not c.identity <= identity:
                        outside = "".join(x for x in "WUBRG" if x in c.identity - identity)
                        reasons.append(
                            Reason(
                                "color_identity",
                                f"color identity {outside} is outside the commander's",
                                c.name,
                                "903.5c",
                            )
                        )
        return tuple(reasons)
    if main < CONSTRUCTED_MIN:
        reasons.append(Reason("deck_size", f"the main deck has {main} cards; at least {CONSTRUCTED_MIN}"))
    if side > SIDEBOARD_MAX:
        reasons.append(Reason("sideboard_size", f"the sideboard has {side} cards; at most {SIDEBOARD_MAX}"))
    for c in cards:
        total = c.main + c.sideboard
        if total > MAX_COPIES and not (c.basic_land or c.any_number):
            reasons.append(Reason("too_many_copies", f"{total} copies; at most {MAX_COPIES}", c.name))
    return tuple(reasons)
