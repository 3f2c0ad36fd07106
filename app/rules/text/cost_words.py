"""The words of cost sentences (CR 601.2f, 118.7): qualities of spells and permanents ("red creature",
"noncreature", "Kithkin", "snow land"; CR 105, 205), numbers, amounts of mana and the rule a reduction or
increase names (118.7a-g, 601.2f). Shared by the cost reader's modules (``oracle_costs``)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from app.rules.effects.cost_effects import (
    Count,
    CountKind,
    Direction,
    Quality,
    Who,
)
from app.rules.errors import ManaCostSyntaxError
from app.rules.values.costs import ManaCost
from app.rules.values.names import NUMBER_WORDS
from app.rules.values.symbols import SymbolKind
from app.rules.values.types import BASIC_LAND_TYPES, CARD_TYPES, SUPERTYPES, canonical_creature_type

COLOR_WORDS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_CARD_TYPE_WORDS: Final = {t.casefold(): t for t in CARD_TYPES} | {"tribal": "Kindred"}
_SUPERTYPE_WORDS: Final = {s.casefold(): s for s in SUPERTYPES}
_OTHER_SUBTYPES: Final = {
    s.casefold(): s
    for s in (
        "Aura",
        "Equipment",
        "Vehicle",
        "Saga",
        "Arcane",
        "Trap",
        "Adventure",
        "Lesson",
        "Gate",
        "Cartouche",
        "Curse",
        "Shrine",
        "Fortification",
        "Class",
        "Room",
        "Case",
        "Role",
        "Food",
        "Treasure",
        "Clue",
        "Blood",
        "Map",
        "Powerstone",
        "Desert",
        "Cave",
        "Town",
        "Sphere",
        "Lair",
        "Locus",
        "Mine",
        "Tower",
        *BASIC_LAND_TYPES,
    )
}
_NUMBER_WORDS: Final = {"a": 1, "an": 1, **NUMBER_WORDS}
KEYWORDS_WITH: Final = frozenset(
    {
        "flying",
        "flash",
        "trample",
        "haste",
        "convoke",
        "deathtouch",
        "lifelink",
        "vigilance",
        "reach",
        "first strike",
        "double strike",
        "menace",
        "defender",
        "hexproof",
        "indestructible",
        "mutate",
        "affinity",
        "delve",
        "kicker",
        "changeling",
    }
)


class NotUnderstood(Exception):
    """Internal: a recognised sentence shape with a part the reader does not know."""


# "for each card exiled this way": each object paid for "you may exile any number of ..." (CR 601.2b), with
# the verb that cost must use.
THIS_WAY_COUNTS: Final = {
    "card exiled this way": "exile",
    "creature sacrificed this way": "sacrifice",
    "permanent sacrificed this way": "sacrifice",
    "creature tapped this way": "tap",
    "counter removed this way": "remove",
}
# Counters on players (CR 122.1): "experience counter you have", "poison counters".
PLAYER_COUNTER: Final = re.compile(
    r"^(?P<kind>poison|experience|energy|rad|ticket) counters?(?: (?P<whose>you have))?$"
)


def read_cost(text: str) -> ManaCost:
    try:
        cost = ManaCost.parse(text)
    except ManaCostSyntaxError as exc:
        raise NotUnderstood(f"unknown amount {text}") from exc
    if cost.variables:
        raise NotUnderstood("an amount X defined by text that is not read")
    return cost


def rule_for(amount: ManaCost, direction: Direction) -> str:
    if direction is Direction.INCREASE:
        return "601.2f"
    kinds = {s.kind for s in amount.others}
    if not kinds:
        return "118.7a"
    if kinds & {
        SymbolKind.HYBRID,
        SymbolKind.MONO_HYBRID,
        SymbolKind.COLORLESS_HYBRID,
        SymbolKind.HYBRID_PHYREXIAN,
    }:
        return "118.7e"
    if SymbolKind.PHYREXIAN in kinds:
        return "118.7f"
    if kinds == {SymbolKind.SNOW}:
        return "118.7g"
    if kinds == {SymbolKind.COLORLESS}:
        return "118.7d"
    return "118.7c"


def _singular(word: str) -> str:
    if word in ("plains", "equipment", "sorcery"):
        return word
    if word.endswith("ies") and canonical_creature_type(word[:-3] + "y") is not None:
        return word[:-3] + "y"
    if word.endswith("ies"):
        return word[:-1] if canonical_creature_type(word[:-1]) else word[:-3] + "y"
    if word.endswith("ves") and canonical_creature_type(word[:-3] + "f"):
        return word[:-3] + "f"
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def read_quality(text: str, *, plural: bool) -> Quality:
    """Words such as "red creature", "noncreature", "Kithkin", "snow land", "creature with flying"."""
    text = text.strip()
    keyword: str | None = None
    min_mv: int | None = None
    mv = re.match(r"^(.{1,60}?) with mana value (\d{1,2}) or greater$", text)
    if mv:
        text, min_mv = mv.group(1), int(mv.group(2))
    m = re.match(r"^(.*?) with ([a-z ]+)$", text)
    if m:
        if m.group(2) not in KEYWORDS_WITH:
            raise NotUnderstood(f"{text}: a quality that is not read")
        text, keyword = m.group(1), m.group(2)
    types: list[str] = []
    not_types: list[str] = []
    supertypes: list[str] = []
    subtypes: list[str] = []
    not_subtypes: list[str] = []
    colors: list[str] = []
    colorless = multicolored = monocolored = historic = face_down = False
    for raw in text.split():
        word = _singular(raw) if plural else raw
        if word in ("permanent", "permanents", "spell", "card"):
            continue
        if word in COLOR_WORDS:
            colors.append(COLOR_WORDS[word])
        elif word == "colorless":
            colorless = True
        elif word == "multicolored":
            multicolored = True
        elif word == "monocolored":
            monocolored = True
        elif word == "face-down":  # CR 708.2a: cast face down (morph, disguise)
            face_down = True
        elif word == "historic":
            historic = True
        elif word in _CARD_TYPE_WORDS:
            types.append(_CARD_TYPE_WORDS[word])
        elif word in _SUPERTYPE_WORDS:
            supertypes.append(_SUPERTYPE_WORDS[word])
        elif word.startswith("non") and word[3:].lstrip("-") in _CARD_TYPE_WORDS:
            not_types.append(_CARD_TYPE_WORDS[word[3:].lstrip("-")])
        elif word.startswith("non-") and _subtype(word[4:]) is not None:
            not_subtypes.append(_subtype(word[4:]) or "")
        elif _subtype(word) is not None:
            subtypes.append(_subtype(word) or "")
        else:
            raise NotUnderstood(f"{text}: the word {raw!r} is not a quality the reader knows")
    return Quality(
        tuple(types),
        tuple(not_types),
        tuple(supertypes),
        tuple(subtypes),
        tuple(not_subtypes),
        tuple(colors),
        colorless,
        multicolored,
        monocolored,
        historic,
        False,
        keyword,
        min_mana_value=min_mv,
        face_down=face_down,
    )


def _subtype(word: str) -> str | None:
    ct = canonical_creature_type(word)
    if ct is not None:
        return ct
    return _OTHER_SUBTYPES.get(word.casefold())


_ALTERNATIVE_SPLIT = re.compile(r",? (?:and/or|and|or) |, ")


def split_alternatives(text: str, *, plural: bool = False) -> tuple[Quality, ...]:
    """ "red or green", "a Demon, Horror, or Nightmare", "instant and sorcery" (each object that is one of
    them, CR 700.8-style lists of "and" meaning "or" for a single card); "noncreature, nonland": every
    part is a "non-" word, so the object must be all of them."""
    parts = [p.strip() for p in _ALTERNATIVE_SPLIT.split(text.strip()) if p.strip()]
    parts = [p.split(" ", 1)[1] if p.startswith(("a ", "an ")) else p for p in parts]
    if len(parts) > 1 and all(p.startswith("non") for p in parts):
        return (read_quality(" ".join(parts), plural=plural),)
    return tuple(read_quality(p, plural=plural) for p in parts)


_PERMANENT_TYPES: Final = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")


def card_count(what: str, kind: CountKind, text: str, whose: Who = Who.YOU) -> Count:
    """Cards with a quality ("instant and sorcery", "creature", "" for any card). A "permanent card" is one
    of the permanent types (CR 110.4), which a card in a graveyard must have to count."""
    words = what.split()
    if "permanent" in words:
        base = read_quality(" ".join(w for w in words if w != "permanent"), plural=False)
        perms = tuple(replace(base, types=(*base.types, t)) for t in _PERMANENT_TYPES)
        return Count(kind, text, None, whose, alternatives=perms)
    qualities = split_alternatives(what) if what else (Quality(),)
    if len(qualities) == 1:
        return Count(kind, text, qualities[0], whose)
    return Count(kind, text, None, whose, alternatives=qualities)


def number(word: str) -> int:
    if word.isdigit():
        return int(word)
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    raise NotUnderstood(f"the number {word!r}")
