"""Does the spell being paid for meet a mana's spending restriction (CR 106.6)?

``spell_meets`` reads the printed restriction ("Spend this mana only to cast a creature spell of the chosen
type.") against the spell's characteristics as it is cast (CR 601.2a-b: the face cast, its types, colors,
mana value). It answers True or False when it understands the restriction, and None when it does not: the
caller then leaves that mana out and says so in its warnings ("nothing silent").

Understood: "to cast [a|an] <words> spell[s]" where the words are card types, supertypes, subtypes,
"non"-types, colors, "colorless", "multicolored", "monocolored", and "of the chosen type" (the permanent's
chosen creature type, CR 700.2-style choice made as it entered); lists joined by "or"/"and"/","; "spells";
"with mana value N or greater"; a trailing "or (to) activate abilities of ..." (a spell is not an ability:
only the spell part counts; also "activate an ability" and "activate an equip ability"); "to activate
abilities" alone or "... of <permanents>" (never a spell, False); "to activate an ability or cast ...".
"""

from __future__ import annotations

import re
from typing import Final

from app.rules.values.board import Choices
from app.rules.values.cards import Face
from app.rules.values.types import CREATURE_TYPES

_COLOR_WORDS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_CARD_TYPES: Final = frozenset(
    {"artifact", "creature", "enchantment", "instant", "sorcery", "planeswalker", "battle", "land", "kindred"}
)
_SUPERTYPES: Final = frozenset({"legendary", "snow", "basic"})

_ONLY_ABILITIES: Final = re.compile(r"^Spend this mana only to activate abilities(?: of [a-z ]+)?\.$")
_CAST: Final = re.compile(
    r"^Spend this mana only to (?:activate an ability or )?cast (?:an? )?(?:(?P<what>.+?) )?spells?"
    r"(?P<chosen> of the chosen type)?"
    r"(?P<mv> with mana value (?P<n>\d+) or greater)?"
    r"(?: or (?:to )?activate (?:abilities of .+|an ability(?: of .+)?|an? [a-z]+ ability))?\.$"
)
_ALTERNATIVE_WORDS: Final = re.compile(r"^an?\s+|\s+spells?$")
_RIDER: Final = re.compile(r",? and (?:that spell|it) can't be countered(?= ?\.$)")
_MULTIWORD: Final = frozenset(t for t in CREATURE_TYPES if " " in t)
_CAST_ANY: Final = re.compile(r"^Spend this mana only to cast spells\.$")


def spell_meets(restriction: str, face: Face, chosen: Choices) -> bool | None:
    """Whether mana with ``restriction`` may pay for casting ``face`` (CR 106.6); None: not understood.

    ``chosen`` holds the restricted permanent's choices (Cavern of Souls's creature type)."""
    text = _RIDER.sub("", restriction.strip())  # a rider on the spell (CR 106.6), not a restriction
    if _ONLY_ABILITIES.match(text):
        return False  # CR 106.6: mana only for activated abilities never pays a spell
    if _CAST_ANY.match(text):
        return True
    m = _CAST.match(text)
    if m is None:
        return None
    if m.group("n") is not None:
        mv = face.mana_cost.mana_value if face.mana_cost is not None else 0
        if (mv or 0) < int(m.group("n")):
            return False
    what = m.group("what")
    if what is None:  # "to cast spells with mana value 4 or greater"
        return True
    # each alternative may repeat its article and "spell" ("a Dragon spell or an Omen spell")
    alternatives = [
        _ALTERNATIVE_WORDS.sub("", a.strip())
        for a in re.split(r",\s*(?:or\s+|and/or\s+|and\s+)?|\s+or\s+|\s+and/or\s+", what)
    ]
    if m.group("chosen"):
        alternatives = [a + " of the chosen type" for a in alternatives]
    results = [_one(a, face, chosen) for a in alternatives if a]
    if True in results:  # alternatives are joined by "or": one met is enough, whatever the others say
        return True
    if not results or None in results:
        return None
    return False


def _one(words_text: str, face: Face, chosen: Choices) -> bool | None:
    """One alternative ("creature", "colorless Eldrazi", "creature of the chosen type")."""
    of_chosen = words_text.endswith(" of the chosen type")
    if of_chosen:
        words_text = words_text.removesuffix(" of the chosen type")
    type_line = face.type_line
    types = {t.casefold() for t in type_line.types}
    supertypes = {t.casefold() for t in type_line.supertypes}
    colors = set(face.color_set)
    for word in _words(words_text):
        w = word.casefold()
        if w.endswith("s") and w[:-1] in _CARD_TYPES:
            w = w[:-1]
        if w in _CARD_TYPES:
            ok = w in types
        elif w.startswith("non") and w[3:] in _CARD_TYPES:
            ok = w[3:] not in types
        elif w in _SUPERTYPES:
            ok = w in supertypes
        elif w in _COLOR_WORDS:
            ok = _COLOR_WORDS[w] in colors
        elif w == "colorless":
            ok = not colors
        elif w == "multicolored":
            ok = len(colors) > 1
        elif w == "monocolored":
            ok = len(colors) == 1
        elif word[:1].isupper():  # a subtype: "Eldrazi", "Dragon" (CR 205.3)
            name = word[:-1] if word.endswith("s") and word[:-1] in type_line.subtypes else word
            ok = name in type_line.subtypes or (face.is_changeling and "creature" in types)
        else:
            return None
        if not ok:
            return False
    if of_chosen:
        if chosen.creature_type is None:
            return None  # the type was not chosen on the board: not knowable
        return face.has_creature_type(chosen.creature_type)
    return True


def _words(text: str) -> list[str]:
    """The words of an alternative, a creature type of two words kept whole ("Time Lord", CR 205.3m)."""
    out: list[str] = []
    for word in text.split():
        if out and f"{out[-1]} {word}".removesuffix("s") in _MULTIWORD:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out
