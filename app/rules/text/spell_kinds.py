"""The spells a permission describes, read as a ``SpellKind`` (CR 601.3, 118.9: the spells a grant covers).

"creature", "zombie creature", "instant or sorcery", "noncreature", "one permanent spell with mana value 2
or less" (CR 202.3): card types (CR 205.2a), subtypes (creature types 205.3m, land types 205.3i, artifact,
enchantment and spell types 205.3g-h, 205.3j), "permanent", "nonland", "colorless", and a description of
one of several kinds. A word that is none of those leaves the description not read.
"""

from __future__ import annotations

import re
from typing import Final

from app.rules.effects.permissions import SpellKind
from app.rules.text.cast_sentences import Unreadable
from app.rules.values.creature_types import CREATURE_TYPE_LIST

_TYPE_WORDS: Final = {
    "artifact": "Artifact",
    "creature": "Creature",
    "enchantment": "Enchantment",
    "instant": "Instant",
    "sorcery": "Sorcery",
    "planeswalker": "Planeswalker",
    "battle": "Battle",
    "land": "Land",
    "kindred": "Kindred",
}
_CREATURE_TYPES: Final = {t.casefold(): t for t in CREATURE_TYPE_LIST}
# CR 205.3i: land types a condition names ("If you control a Swamp")
_LAND_TYPES: Final = {
    t.casefold(): t
    for t in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Desert", "Gate", "Cave", "Locus", "Town")
}
# CR 205.3g-h, 205.3j: artifact, enchantment and spell subtypes a permission names ("an Aura or Equipment")
_OTHER_SUBTYPES: Final = {
    t.casefold(): t
    for t in (
        "Aura",
        "Equipment",
        "Vehicle",
        "Saga",
        "Class",
        "Shrine",
        "Food",
        "Arcane",
        "Lesson",
        "Adventure",
    )
}


def _singular(word: str) -> str:
    if word in ("sorcery", "sorceries"):
        return "sorcery"
    if word.endswith("ies") and word[:-3] + "y" in _CREATURE_TYPES:
        return word[:-3] + "y"
    if word.endswith("ves") and word[:-3] + "f" in _CREATURE_TYPES:
        return word[:-3] + "f"
    if word.endswith("s") and not word.endswith("ss") and word not in _CREATURE_TYPES:
        return word[:-1]
    return word


def spell_kind(text: str) -> SpellKind:
    """ "creature", "zombie creature", "instant or sorcery", "artifact spells and colorless", "one permanent
    spell with mana value 2 or less", "a permanent spell of each permanent type", "nonland" -> a SpellKind."""
    t = text.strip().removesuffix(" spells").removesuffix(" spell").strip()
    t, max_mv = _max_mana_value(t)
    t = t.removesuffix(" of each permanent type")
    for article in ("a ", "an ", "one "):
        t = t.removeprefix(article)
    if " and " in t or " or " in t:
        return _either(t, max_mv)
    found: dict[str, list[str]] = {k: [] for k in ("type", "subtype", "not_type", *_FLAGS)}
    for raw in t.split():
        got = _kind_word(text, raw)
        if got is not None:
            found[got[0]].append(got[1])
    types = found["type"]
    if len(types) > 1:
        raise Unreadable(f"a spell of two card types at once ({text!r}) is not read")
    return SpellKind(
        tuple(types),
        tuple(found["subtype"]),
        bool(found["colorless"]),
        bool(found["permanent"]),
        bool(found["nonland"]),
        max_mv,
        not_types=tuple(found["not_type"]),
    )


def _max_mana_value(t: str) -> tuple[str, int | None]:
    """ "one permanent spell with mana value 2 or less" -> ("one permanent", 2) (CR 202.3)."""
    mv = re.fullmatch(r"(.{0,80}?) ?spells? with mana value (\d{1,2}) or less", t)
    return (mv.group(1), int(mv.group(2))) if mv else (t, None)


def _either(t: str, max_mv: int | None) -> SpellKind:
    """ "instant or sorcery" (one of those card types) or "artifact spells and colorless spells" (one of
    those kinds)."""
    parts = [p.strip().removesuffix(" spells").removesuffix(" spell") for p in re.split(r" and | or |, ", t)]
    kinds = tuple(spell_kind(p) for p in parts if p)
    if all(k.types and not (k.subtypes or k.colorless or k.permanent or k.nonland) for k in kinds):
        return SpellKind(types=tuple(x for k in kinds for x in k.types), max_mana_value=max_mv)
    return SpellKind(alternatives=kinds, max_mana_value=max_mv)


_FLAGS: Final = ("permanent", "nonland", "colorless")
_FILLER: Final = frozenset({"spell", "card", "", "a", "an", "one"})


def _kind_word(text: str, raw: str) -> tuple[str, str] | None:
    """What one word of a spell description says: ("type", "Creature"), ("subtype", "Zombie"), ("not_type",
    "Creature") for "noncreature", (flag, "") for permanent, nonland and colorless; None for a word that says
    nothing ("spell", an article). Any other word: the description is not read."""
    word = _singular(raw)
    if word in _FILLER:
        return None
    if word in _TYPE_WORDS:
        return "type", _TYPE_WORDS[word]
    if word in _FLAGS:
        return word, ""
    if word.startswith("non") and word[3:].lstrip("-") in _TYPE_WORDS:
        return "not_type", _TYPE_WORDS[word[3:].lstrip("-")]
    if word in _CREATURE_TYPES:
        return "subtype", _CREATURE_TYPES[word]
    if raw in _LAND_TYPES or word in _LAND_TYPES:
        return "subtype", _LAND_TYPES.get(raw) or _LAND_TYPES[word]
    if word in _OTHER_SUBTYPES:
        return "subtype", _OTHER_SUBTYPES[word]
    raise Unreadable(f"the spells described ({text!r}) are not read")
