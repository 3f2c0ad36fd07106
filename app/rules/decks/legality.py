"""Whether a deck is legal in a format: size, copies, the catalogue's legalities, Commander's own rules.

- Constructed (CR 100.2a): a main deck of at least 60 cards, at most 15 in the sideboard, and at most four
  copies of a card (main deck and sideboard together) other than basic lands (CR 205.4a) and cards whose
  text says otherwise (CR 100.2a: "... other than basic land cards", and the card's text wins over the
  rules, CR 101.1): "A deck can have any number of cards named" it (Relentless Rats), or "up to seven"
  (Seven Dwarves: at most seven, also in a singleton format).
- A restricted card (Vintage) may have one copy; a banned or not-legal card none.
- Commander (CR 903.5): exactly 100 cards including the commander(s), one copy of each card but basic lands
  (903.5b), and every card's color identity within the commander's (903.5c, 903.4). Brawl is 60 with the
  same rules; Gladiator is a 100-card singleton without a commander.
- A card whose legality is not known (the catalogue holds no legality data for it, or none for the format)
  is neither legal nor not legal: its reason is ``unknown`` and the deck's legality is not decided by it
  (``decided``; CR 100.6: what a format allows is the format's published list, which the data may not
  hold).

Format names are read case-insensitively with their usual aliases (``EDH`` is Commander); a name that is
no format is ``UnknownFormat``, which lists the known ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, get_args

from app.rules.errors import RulesError

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
ANY_COPIES: Final = 1_000_000
"""``copy_limit`` of a card whose text allows any number of copies."""
_NUMBERS: Final = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
}  # fmt: skip
UNKNOWN: Final = "unknown"
"""``DeckCard.status`` of a card without legality data for the format."""

FORMATS: Final = frozenset(
    {
        "standard", "future", "historic", "timeless", "gladiator", "pioneer", "explorer", "modern",
        "legacy", "pauper", "vintage", "penny", "commander", "oathbreaker", "standardbrawl", "brawl",
        "historicbrawl", "alchemy", "paupercommander", "duel", "oldschool", "premodern", "predh",
    }
)  # fmt: skip
"""The format keys of the card data (Scryfall's ``legalities`` keys)."""
ALIASES: Final = {
    "edh": "commander",
    "cedh": "commander",
    "elderdragonhighlander": "commander",
    "pdh": "paupercommander",
    "pauperedh": "paupercommander",
    "duelcommander": "duel",
    "frenchcommander": "duel",
    "pennydreadful": "penny",
    "arenabrawl": "historicbrawl",
    "t1": "vintage",
    "type1": "vintage",
    "t15": "legacy",
    "type15": "legacy",
    "93/94": "oldschool",
    "oldschool9394": "oldschool",
}
"""Usual names of formats that are not their data key (compared after folding case, spaces, hyphens)."""


class UnknownFormat(RulesError):
    """A format name that is no format of the data nor an alias of one (``known``: every accepted key)."""

    def __init__(self, name: str) -> None:
        self.known = tuple(sorted(FORMATS))
        super().__init__(
            f"unknown format {name!r}: one of {', '.join(self.known)} (or an alias: EDH, PDH...)"
        )
        self.name = name


def normalize_format(name: str) -> str:
    """The data key of a format name: case, spaces, hyphens and underscores folded, aliases followed
    (``"Modern"`` -> ``modern``, ``"EDH"`` -> ``commander``, ``"Pauper Commander"`` -> ``paupercommander``).
    Raises ``UnknownFormat``."""
    folded = "".join(name.split()).lower()
    key = folded.replace("-", "").replace("_", "").replace(".", "")
    key = ALIASES.get(folded, ALIASES.get(key, key))
    if key not in FORMATS:
        raise UnknownFormat(name)
    return key


@dataclass(frozen=True, slots=True)
class DeckCard:
    """One distinct card of a deck as legality reads it. ``status`` is the catalogue's word for the format
    ("legal", "banned", "restricted"; None: not legal; ``UNKNOWN``: no data); ``identity`` its color
    identity (CR 903.4)."""

    name: str
    main: int
    sideboard: int
    commander: int
    status: str | None
    basic_land: bool
    any_number: bool
    identity: frozenset[str]
    copy_limit: int | None = None
    """The copies the card's own text allows (``copy_limit``); None: the format's rule."""

    def limit(self, default: int) -> int:
        """The most copies a deck may hold: basic lands and any-number cards any, a card's own "up to N"
        that many, else ``default`` (four, or one in a singleton format)."""
        if self.basic_land or self.any_number:
            return ANY_COPIES
        return default if self.copy_limit is None else self.copy_limit


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
    "unknown",
]
"""What makes a deck illegal, as a closed set of tokens a client can switch on; each ``Reason`` says the
same in words in ``detail``, with the counts it found. ``unknown``: a card the catalogue has no legality
data for in the format (it leaves the deck's legality undecided, never ``not_legal``)."""

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


def copy_limit(oracle_text: str) -> int | None:
    """The copies a card's own text allows (CR 100.2a with the card's text, CR 101.1): ``ANY_COPIES`` for "A
    deck can have any number of cards named ...", N for "A deck can have up to N cards named ..." (Seven
    Dwarves: seven); None when the text says nothing of it. Read in one pass over the lowered text."""
    text = oracle_text.lower()
    if ANY_NUMBER in text:
        return ANY_COPIES
    marker = "a deck can have up to "
    at = text.find(marker)
    if at < 0:
        return None
    rest = text[at + len(marker) : at + len(marker) + 24].split(" ", 2)
    if len(rest) < 2 or rest[1] != "cards":
        return None
    word = rest[0]
    if word.isdigit() and len(word) <= 4:
        return int(word)
    return _NUMBERS.get(word)


def is_commander_format(fmt: str) -> bool:
    return fmt in COMMANDER_FORMATS


def check(fmt: str, cards: Iterable[DeckCard], *, commander_deck: bool = False) -> tuple[Reason, ...]:
    """Every reason the deck is not legal in ``fmt`` (empty: legal), and an ``unknown`` reason per card
    whose legality is not known (only those: not known to be legal, nor to be not legal)."""
    cards = tuple(cards)
    reasons = [r for c in cards for r in _status_reasons(fmt, c)]
    if fmt in SINGLETON_SIZE or commander_deck:
        reasons += _singleton_reasons(fmt, cards)
        if fmt in COMMANDER_FORMATS or commander_deck:
            reasons += _commander_reasons(cards)
    else:
        reasons += _constructed_reasons(cards)
    return tuple(reasons)


def _status_reasons(fmt: str, c: DeckCard) -> list[Reason]:
    """CR 100.6: the card's status in the format (banned, not legal, restricted to one copy), or
    ``unknown`` when the catalogue has no legality data for it."""
    reasons: list[Reason] = []
    if c.status == UNKNOWN:
        reasons.append(Reason(UNKNOWN, f"no legality data for {fmt} in the catalogue", c.name, "100.6"))
    elif c.status is None:
        reasons.append(Reason("not_legal", f"not legal in {fmt}", c.name, "100.6"))
    elif c.status == "banned":
        reasons.append(Reason("banned", f"banned in {fmt}", c.name, "100.6"))
    total = c.main + c.sideboard + c.commander
    if c.status == "restricted" and total > 1:
        reasons.append(
            Reason("restricted", f"restricted in {fmt}: {total} copies; at most 1", c.name, "100.6")
        )
    return reasons


def _singleton_reasons(fmt: str, cards: tuple[DeckCard, ...]) -> list[Reason]:
    """CR 903.5a (exactly the format's size, commander included) and 903.5b (one copy of each card but
    basic lands and cards that say a deck can have any number)."""
    reasons: list[Reason] = []
    size = SINGLETON_SIZE.get(fmt, 100)
    found = sum(c.main for c in cards) + sum(c.commander for c in cards)
    if found != size:
        reasons.append(
            Reason(
                "deck_size", f"the deck has {found} cards with its commander; exactly {size}", None, "903.5a"
            )
        )
    for c in cards:
        copies = c.main + c.commander
        limit = c.limit(1)
        if copies > limit:
            detail = (
                f"{copies} copies; a singleton deck has one of each card"
                if limit == 1
                else f"{copies} copies; its text allows at most {limit}"
            )
            reasons.append(Reason("singleton", detail, c.name, "903.5b"))
    return reasons


def _commander_reasons(cards: tuple[DeckCard, ...]) -> list[Reason]:
    """CR 903.3 (a deck names its commander) and 903.5c (every card within its color identity)."""
    commanders = [c for c in cards if c.commander]
    if not commanders:
        return [Reason("no_commander", "the deck names no commander", None, "903.3")]
    identity = frozenset().union(*(c.identity for c in commanders))
    reasons: list[Reason] = []
    for c in cards:
        if c.main and not c.identity <= identity:
            outside = "".join(x for x in "WUBRG" if x in c.identity - identity)
            reasons.append(
                Reason(
                    "color_identity", f"color identity {outside} is outside the commander's", c.name, "903.5c"
                )
            )
    return reasons


def _constructed_reasons(cards: tuple[DeckCard, ...]) -> list[Reason]:
    """CR 100.2a: at least sixty cards, a sideboard of at most fifteen, at most four of each card but basic
    lands (and cards that say a deck can have any number)."""
    reasons: list[Reason] = []
    main = sum(c.main for c in cards)
    side = sum(c.sideboard for c in cards)
    if main < CONSTRUCTED_MIN:
        reasons.append(Reason("deck_size", f"the main deck has {main} cards; at least {CONSTRUCTED_MIN}"))
    if side > SIDEBOARD_MAX:
        reasons.append(Reason("sideboard_size", f"the sideboard has {side} cards; at most {SIDEBOARD_MAX}"))
    for c in cards:
        total = c.main + c.sideboard
        limit = c.limit(MAX_COPIES)
        if total > limit:
            reasons.append(Reason("too_many_copies", f"{total} copies; at most {limit}", c.name))
    return reasons


def decided(reasons: Iterable[Reason]) -> bool | None:
    """The deck's legality from its reasons: False with any reason but ``unknown``, True with none, None
    when only cards of unknown legality stand in the way."""
    kinds = {r.reason for r in reasons}
    if kinds - {UNKNOWN}:
        return False
    return None if kinds else True
