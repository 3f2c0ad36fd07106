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
How the spell is cast (a ``Casting``, from the payments request's spell): "kicked" and "face-down" spells,
"spells with flashback", "from your graveyard", "from a graveyard", "from exile", "from anywhere other than
your hand", "your commander", X in "with mana value N or greater"; a trailing "or to turn creatures face
up" (not a spell); "... or [creature] spells with {X} in their mana costs", "a spell that's one or more
colors without {X} in its mana cost" (the printed cost, CR 107.3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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
    r"(?P<flashback> with flashback)?"
    r"(?P<chosen> of the chosen type)?"
    r"(?P<mv> with mana value (?P<n>\d+) or greater)?"
    r"(?: from (?P<zone>your graveyard|a graveyard|exile|anywhere other than your hand))?"
    r"(?: or (?:to )?activate (?:abilities of .+|an ability(?: of .+)?|an? [a-z]+ ability)"
    r"| or (?:to )?turn (?:creatures|permanents|a permanent) face up)?\.$"
)
_COMMANDER: Final = re.compile(r"^Spend this mana only to cast your commander\.$")
_OR_X: Final = re.compile(
    r"^(?P<head>Spend this mana only to cast .+?) or (?P<what>[a-z]+ )?spells"
    r" with \{X\} in their mana costs\.$"
)
_COLORED_NO_X: Final = re.compile(
    r"^Spend this mana only to cast a spell that's one or more colors without \{X\} in its mana cost\.$"
)
_FACE_DOWN_METHODS: Final = frozenset({"morph", "megamorph", "disguise"})
"""Ways that cast the card face down (CR 702.37c, 702.168a)."""
_ARTICLE: Final = re.compile(r"an?\s+")  # at the start only (``match``)
# Between alternatives; over text whose whitespace runs are single spaces (``_alternatives``), so that no
# pattern rescans a long run of blanks from each of its characters.
_BETWEEN: Final = re.compile(r", ?(?:or |and/or |and )?| or | and/or ")
_RIDER: Final = re.compile(r",? and (?:that spell|it) can't be countered(?= ?\.$)")
_MULTIWORD: Final = frozenset(t for t in CREATURE_TYPES if " " in t)
_CAST_ANY: Final = re.compile(r"^Spend this mana only to cast spells\.$")


def _bare(alternative: str) -> str:
    """One alternative without its article and its "spell(s)" ("a Dragon spell" is "Dragon"), in linear
    time (string ends, not a pattern searched from every blank)."""
    text = alternative.strip()
    article = _ARTICLE.match(text)
    if article:
        text = text[article.end() :]
    for word in ("spells", "spell"):
        head = text[: -len(word)]
        if text.endswith(word) and head[-1:].isspace():
            return head.rstrip()
    return text


@dataclass(frozen=True, slots=True)
class Casting:
    """How the spell is cast, as the request states it (API 1.1 ``cast_from``, ``method``,
    ``optional_costs``, ``x``): the zone it is cast from (CR 601.2a), the way used (``method``: its keyword,
    None for the normal way), whether a kicker cost is paid (``kicked``, CR 702.33d), whether it is its
    caster's commander (``commander``, CR 903.3; None: the board names no commander and it is not cast from
    the command zone) and the value of X (CR 107.3a)."""

    cast_from: str = "hand"
    method: str | None = None
    kicked: bool = False
    commander: bool | None = None
    x: int = 0

    def __init__(
        self,
        cast_from: str = "hand",
        method: str | None = None,
        kicked: bool = False,
        commander: bool | None = None,
        x: int = 0,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "cast_from", cast_from)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "kicked", kicked)
        object.__setattr__(self, "commander", commander)
        object.__setattr__(self, "x", x)

    @property
    def face_down(self) -> bool:
        """CR 702.37c, 702.168a: cast face down (morph, megamorph, disguise)."""
        return self.method in _FACE_DOWN_METHODS


def spell_meets(restriction: str, face: Face, chosen: Choices, casting: Casting | None = None) -> bool | None:
    """Whether mana with ``restriction`` may pay for casting ``face`` (CR 106.6); None: not understood, or
    it depends on how the spell is cast and ``casting`` is not given.

    ``chosen`` holds the restricted permanent's choices (Cavern of Souls's creature type); ``casting`` says
    how the spell is cast: the zone ("spells from exile", "from your graveyard", "from anywhere other than
    your hand", CR 601.2a), "kicked spells" (CR 702.33d), "face-down" spells (CR 702.37c), "your commander"
    (CR 903.3) and X in the mana value (CR 202.3e: on the stack, X is the value chosen)."""
    text = _RIDER.sub("", restriction.strip())  # a rider on the spell (CR 106.6), not a restriction
    if _ONLY_ABILITIES.match(text):
        return False  # CR 106.6: mana only for activated abilities never pays a spell
    if _CAST_ANY.match(text):
        return True
    if _COMMANDER.match(text):
        return None if casting is None else casting.commander
    if _COLORED_NO_X.match(text):  # Titans' Nest: CR 105.2 colors, 107.3 {X} in the printed mana cost
        return bool(face.color_set) and not _has_x(face)
    if m := _OR_X.match(text):
        return _or_with_x(m, face, chosen, casting)
    m = _CAST.match(text)
    return None if m is None else _cast_meets(m, face, chosen, casting)


def _any_of(results: list[bool | None]) -> bool | None:
    """CR 106.6 alternatives joined by "or": one met is enough, whatever the others say; else None when one
    is not understood (or there are none), False when all are not met."""
    if True in results:
        return True
    if not results or None in results:
        return None
    return False


def _or_with_x(m: re.Match[str], face: Face, chosen: Choices, casting: Casting | None) -> bool | None:
    """CR 106.6, 107.3 (Helga, Troyan): "... or [creature] spells with {X} in their mana costs", the
    printed cost having {X}, as an alternative to the head restriction."""
    what = m.group("what")
    with_x = _has_x(face) and (True if what is None else _one(what.strip(), face, chosen, casting))
    head = spell_meets(m.group("head") + ".", face, chosen, casting)
    return _any_of([with_x, head])


def _how_cast_met(m: re.Match[str], face: Face, casting: Casting | None) -> bool | None:
    """The parts of a "to cast" restriction on how the spell is cast: the zone (CR 601.2a) and flashback
    (CR 702.34a), then "with mana value N or greater" (CR 202.3e); None when ``casting`` is needed and not
    given, or X is not given."""
    if m.group("zone") is not None or m.group("flashback"):
        if casting is None:
            return None
        if not _from_zone(m.group("zone"), m.group("flashback") is not None, face, casting):
            return False
    if m.group("n") is not None:
        mv = _mana_value(face, casting)
        if mv is None:
            return None
        if mv < int(m.group("n")):
            return False
    return True


def _cast_meets(m: re.Match[str], face: Face, chosen: Choices, casting: Casting | None) -> bool | None:
    """CR 106.6 "Spend this mana only to cast [a|an] <words> spell[s] ...": how it is cast, then the
    alternatives of its words (CR 601.2a-b: the spell's characteristics as it is cast)."""
    how = _how_cast_met(m, face, casting)
    if how is not True:
        return how
    what = m.group("what")
    if what is None:  # "to cast spells with mana value 4 or greater"
        return True
    # each alternative may repeat its article and "spell" ("a Dragon spell or an Omen spell")
    alternatives = [_bare(a) for a in _BETWEEN.split(" ".join(what.split()))]
    if m.group("chosen"):
        alternatives = [a + " of the chosen type" for a in alternatives]
    return _any_of([_one(a, face, chosen, casting) for a in alternatives if a])


def _from_zone(zone: str | None, flashback: bool, face: Face, casting: Casting) -> bool:
    """CR 601.2a: the zone the spell is cast from, as the restriction names it; "spells with flashback
    from a graveyard" (Altar of the Lost): a card with flashback (CR 702.34a) cast from a graveyard."""
    if flashback and not _has_flashback(face):
        return False
    if zone is None:
        return True
    if zone == "anywhere other than your hand":
        return casting.cast_from != "hand"
    return casting.cast_from == ("exile" if zone == "exile" else "graveyard")


_FLASHBACK_LINE: Final = re.compile(r"^Flashback\b", re.MULTILINE)


def _has_flashback(face: Face) -> bool:
    """CR 702.34a: the card has flashback (its keywords, or a keyword line of its text)."""
    return "flashback" in {k.casefold() for k in face.keywords} or bool(
        _FLASHBACK_LINE.search(face.oracle_text)
    )


def _has_x(face: Face) -> bool:
    """CR 107.3: the face's printed mana cost has {X}."""
    return face.mana_cost is not None and "X" in face.mana_cost.variables


def _mana_value(face: Face, casting: Casting | None) -> int | None:
    """CR 202.3e: the spell's mana value on the stack, X counted as the value chosen; None when the cost
    has X and ``casting`` does not give it. A face-down spell's is 0 (CR 708.2a)."""
    if casting is not None and casting.face_down:
        return 0
    cost = face.mana_cost
    if cost is None:
        return 0
    base = cost.mana_value or 0
    if not cost.variables:
        return int(base)
    if casting is None:
        return None
    return int(base) + casting.x * cost.variables.count("X")


def _one(words_text: str, face: Face, chosen: Choices, casting: Casting | None = None) -> bool | None:
    """One alternative ("creature", "colorless Eldrazi", "creature of the chosen type", "kicked",
    "face-down creature"): every word met (CR 106.6); "of the chosen type" is the permanent's chosen
    creature type (CR 205.3m), None when the board does not say it."""
    of_chosen = words_text.endswith(" of the chosen type")
    if of_chosen:
        words_text = words_text.removesuffix(" of the chosen type")
    for word in _words(words_text):
        ok = _word_met(word, face, casting)
        if ok is not True:
            return ok
    if of_chosen:
        if chosen.creature_type is None:
            return None  # the type was not chosen on the board: not knowable
        return face.has_creature_type(chosen.creature_type)
    return True


_HOW_CAST: Final = {"kicked": lambda c: c.kicked, "face-down": lambda c: c.face_down}
"""Words on how the spell is cast: kicked (CR 702.33d), face down (CR 702.37c)."""
_COLOR_COUNTS: Final = {
    "colorless": lambda n: n == 0,
    "multicolored": lambda n: n > 1,
    "monocolored": lambda n: n == 1,
}
"""CR 105.2c colorless, 105.4 multicolored, 105.2b monocolored: by the number of the spell's colors."""


def _word_met(word: str, face: Face, casting: Casting | None) -> bool | None:
    """Whether the spell has what one word names (CR 106.6): how it is cast (``_HOW_CAST``), a card type
    or "non"-type (CR 205.2), a supertype (205.4), a color or count of colors (105.2), or a subtype
    (205.3, a changeling creature has them all, 702.73a); None: a word not understood, or ``casting``
    needed and not given."""
    w = word.casefold()
    if w in _HOW_CAST:
        return None if casting is None else bool(_HOW_CAST[w](casting))
    if w.endswith("s") and w[:-1] in _CARD_TYPES:
        w = w[:-1]
    type_line = face.type_line
    types = {t.casefold() for t in type_line.types}
    if w in _CARD_TYPES:
        return w in types
    if w.startswith("non") and w[3:] in _CARD_TYPES:
        return w[3:] not in types
    if w in _SUPERTYPES:
        return w in {t.casefold() for t in type_line.supertypes}
    colors = set(face.color_set)
    if w in _COLOR_WORDS:
        return _COLOR_WORDS[w] in colors
    if w in _COLOR_COUNTS:
        return bool(_COLOR_COUNTS[w](len(colors)))
    if word[:1].isupper():  # a subtype: "Eldrazi", "Dragon" (CR 205.3)
        name = word[:-1] if word.endswith("s") and word[:-1] in type_line.subtypes else word
        return name in type_line.subtypes or (face.is_changeling and "creature" in types)
    return None


def _words(text: str) -> list[str]:
    """The words of an alternative, a creature type of two words kept whole ("Time Lord", CR 205.3m)."""
    out: list[str] = []
    for word in text.split():
        if out and f"{out[-1]} {word}".removesuffix("s") in _MULTIWORD:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out
