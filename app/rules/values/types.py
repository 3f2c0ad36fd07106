"""Type lines (CR 205): supertypes, card types and subtypes; creature types of CR 205.3m.

"Tribal" is read as "Kindred" (the type was renamed in 2024; CR 205.2a lists Kindred).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.values.creature_types import CREATURE_TYPE_LIST, RULES_EDITION

SUPERTYPES: Final = ("Basic", "Legendary", "Ongoing", "Snow", "World", "Elite", "Host")
CARD_TYPES: Final = (
    "Artifact",
    "Battle",
    "Conspiracy",
    "Creature",
    "Dungeon",
    "Enchantment",
    "Instant",
    "Kindred",
    "Land",
    "Phenomenon",
    "Plane",
    "Planeswalker",
    "Scheme",
    "Sorcery",
    "Vanguard",
)
BASIC_LAND_TYPES: Final = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
"""CR 305.6: each basic land type carries the intrinsic ability "{T}: Add [its mana]"."""

CREATURE_TYPES: Final = frozenset(CREATURE_TYPE_LIST)
CREATURE_TYPES_EDITION: Final = RULES_EDITION
_MULTIWORD_SUBTYPES: Final = ("Time Lord",)
# A match starts only where a run of spaces starts (?<!\s): the same first match (it splits once), but a
# run of spaces is scanned once instead of once per space (it was quadratic).
_DASH = re.compile(r"(?<!\s)(?:\s+[—–-]\s+|\s*—\s*)")
_SUPER = {s.casefold(): s for s in SUPERTYPES}
_TYPES = {t.casefold(): t for t in CARD_TYPES} | {"tribal": "Kindred"}


def _fold(text: str) -> str:
    return " ".join(text.replace("’", "'").split()).casefold()


_CREATURE_BY_FOLD: Final = {_fold(t): t for t in CREATURE_TYPE_LIST}
_CARD_TYPE_WORDS: Final = frozenset(_fold(t) for t in (*CARD_TYPES, *SUPERTYPES, "Tribal"))


def canonical_creature_type(text: str) -> str | None:
    """The creature type ``text`` names (case-insensitive, ``’`` equal to ``'``), or None (CR 205.3m)."""
    return _CREATURE_BY_FOLD.get(_fold(text))


def is_creature_type(text: str) -> bool:
    return canonical_creature_type(text) is not None


def is_card_type_word(text: str) -> bool:
    """True for a card type or supertype ("artifact", "Legendary"): never a creature type (ruling)."""
    return _fold(text) in _CARD_TYPE_WORDS


@dataclass(frozen=True, slots=True)
class TypeLine:
    """A parsed type line: ``Legendary Creature — Elf Druid`` (CR 205.1)."""

    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type[TypeLine], tuple[object, ...]]:
        """Pickled by its constructor (the catalogue snapshot): compiled, a frozen class refuses the field
        by field restore of the default pickling (``tests/test_compiled_copies.py``)."""
        return (TypeLine, (self.supertypes, self.types, self.subtypes))

    @classmethod
    def parse(cls, text: str) -> TypeLine:
        """Split on the dash; words before it are supertypes or card types, words after it subtypes."""
        parts = _DASH.split(text.strip(), maxsplit=1)
        left = parts[0].split()
        right = parts[1] if len(parts) > 1 else ""
        supertypes: list[str] = []
        types: list[str] = []
        for word in left:
            low = word.casefold()
            if low in _SUPER:
                supertypes.append(_SUPER[low])
            elif low in _TYPES:
                types.append(_TYPES[low])
            else:
                types.append(word)  # Un-cards and old wordings keep their own words
        subtypes: list[str] = []
        rest = right
        for multi in _MULTIWORD_SUBTYPES:
            if multi in rest:
                subtypes.append(multi)
                rest = rest.replace(multi, " ")
        subtypes.extend(rest.split())
        return cls(tuple(supertypes), tuple(types), tuple(subtypes))

    def __str__(self) -> str:
        left = " ".join((*self.supertypes, *self.types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left

    def has_type(self, card_type: str) -> bool:
        return card_type in self.types

    def has_supertype(self, supertype: str) -> bool:
        return supertype in self.supertypes

    def has_subtype(self, subtype: str) -> bool:
        return subtype in self.subtypes

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    @property
    def is_artifact(self) -> bool:
        return "Artifact" in self.types

    @property
    def has_creature_types(self) -> bool:
        """CR 205.3m: creatures and kindreds share the creature types."""
        return "Creature" in self.types or "Kindred" in self.types

    @property
    def creature_types(self) -> tuple[str, ...]:
        return tuple(s for s in self.subtypes if s in CREATURE_TYPES) if self.has_creature_types else ()

    @property
    def basic_land_types(self) -> tuple[str, ...]:
        return tuple(s for s in self.subtypes if s in BASIC_LAND_TYPES) if self.is_land else ()

    def with_subtypes(self, subtypes: tuple[str, ...]) -> TypeLine:
        return TypeLine(self.supertypes, self.types, subtypes)
