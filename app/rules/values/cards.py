"""Cards and their faces: the characteristics that cost and mana rules read (CR 109.3, 709-712, 715)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from app.rules.errors import InvalidChoiceError
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.rules.values.symbols import COLORS
from app.rules.values.types import TypeLine

SPLIT_LAYOUTS = frozenset({"split", "aftermath"})
"""Layouts whose halves are cast separately and combine off the stack (CR 709.4)."""
PLAYABLE = frozenset({"legal", "restricted"})


@dataclass(frozen=True, slots=True)
class Face:
    """One face (or the only face) of a card, with the characteristics it gives an object."""

    name: str
    mana_cost: ManaCost | None
    type_line: TypeLine
    oracle_text: str = ""
    flavor_text: str | None = None
    keywords: tuple[str, ...] = ()
    colors: tuple[str, ...] | None = None
    power: str | None = None
    """CR 208.1: printed power, as printed (``"*"``, ``"1+*"``); None when the face has none."""
    toughness: str | None = None
    loyalty: str | None = None
    """CR 306.5a: a planeswalker's printed loyalty; None when it has none."""
    melded_value: int | float | None = None
    """CR 202.3c: on the combined back face of a meld pair (a melded permanent, which has no mana cost), the
    mana value of the front faces' combined mana costs; None on every other face. Not a mana cost: the face
    still has none (CR 712.4b), so it gives no colors and cannot be paid."""
    # Read by every cost filter of every request: computed once per face, not per look-up.
    _keywords_folded: frozenset[str] = field(init=False, repr=False, compare=False)
    _changeling: bool = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[type[Face], tuple[object, ...]]:
        """Pickled by its constructor (the catalogue snapshot): compiled, a frozen class refuses the field
        by field restore of the default pickling (``tests/test_compiled_copies.py``)."""
        return (
            Face,
            (
                self.name,
                self.mana_cost,
                self.type_line,
                self.oracle_text,
                self.flavor_text,
                self.keywords,
                self.colors,
                self.power,
                self.toughness,
                self.loyalty,
                self.melded_value,
            ),
        )

    def __post_init__(self) -> None:
        folded = frozenset(k.casefold() for k in self.keywords)
        object.__setattr__(self, "_keywords_folded", folded)
        changeling = "changeling" in folded or "is every creature type" in self.oracle_text
        object.__setattr__(self, "_changeling", changeling)

    def has_keyword(self, keyword: str) -> bool:
        return keyword.casefold() in self._keywords_folded

    @property
    def is_changeling(self) -> bool:
        """CR 702.73a: Changeling (and "is every creature type") gives every creature type."""
        return self._changeling

    def has_creature_type(self, creature_type: str) -> bool:
        """Whether this face has ``creature_type`` (CR 205.3m; changelings have all of them, 702.73a)."""
        if not self.type_line.has_creature_types:
            return False
        return self.is_changeling or creature_type in self.type_line.subtypes

    @property
    def color_set(self) -> tuple[str, ...]:
        """The face's colors (CR 202.2): given explicitly (color indicators) or from its mana cost."""
        if self.colors is not None:
            return tuple(c for c in COLORS if c in self.colors)
        return self.mana_cost.colors if self.mana_cost is not None else ()

    @property
    def mana_value(self) -> int | float | None:
        """CR 202.3a: an object with no mana cost has mana value 0, unless it is a melded permanent, whose
        mana value is that of its front faces' combined mana costs (202.3c: ``melded_value``)."""
        if self.mana_cost is not None:
            return self.mana_cost.mana_value
        return self.melded_value if self.melded_value is not None else 0

    def fields(self) -> dict[str, str | list[str] | None]:
        """The face as the plain values a record stores, one copy for every writer of faces (the card
        cache's rows, the catalogue export): canonical mana cost and type line (CR 202.1, 205), the printed
        colors when given (``None``: read from the cost, CR 105.2), keywords as a list."""
        return {
            "name": self.name,
            "mana_cost": str(self.mana_cost) if self.mana_cost is not None else None,
            "type_line": str(self.type_line),
            "oracle_text": self.oracle_text,
            "flavor_text": self.flavor_text,
            "keywords": list(self.keywords),
            "colors": list(self.colors) if self.colors is not None else None,
            "power": self.power,
            "toughness": self.toughness,
            "loyalty": self.loyalty,
        }


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the catalogue or an inline card. Multi-face cards list every face, front first."""

    name: str
    faces: tuple[Face, ...]
    layout: str = "normal"
    oracle_id: str | None = None
    legalities: tuple[tuple[str, str], ...] = ()
    color_identity: tuple[str, ...] | None = None
    """CR 903.4 as the catalogue gives it (WUBRG order); None when the source does not say."""

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError("a card has at least one face")

    def __reduce__(self) -> tuple[type[Card], tuple[object, ...]]:
        """Pickled by its constructor (the catalogue snapshot): compiled, a frozen class refuses the field
        by field restore of the default pickling (``tests/test_compiled_copies.py``)."""
        return (
            Card,
            (self.name, self.faces, self.layout, self.oracle_id, self.legalities, self.color_identity),
        )

    @property
    def front(self) -> Face:
        return self.faces[0]

    @property
    def is_split(self) -> bool:
        return self.layout in SPLIT_LAYOUTS or (len(self.faces) > 1 and self.layout == "split")

    @property
    def mana_cost(self) -> ManaCost | None:
        """The card's mana cost: a split card's is both halves' combined (CR 709.4), else the front's."""
        if self.is_split:
            return _sum_costs(f.mana_cost for f in self.faces)
        return self.front.mana_cost

    @property
    def mana_value(self) -> int | float | None:
        """CR 202.3: the card's mana value: a split card's from both halves' combined costs (202.3d, off the
        stack), a meld pair's combined back face's from its fronts' (202.3c), else the front face's; None for
        {∞}."""
        if self.is_split:
            cost = self.mana_cost
            return cost.mana_value if cost is not None else 0
        return self.front.mana_value

    @property
    def keywords(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for f in self.faces:
            for k in f.keywords:
                seen.setdefault(k, None)
        return tuple(seen)

    def face(self, which: str | int) -> Face:
        """The face named ``which`` (folded comparison) or at that index; InvalidChoiceError otherwise."""
        if isinstance(which, int):
            if 0 <= which < len(self.faces):
                return self.faces[which]
            raise InvalidChoiceError(f"{self.name} has no face {which}", field="face")
        want = fold_name(which)
        for f in self.faces:
            if fold_name(f.name) == want:
                return f
        names = ", ".join(f.name for f in self.faces)
        raise InvalidChoiceError(f"{self.name} has no face named {which!r} (faces: {names})", field="face")

    def fused(self) -> Face:
        """Both halves of a split card as one object (CR 702.102c: fused split spell characteristics)."""
        if len(self.faces) < 2:
            raise InvalidChoiceError(f"{self.name} has only one face and cannot be fused", field="face")
        supertypes = tuple(dict.fromkeys(s for f in self.faces for s in f.type_line.supertypes))
        card_types = tuple(dict.fromkeys(t for f in self.faces for t in f.type_line.types))
        subtypes = tuple(dict.fromkeys(s for f in self.faces for s in f.type_line.subtypes))
        colors = {c for f in self.faces for c in f.color_set}
        return Face(
            name=self.name,
            mana_cost=_sum_costs(f.mana_cost for f in self.faces),
            type_line=TypeLine(supertypes, card_types, subtypes),
            oracle_text="\n".join(f.oracle_text for f in self.faces),
            flavor_text=self.faces[0].flavor_text,
            keywords=self.keywords,
            colors=tuple(c for c in COLORS if c in colors),
        )

    @property
    def stored_legalities(self) -> tuple[tuple[str, str], ...]:
        """The legalities a store keeps: ``not_legal`` entries left out (absent means not legal, CR 100.6)
        unless the card is legal nowhere (Un-cards, test cards): then they are all kept, since a card with
        no entry at all reads as one whose legality is not known, not as one that is not legal."""
        if all(status == "not_legal" for _fmt, status in self.legalities):
            return self.legalities
        return tuple((fmt, status) for fmt, status in self.legalities if status != "not_legal")

    def is_legal_in(self, fmt: str) -> bool:
        """Legal or restricted in the format (the catalogue's ``legalities``)."""
        return dict(self.legalities).get(fmt) in PLAYABLE


def _sum_costs(costs: Iterable[ManaCost | None]) -> ManaCost | None:
    total: ManaCost | None = None
    for c in costs:
        if c is None:
            continue
        total = c if total is None else total + c
    return total


# -- meld pairs (CR 701.42, 712.4) ---------------------------------------------------------------------------

_MELD_INTO: Final = "meld them into "
_NAMED: Final = " named "


def meld_sentence(text: str) -> tuple[str, str] | None:
    """The meld ability of one card of a meld pair (CR 701.42a, 712.4a): "... you both own and control
    Gisela, the Broken Blade and a creature named Bruna, the Fading Light, exile them, then meld them into
    Brisela, Voice of Nightmares." as (the text after " named ", which starts with the partner's name; the
    melded permanent's name). None when the text has no meld ability. Plain string operations."""
    at = text.find(_MELD_INTO)
    if at < 0:
        return None
    result = text[at + len(_MELD_INTO) :].split("\n", 1)[0].split(". ", 1)[0].removesuffix(".")
    named = text.rfind(_NAMED, 0, at)
    if named < 0 or not result:
        return None
    return text[named + len(_NAMED) : at], result.strip()


def meld_pairs(cards: Iterable[Card]) -> dict[str, tuple[Card, Card]]:
    """Each melded permanent's name with the two cards of its meld pair (CR 712.4a: one card of the pair has
    the meld ability naming the other and the result; 701.42b: only those two meld), read from the cards'
    texts. The partner is the longest card name the text after " named " starts with (names hold commas:
    "Bruna, the Fading Light, exile them")."""
    listed = list(cards)
    by_name = {fold_name(c.name): c for c in listed}
    out: dict[str, tuple[Card, Card]] = {}
    for card in listed:
        found = meld_sentence(card.front.oracle_text)
        if found is None:
            continue
        after, result = found
        folded = fold_name(after)
        partner = max(
            (c for n, c in by_name.items() if folded.startswith(n) and c is not card),
            key=lambda c: len(c.name),
            default=None,
        )
        if partner is not None:
            out[result] = (card, partner)
    return out


def melded_value(pair: tuple[Card, Card]) -> int | float | None:
    """CR 202.3c: a melded permanent's mana value, as though it had the combined mana cost of the front
    faces of the two cards that represent it; None when a front's is {∞}."""
    first, second = (c.front.mana_value for c in pair)
    if first is None or second is None:
        return None
    return first + second
