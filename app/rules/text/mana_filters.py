"""Permanent phrases of card text ("a basic land you control", "Elves you control", "enchanted Forest") read
as a ``Filter`` (CR 109.2: an object named by its types, subtypes, supertypes and controller), and the
type words they use (CR 205.3g-i). Used by every part of the mana reader (``oracle_mana``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from app.rules.values.names import NUMBER_WORDS
from app.rules.values.symbols import MANA_TYPES
from app.rules.values.types import BASIC_LAND_TYPES, CARD_TYPES, canonical_creature_type

_ORDER: Final = {t: i for i, t in enumerate(MANA_TYPES)}
LAND_TYPES: Final = frozenset(
    {
        "Cave",
        "Desert",
        "Forest",
        "Gate",
        "Island",
        "Lair",
        "Locus",
        "Mine",
        "Mountain",
        "Plains",
        "Planet",
        "Power-Plant",
        "Sphere",
        "Swamp",
        "Tower",
        "Town",
        "Urza's",
        "Urza’s",
    }
)
"""CR 205.3i: the land types (a set land type replaces all of these, CR 305.7)."""
ARTIFACT_TYPES: Final = frozenset(
    {
        "Attraction", "Blood", "Bobblehead", "Clue", "Contraption", "Equipment", "Food", "Fortification",
        "Gold", "Incubator", "Infinity", "Junk", "Lander", "Map", "Powerstone", "Spacecraft", "Stone",
        "Treasure", "Vehicle",
    }
)  # fmt: skip
"""CR 205.3g: the artifact types."""
ENCHANTMENT_TYPES: Final = frozenset(
    {
        "Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Role", "Room", "Rune", "Saga",
        "Shard", "Shrine",
    }
)  # fmt: skip
"""CR 205.3h: the enchantment types."""


def sort_mana(types: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A multiset of mana types in W U B R G C order (the canonical order of every output here)."""
    return tuple(sorted(types, key=_ORDER.__getitem__))


def mana_text(types: tuple[str, ...]) -> str:
    """``("G", "G")`` → ``"{G}{G}"``; the empty multiset is ``""``."""
    return "".join("{" + t + "}" for t in types)


# --------------------------------------------------------------------------------------------- filters


@dataclass(frozen=True, slots=True)
class Filter:
    """Which permanents a phrase such as "a basic land you control" or "nonbasic lands" names.

    ``controller`` is relative to the permanent whose text it is: ``you``, ``opponent`` or ``any``.
    ``subtypes`` are alternatives (any of them); ``types`` and ``supertypes`` are all required.
    """

    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    not_supertypes: tuple[str, ...] = ()
    not_types: tuple[str, ...] = ()
    controller: str = "any"
    enchanted: bool = False
    other: bool = False
    all_subtypes: tuple[str, ...] = ()
    """Subtypes all required ("an Urza's Power-Plant": both Urza's and Power-Plant)."""
    keyword: str | None = None
    """ "creatures with defender": a keyword the permanent has (CR 702)."""
    min_power: int | None = None
    """ "creature with power 4 or greater" (CR 208.1; checked on the board)."""
    named: str | None = None
    """ "named ~": the permanent has the name of the filter's source (CR 201.2)."""
    counter: str | None = None
    """ "with a +1/+1 counter on it" (that kind) or "with a counter on it" (``""``: any kind, CR 122.1)."""
    itself: bool = False
    """The source itself ("it" after "As long as ~ is ...")."""
    color: str | None = None
    """ "black permanents": a color the permanent has (CR 105.2); set only by activation conditions
    ("Activate only if you control two or more black permanents"), checked by ``PermanentState.matches``."""
    token: bool | None = None
    """ "tokens": True, "nontoken": False (CR 111.1); None: tokens and cards alike."""

    def __init__(
        self,
        types: tuple[str, ...] = (),
        subtypes: tuple[str, ...] = (),
        supertypes: tuple[str, ...] = (),
        not_supertypes: tuple[str, ...] = (),
        not_types: tuple[str, ...] = (),
        controller: str = "any",
        enchanted: bool = False,
        other: bool = False,
        all_subtypes: tuple[str, ...] = (),
        keyword: str | None = None,
        min_power: int | None = None,
        named: str | None = None,
        counter: str | None = None,
        itself: bool = False,
        color: str | None = None,
        token: bool | None = None,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "types", types)
        object.__setattr__(self, "subtypes", subtypes)
        object.__setattr__(self, "supertypes", supertypes)
        object.__setattr__(self, "not_supertypes", not_supertypes)
        object.__setattr__(self, "not_types", not_types)
        object.__setattr__(self, "controller", controller)
        object.__setattr__(self, "enchanted", enchanted)
        object.__setattr__(self, "other", other)
        object.__setattr__(self, "all_subtypes", all_subtypes)
        object.__setattr__(self, "keyword", keyword)
        object.__setattr__(self, "min_power", min_power)
        object.__setattr__(self, "named", named)
        object.__setattr__(self, "counter", counter)
        object.__setattr__(self, "itself", itself)
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "token", token)

    def matches_types(
        self,
        types: tuple[str, ...],
        subtypes: tuple[str, ...],
        supertypes: tuple[str, ...],
        changeling: bool = False,
    ) -> bool:
        """The type part of the filter (controller, attachment and "other" are checked by the caller)."""
        if any(t not in types for t in self.types) or any(t in types for t in self.not_types):
            return False
        if any(s not in supertypes for s in self.supertypes):
            return False
        if any(s in supertypes for s in self.not_supertypes):
            return False
        if any(s not in subtypes and s.replace("'", "’") not in subtypes for s in self.all_subtypes):
            return False  # card data writes Urza’s with a typographic apostrophe
        if self.subtypes:
            creature_like = "Creature" in types or "Kindred" in types
            has = any(s in subtypes for s in self.subtypes)
            if not has and not (
                changeling and creature_like and any(canonical_creature_type(s) for s in self.subtypes)
            ):
                return False
        return True


_TYPE_NOUNS: Final = {t.casefold(): t for t in CARD_TYPES}
_OTHER_SUBTYPES: Final = {t.casefold(): t for t in ARTIFACT_TYPES | ENCHANTMENT_TYPES} | {
    t.casefold() + "s": t for t in ARTIFACT_TYPES | ENCHANTMENT_TYPES
}
BASIC_PLURALS: Final = {
    "plains": "Plains",
    "islands": "Island",
    "swamps": "Swamp",
    "mountains": "Mountain",
    "forests": "Forest",
} | {k.casefold(): k for k in BASIC_LAND_TYPES}
_LAND_SUBTYPES: Final = {t.casefold(): t for t in LAND_TYPES if "’" not in t} | {
    t.casefold() + "s": t for t in LAND_TYPES if not t.endswith("'s") and "’" not in t
}
CONTROLLERS: Final = (
    (" you control", "you"),
    (" an opponent controls", "opponent"),
    (" your opponents control", "opponent"),
    (" opponents control", "opponent"),
    (" target opponent controls", "opponent"),
    (" on the battlefield", "any"),
)


def subtype_word(word: str) -> str | None:
    """A land or creature subtype named by ``word`` in singular or plural (Forests, Elves, Slivers)."""
    low = word.casefold()
    if low in BASIC_PLURALS:
        return BASIC_PLURALS[low]
    if low in _LAND_SUBTYPES:
        return _LAND_SUBTYPES[low]
    if low in _OTHER_SUBTYPES:
        return _OTHER_SUBTYPES[low]
    candidates = [word]
    if low.endswith("ies"):
        candidates.append(word[:-3] + "y")  # Allies
    if low.endswith("ves"):
        candidates.append(word[:-3] + "f")
    if low.endswith("es"):
        candidates.append(word[:-2])
    if low.endswith("s"):
        candidates.append(word[:-1])
    if low.endswith("men"):
        candidates.append(word[:-3] + "man")
    for c in candidates:
        found = canonical_creature_type(c)
        if found is not None:
            return found
    return None


def _with_extra(extra: dict[str, str | int | None], flt: Filter) -> Filter:
    """The filter with the qualities read after its nouns ("with defender", "named ~")."""
    keyword, named, counter = extra["keyword"], extra["named"], extra["counter"]
    power = extra["min_power"]
    return replace(
        flt,
        keyword=keyword if isinstance(keyword, str) else None,
        min_power=power if isinstance(power, int) else None,
        named=named if isinstance(named, str) else None,
        counter=counter if isinstance(counter, str) else None,
    )


_FILTER_SUFFIX = re.compile(
    r" (?:named (?P<named>~)|with (?P<kw>defender|flying|haste|vigilance|reach|trample)"
    r"|with power (?P<power>\w+) or greater|with an? (?:(?P<counter>[a-z+/\-0-9]{1,20}) )?counter on it)$"
)


def _suffixes(text: str) -> tuple[str, str, dict[str, str | int | None]] | None:
    """The phrase without its trailing controller and qualities ("with defender", "named ~", "with power 4
    or greater", "with a +1/+1 counter on it"), the controller, and those qualities; None when a power is
    not a number."""
    controller = "any"
    extra: dict[str, str | int | None] = {"keyword": None, "min_power": None, "named": None, "counter": None}
    for _ in range(2):  # "creatures with defender you control", "artifact you control named ~"
        if m := _FILTER_SUFFIX.search(text):
            text = text[: m.start()]
            if m.group("named"):
                extra["named"] = "~"
            elif m.group("kw"):
                extra["keyword"] = m.group("kw").capitalize()
            elif m.group("power"):
                word = m.group("power")
                extra["min_power"] = int(word) if word.isdigit() else NUMBER_WORDS.get(word)
                if extra["min_power"] is None:
                    return None
            else:
                extra["counter"] = m.group("counter") or ""
        hit = False
        for suffix, who in CONTROLLERS:
            if text.endswith(suffix):
                text, controller, hit = text[: -len(suffix)], who, True
                break
        if not hit and not _FILTER_SUFFIX.search(text):
            break
    return text, controller, extra


_ARTICLES: Final = frozenset({"a", "an", "each", "all", "another", "other", "enchanted", "equipped"})


_ARTICLE: Final = re.compile(r"^an?\s+")


def _joined(words: list[str]) -> list[str]:
    """The words with a creature type of two words kept whole ("Time Lord", CR 205.3m)."""
    out: list[str] = []
    for word in words:
        if out and " " in (subtype_word(f"{out[-1]} {word}") or ""):
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def _type_words(words: list[str]) -> dict[str, list[str]] | None:
    """The type words of a phrase: supertypes, "nonbasic", "non<type>", card types and subtypes (CR 205)."""
    found: dict[str, list[str]] = {
        "types": [],
        "subtypes": [],
        "supertypes": [],
        "not_super": [],
        "not": [],
        "token": [],
    }
    for word in _joined(words):
        low = word.casefold()
        if low in {"token", "tokens", "nontoken"}:
            found["token"].append(low)  # CR 111.1
        elif low in {"basic", "snow", "legendary"}:
            found["supertypes"].append(low.capitalize())
        elif low == "nonbasic":
            found["not_super"].append("Basic")
        elif low.startswith("non") and low[3:].rstrip("s") in _TYPE_NOUNS:
            found["not"].append(_TYPE_NOUNS[low[3:].rstrip("s")])
        elif low in {"permanent", "permanents"}:
            continue
        elif low in _TYPE_NOUNS or (low.endswith("s") and low[:-1] in _TYPE_NOUNS):
            found["types"].append(_TYPE_NOUNS[low if low in _TYPE_NOUNS else low[:-1]])
        else:
            sub = subtype_word(word)
            if sub is None:
                return None
            found["subtypes"].append(sub)
    return found


def parse_filter(phrase: str) -> Filter | None:
    """Read a permanent phrase ("a land an opponent controls", "Elves you control", "enchanted Forest")."""
    stripped = _suffixes(" ".join(phrase.strip().rstrip(".").split()))
    if stripped is None:
        return None
    text, controller, extra = stripped
    words = text.split(" ")
    other = enchanted = False
    while words and words[0].casefold() in _ARTICLES:
        first = words.pop(0).casefold()
        other = other or first in {"another", "other"}
        enchanted = enchanted or first in {"enchanted", "equipped"}  # CR 301.5, 303.4: attached to it
    rest = " ".join(words)
    # "Mountain, Forest, or Plains": a list of subtypes
    # ("a Swamp or a Mountain": each named with its article, the Verges)
    listed = [_ARTICLE.sub("", w.strip()) for w in re.split(r",\s*(?:or\s+)?|\s+or\s+", rest) if w.strip()]
    if len(listed) > 1:
        subs = [subtype_word(w) for w in listed]
        if any(f is None for f in subs):
            return None
        flt = Filter(
            subtypes=tuple(f for f in subs if f), controller=controller, enchanted=enchanted, other=other
        )
        return _with_extra(extra, flt)
    found = _type_words(words)
    if found is None:
        return None
    tokens = found.pop("token")
    if not any(found.values()) and "permanent" not in text and not tokens:
        return None
    flt = _with_extra(
        extra,
        Filter(
            tuple(found["types"]),
            tuple(found["subtypes"]),
            tuple(found["supertypes"]),
            tuple(found["not_super"]),
            tuple(found["not"]),
            controller,
            enchanted,
            other,
        ),
    )
    if tokens:
        return replace(flt, token=tokens[0] != "nontoken")
    return flt
