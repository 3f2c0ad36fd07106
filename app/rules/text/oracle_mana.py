"""The oracle-text reader for mana abilities and the static effects that change mana (CR 605, 106, 305, 613).

It reads the templates Oracle text uses; anything mana-related it does not recognise is returned as a
``problem`` (never guessed), so callers can warn. Reminder text in parentheses is no ability (CR 207.2).

Read here:

- activated abilities ``COST: EFFECT`` (CR 602.1) with their cost parts ({T}, {Q}, mana, life, sacrifice,
  loyalty) and, when the effect adds mana, a ``ManaEffect`` (fixed mana, choices, "any color", "N mana of
  any one color", "N mana in any combination of colors", "the chosen color", "for each ...", and the
  CR 106.7 "any type/color that <permanents> could produce" references);
- layer-4 land type changes (Urborg, Blood Moon, Celestial Dawn, Prismatic Omen, auras; CR 305.7, 613.1d);
- layer-6 ability grants in quotes and haste grants (Chromatic Lantern, Cryptolith Rite; CR 613.1f);
- replacement effects on mana production (Contamination, Mana Reflection, Ritual of Subdual; CR 106.12b);
- triggered mana abilities on tapping for mana (Heartbeat of Spring, Wild Growth, Utopia Sprawl; CR 106.12a,
  605.1b);
- since issue 11: counters a cost removes from the permanent itself (storage lands, mana batteries), power
  (CR 208.1), the life total, the party (CR 700.8), the colors among permanents (CR 105.2), "X mana in any
  combination" split among its types, the mana value of what a cost takes (CR 202.3), another
  permanent's mana cost as mana, "choose a player" mana (CR 106.4), "As long as" grants (CR 611.3a),
  Reality Twist's land type swaps, and abilities that create a token, a grant or a replacement effect
  for a duration (CR 111.4, 611.2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import combinations, combinations_with_replacement
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.errors import RulesError
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import NUMBER_WORDS
from app.rules.values.symbols import COLORS, MANA_TYPES
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

# Starts only where a run of spaces starts (?<!\s): the same matches, each space run scanned once (it was
# rescanned from every space: 75-107 ms for a 5,000-character line, issue 27).
_REMINDER = re.compile(r"(?<!\s)\s*\([^()]*\)")
_SYMBOL_RUN = re.compile(r"^(?:\{[WUBRGC]\})+$")
_LOYALTY = re.compile(r"^\[?[+\-−]?(?:\d+|X)\]?$")


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
_BASIC_PLURALS: Final = {
    "plains": "Plains",
    "islands": "Island",
    "swamps": "Swamp",
    "mountains": "Mountain",
    "forests": "Forest",
} | {k.casefold(): k for k in BASIC_LAND_TYPES}
_LAND_SUBTYPES: Final = {t.casefold(): t for t in LAND_TYPES if "’" not in t} | {
    t.casefold() + "s": t for t in LAND_TYPES if not t.endswith("'s") and "’" not in t
}
_CONTROLLERS: Final = (
    (" you control", "you"),
    (" an opponent controls", "opponent"),
    (" your opponents control", "opponent"),
    (" opponents control", "opponent"),
    (" target opponent controls", "opponent"),
    (" on the battlefield", "any"),
)


def _subtype_word(word: str) -> str | None:
    """A land or creature subtype named by ``word`` in singular or plural (Forests, Elves, Slivers)."""
    low = word.casefold()
    if low in _BASIC_PLURALS:
        return _BASIC_PLURALS[low]
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


def parse_filter(phrase: str) -> Filter | None:
    """Read a permanent phrase ("a land an opponent controls", "Elves you control", "enchanted Forest")."""
    text = " ".join(phrase.strip().rstrip(".").split())
    controller = "any"
    keyword: str | None = None
    min_power: int | None = None
    named: str | None = None
    counter: str | None = None
    for _ in range(2):  # "creatures with defender you control", "artifact you control named ~"
        if m := _FILTER_SUFFIX.search(text):
            text = text[: m.start()]
            if m.group("named"):
                named = "~"
            elif m.group("kw"):
                keyword = m.group("kw").capitalize()
            elif m.group("power"):
                word = m.group("power")
                min_power = int(word) if word.isdigit() else NUMBER_WORDS.get(word)
                if min_power is None:
                    return None
            else:
                counter = m.group("counter") or ""
        hit = False
        for suffix, who in _CONTROLLERS:
            if text.endswith(suffix):
                text, controller, hit = text[: -len(suffix)], who, True
                break
        if not hit and not _FILTER_SUFFIX.search(text):
            break
    extra: dict[str, str | int | None] = {
        "keyword": keyword,
        "min_power": min_power,
        "named": named,
        "counter": counter,
    }
    words = text.split(" ")
    other = enchanted = False
    while words and words[0].casefold() in {
        "a",
        "an",
        "each",
        "all",
        "another",
        "other",
        "enchanted",
        "equipped",
    }:
        first = words.pop(0).casefold()
        other = other or first in {"another", "other"}
        enchanted = enchanted or first in {"enchanted", "equipped"}  # CR 301.5, 303.4: attached to it
    supertypes: list[str] = []
    not_supertypes: list[str] = []
    not_types: list[str] = []
    types: list[str] = []
    subtypes: list[str] = []
    rest = " ".join(words)
    # "Mountain, Forest, or Plains": a list of subtypes
    listed = [w.strip() for w in re.split(r",\s*(?:or\s+)?|\s+or\s+", rest) if w.strip()]
    if len(listed) > 1:
        found = [_subtype_word(w) for w in listed]
        if any(f is None for f in found):
            return None
        return _with_extra(
            extra,
            Filter(
                subtypes=tuple(f for f in found if f), controller=controller, enchanted=enchanted, other=other
            ),
        )
    for word in words:
        low = word.casefold()
        if low in {"basic", "snow", "legendary"}:
            supertypes.append(low.capitalize())
        elif low == "nonbasic":
            not_supertypes.append("Basic")
        elif low.startswith("non") and low[3:].rstrip("s") in _TYPE_NOUNS:
            not_types.append(_TYPE_NOUNS[low[3:].rstrip("s")])
        elif low in {"permanent", "permanents"}:
            continue
        elif low in _TYPE_NOUNS or (low.endswith("s") and low[:-1] in _TYPE_NOUNS):
            types.append(_TYPE_NOUNS[low if low in _TYPE_NOUNS else low[:-1]])
        else:
            sub = _subtype_word(word)
            if sub is None:
                return None
            subtypes.append(sub)
    if not (types or subtypes or supertypes or not_supertypes or not_types) and "permanent" not in text:
        return None
    return _with_extra(
        extra,
        Filter(
            tuple(types),
            tuple(subtypes),
            tuple(supertypes),
            tuple(not_supertypes),
            tuple(not_types),
            controller,
            enchanted,
            other,
        ),
    )


# ----------------------------------------------------------------------------------------------- costs


@dataclass(frozen=True, slots=True)
class CostPart:
    """One part of an activation cost (CR 602.1a, 118). ``kind``: tap, untap, mana, life, sacrifice_self,
    sacrifice (``amount`` -1: "Sacrifice X Goats"), exile (a permanent one controls), remove_counters (any
    number or X of its own counters), loyalty or other (a cost this
    reader keeps as text: discard, tap another creature...)."""

    kind: str
    text: str
    mana: ManaCost | None = None
    amount: int = 0
    filter: Filter | None = None
    counter: str | None = None
    """``remove_counters``: the kind of counter removed from the permanent itself."""


_REMOVE_COUNTERS = re.compile(
    r"Remove (?:any number of|X) (?P<kind>[a-z+/\-0-9]{1,20}) counters from (?:~|this [a-z]{1,20})"
)
"""CR 118.3, 122.1: removing its own counters; the number removed is chosen as the cost is paid."""


def parse_cost(text: str, self_name: str) -> tuple[CostPart, ...]:
    """Split an activation cost on commas and read each part."""
    parts: list[CostPart] = []
    for raw in (p.strip() for p in text.split(",")):
        if not raw:
            continue
        if raw == "{T}":
            parts.append(CostPart("tap", raw))
        elif raw == "{Q}":
            parts.append(CostPart("untap", raw))
        elif _LOYALTY.match(raw):
            parts.append(CostPart("loyalty", raw))
        elif raw.startswith("{") and raw.endswith("}") and "{T}" not in raw and "{Q}" not in raw:
            try:
                parts.append(CostPart("mana", raw, mana=ManaCost.parse(raw)))
            except RulesError:
                parts.append(CostPart("other", raw))
        elif m := _REMOVE_COUNTERS.fullmatch(raw.replace(self_name, "~")):
            parts.append(CostPart("remove_counters", raw, counter=m.group("kind")))
        elif m := re.fullmatch(r"Pay (\d+) life", raw):
            parts.append(CostPart("life", raw, amount=int(m.group(1))))
        elif (m := re.fullmatch(r"Exile (an? [^.]{1,60} you control)", raw)) and (
            flt := parse_filter(m.group(1))
        ):
            parts.append(CostPart("exile", raw, filter=flt))  # CR 406.3: exiling a permanent one controls
        elif (m := re.fullmatch(r"Sacrifice X ([A-Za-z]{1,30})", raw)) and (flt := parse_filter(m.group(1))):
            parts.append(CostPart("sacrifice", raw, filter=replace(flt, controller="you"), amount=-1))
        elif m := re.fullmatch(r"Sacrifice (.+)", raw):
            what = m.group(1)
            if what in {"~", self_name, "this permanent"} or re.fullmatch(r"this \w+", what):
                parts.append(CostPart("sacrifice_self", raw))
            else:
                flt = parse_filter(what)
                if flt is not None:  # one can sacrifice only what one controls (CR 701.21a)
                    flt = replace(flt, controller="you")
                parts.append(CostPart("sacrifice", raw, filter=flt))
        else:
            parts.append(CostPart("other", raw))
    return tuple(parts)


def cost_text(parts: tuple[CostPart, ...]) -> str:
    """The canonical cost: parts joined by ", " with each mana part canonical ("{1}, {T}")."""
    return ", ".join(str(p.mana) if p.mana is not None else p.text for p in parts)


# --------------------------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Reference:
    """CR 106.7: "one mana of any type|color that <filter> could produce"."""

    what: str  # "type" or "color"
    filter: Filter


@dataclass(frozen=True, slots=True)
class ManaOption:
    """One way an "Add" can go: fixed mana, plus ``chosen`` mana of the chosen color, or a reference."""

    fixed: tuple[str, ...] = ()
    chosen: int = 0
    reference: Reference | None = None


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition read on the board: an activation restriction (CR 602.5b "Activate only if ...") or the
    "if" of an "... instead" within an ability (CR 614.1a).

    ``kind``: ``control`` (each of ``needs``, a filter and a minimum count, is met by the permanents its
    controller controls), ``modified`` (CR 700.9: it has a counter, an Equipment or an Aura its controller
    controls attached), ``never`` (a condition no permanent meets, "As long as ~ is in your graveyard"),
    ``total_power`` (the permanents of ``needs`` have that total power, CR 208.1), ``counter`` (it has a
    counter of that kind, CR 122.1),
    ``your_turn`` ("only during your turn", CR 505.1), ``timing`` (a timing restriction, "as a sorcery",
    "once each turn": not a board fact, CR 307.1, 602.5d), or ``unknown`` (kept as text; the board reader
    warns and assumes it is not met).
    """

    text: str
    kind: str
    needs: tuple[tuple[Filter, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Amount:
    """How many times an "Add" happens, read from the board: "for each <filter>", "equal to the number of
    <filter>", devotion (CR 700.5; ``devotion == ("*",)``: to the color of the mana chosen, Nykthos),
    domain (the number of basic land types among lands you control, CR 305.6), counters on the
    permanent itself (``counter``), power (CR 208.1), the life total (CR 119.1) or the party (CR 700.8).
    ``fixed`` is a plain number."""

    text: str
    filter: Filter | None = None
    devotion: tuple[str, ...] = ()
    domain: bool = False
    counter: str | None = None
    fixed: int | None = None
    power: str | None = None
    """CR 208.1: ``"self"`` ("~'s power") or ``"greatest"`` ("the greatest power among <filter>")."""
    life: bool = False
    """CR 119.1: "your life total"."""
    party: bool = False
    """CR 700.8: "creature in your party"."""
    opponents_life_lost: bool = False
    """CR 500.1: the life the controller's opponents lost this turn (the board's this-turn facts)."""
    cost_value: bool = False
    """CR 202.3: "the sacrificed artifact's mana value", "the exiled creature's": of what its cost takes."""
    offset: int = 0
    """Added to the amount read ("X plus one"; "Add {B}, then add an additional {B} for each ...")."""


@dataclass(frozen=True, slots=True)
class ManaEffect:
    """What an "Add ..." instruction adds. ``count`` multiplies every option ("{G} for each creature you
    control"); ``undefined`` names the rule under which it adds nothing (CR 106.5, 903.4f); ``restriction``
    is a spending restriction (CR 106.6: it does not change the mana's type); ``instead`` is what it adds
    when a condition holds ("If you control an Urza's Mine and an Urza's Tower, add {C}{C} instead",
    CR 614.1a); ``commander`` marks "any color in your commander's color identity" (CR 903.4); ``split`` and
    ``colors_of`` are described below."""

    options: tuple[ManaOption, ...]
    count: Amount | None = None
    undefined: str | None = None
    restriction: str | None = None
    instead: tuple[Condition, ManaEffect] | None = None
    commander: bool = False
    split: tuple[str, ...] = ()
    """ "X mana in any combination of {R} and/or {G}": the ``count`` is split in any way among these
    types (each option is then one of them)."""
    cost_of: Filter | None = None
    """ "mana equal to enchanted permanent's mana cost" (Elemental Resonance): each symbol of that cost as
    mana, one of its colors for a symbol of several, generic as colorless (CR 202.1, 107.4)."""
    colors_of: tuple[str, tuple[Filter, ...] | None] | None = None
    """CR 105.2: the colors of permanents: ``("any", filter)`` "one mana of any color among <filter>",
    ``("each", filter)`` "one mana of each color among <filter>"; a None filter is the permanent itself
    ("one mana of any of this creature's colors")."""


_ANY_COLOR: Final = tuple(ManaOption(fixed=(c,)) for c in COLORS)
_COLOR_WORDS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _fixed_alternatives(text: str) -> tuple[ManaOption, ...] | None:
    """ "{G}", "{B} or {G}", "{U}{U}, {U}{R}, or {R}{R}", "{R} or one mana of the chosen color"."""
    pieces = [p.strip() for p in re.split(r",\s*or\s+|,\s*|\s+or\s+", text) if p.strip()]
    options: list[ManaOption] = []
    for piece in pieces:
        if _SYMBOL_RUN.match(piece):
            options.append(ManaOption(fixed=sort_mana(re.findall(r"[WUBRGC]", piece))))
        elif piece == "one mana of the chosen color":
            options.append(ManaOption(chosen=1))
        elif piece == "one mana of any color":
            options.extend(_ANY_COLOR)
        else:
            return None
    return tuple(options) or None


def parse_amount(text: str) -> Amount | None:
    """ "the number of Elves you control", "your devotion to black", "charge counter on ~", "creature you
    control" (after "for each"), "~'s power", "your life total", "X plus one". None when the amount is not
    one read here."""
    text = text.strip()
    if m := re.fullmatch(r"(.+) plus (one|two|three|\d+)", text):
        base = parse_amount(m.group(1))
        extra = NUMBER_WORDS.get(m.group(2)) if not m.group(2).isdigit() else int(m.group(2))
        if base is None or extra is None:
            return None
        return replace(base, text=text, offset=base.offset + extra)
    if text.startswith("the number of basic land types among lands you control"):
        return Amount(text, domain=True)
    if m := re.fullmatch(
        r"your devotion to ((?:white|blue|black|red|green)(?: and (?:white|blue|black|red|green))?)", text
    ):
        return Amount(text, devotion=tuple(_COLOR_WORDS[w] for w in m.group(1).split(" and ")))
    if text == "your devotion to that color":
        return Amount(text, devotion=("*",))
    if text in {"~'s power", "~’s power"}:
        return Amount(text, power="self")
    if m := re.fullmatch(r"the greatest power among (.+)", text):
        flt = parse_filter(m.group(1))
        return None if flt is None else Amount(text, filter=flt, power="greatest")
    if m := re.fullmatch(r"(?:(one|two|\d+) plus )?the (?:sacrificed|exiled) [a-z]{1,20}'s mana value", text):
        plus = m.group(1)
        extra = 0 if plus is None else int(plus) if plus.isdigit() else NUMBER_WORDS[plus]
        return Amount(text, cost_value=True, offset=extra)
    if text == "1 life your opponents have lost this turn":
        return Amount(text, opponents_life_lost=True)
    if text == "your life total":
        return Amount(text, life=True)
    if text == "creature in your party":
        return Amount(text, party=True)
    if m := re.fullmatch(r"(?:the number of )?([a-z+/\-0-9]+) counters? on ~", text):
        return Amount(text, counter=m.group(1))
    if m := re.fullmatch(r"the number of (.+)", text):
        text = m.group(1)
    flt = parse_filter(text)
    return None if flt is None else Amount(text, filter=flt)


def parse_condition(text: str) -> Condition:
    """The condition of "Activate only ..." (without those words) or of an "If ..., ... instead"."""
    text = text.strip().rstrip(".")
    body = text.removeprefix("if ").removeprefix("If ")
    if text in {"during your turn"}:
        return Condition(text, "your_turn")
    if re.fullmatch(
        r"(?:as a sorcery|as an instant|once each turn)(?: and only (?:as a sorcery|once each turn))?", text
    ):
        return Condition(text, "timing")
    if m := re.fullmatch(r"(.+) have total power (\w+) or greater", body):
        flt, n = parse_filter(m.group(1)), NUMBER_WORDS.get(m.group(2), None)
        if n is None and m.group(2).isdigit():
            n = int(m.group(2))
        if flt is not None and n is not None:  # formidable (CR 208.1: their powers added up)
            return Condition(text, "total_power", ((flt, n),))
    if m := re.fullmatch(r"~ has an? ([a-z+/\-0-9]{1,20}) counter on it", body):
        return Condition(text, "counter", ((Filter(itself=True, counter=m.group(1)), 1),))
    if m := re.fullmatch(r"you control (.+)", body):
        needs: list[tuple[Filter, int]] = []
        for part in m.group(1).split(" and "):
            need = _control_need(part.strip())
            if need is None:
                return Condition(text, "unknown")
            needs.append(need)
        return Condition(text, "control", tuple(needs))
    return Condition(text, "unknown")


def _control_need(part: str) -> tuple[Filter, int] | None:
    """ "three or more artifacts", "an Island", "an Urza's Power-Plant" → (filter, at least n)."""
    n = 1
    if m := re.fullmatch(r"(\w+) or more (.+)", part):
        count = NUMBER_WORDS.get(m.group(1))
        if count is None:
            return None
        n, part = count, m.group(2)
    elif m := re.fullmatch(r"(?:a|an) (.+)", part):
        part = m.group(1)
    if m := re.fullmatch(r"Urza['’]s ([A-Za-z-]+)", part):
        sub = _subtype_word(m.group(1))
        if sub is None:
            return None
        return Filter(types=("Land",), all_subtypes=("Urza's", sub), controller="you"), n
    flt = parse_filter(part)
    return None if flt is None else (replace(flt, controller="you"), n)


def _filters_and(phrase: str) -> tuple[Filter, ...] | None:
    """ "legendary creatures and planeswalkers you control": the permanents either names (the controller
    phrase belongs to both)."""
    if (one := parse_filter(phrase)) is not None:
        return (one,)
    suffix = next((s for s, _who in _CONTROLLERS if phrase.endswith(s)), "")
    parts = phrase[: len(phrase) - len(suffix)].split(" and ")
    if len(parts) != 2:
        return None
    found = tuple(parse_filter(p + suffix) for p in parts)
    return tuple(f for f in found if f is not None) if all(f is not None for f in found) else None


def parse_add(sentence: str) -> ManaEffect | None:
    """Read one "Add ..." sentence (without the final period); None when the template is unknown."""
    m = re.fullmatch(r"[Aa]dd (.+)", sentence)
    if m is None:
        return None
    body = m.group(1)
    if fixed := _fixed_alternatives(body):
        return ManaEffect(fixed)
    if m2 := re.fullmatch(r"((?:\{[WUBRGC]\})+) for each (.+)", body):
        each = parse_amount(m2.group(2))
        if each is None:
            return None
        return ManaEffect((ManaOption(fixed=sort_mana(re.findall(r"[WUBRGC]", m2.group(1)))),), count=each)
    if (m2 := re.fullmatch(r"(one mana of any color) for each (.+)", body)) and (
        each := parse_amount(m2.group(2))
    ):
        return ManaEffect(_ANY_COLOR, count=each)
    if m2 := re.fullmatch(r"(?:an amount of|a number of) (\{[WUBRGC]\}) equal to (.+)", body):
        amount = parse_amount(m2.group(2))
        return None if amount is None else ManaEffect((ManaOption(fixed=(m2.group(1)[1],)),), count=amount)
    if m2 := re.fullmatch(
        r"X mana (of any one color|in any combination of colors|of any one type), where X is (.+)", body
    ):
        amount = parse_amount(m2.group(2))
        if amount is None:
            return None
        kinds = COLORS if "color" in m2.group(1) else MANA_TYPES
        options = tuple(ManaOption(fixed=(c,)) for c in kinds)
        # "any combination": the amount is split among the colors in any way (see production)
        return ManaEffect(options, count=amount, split=COLORS if "combination" in m2.group(1) else ())
    if m2 := re.fullmatch(
        r"X mana in any combination of \{([WUBRGC])\} and/or \{([WUBRGC])\}, where X is (.+)", body
    ):
        amount = parse_amount(m2.group(3))
        if amount is None:
            return None
        pair = sort_mana((m2.group(1), m2.group(2)))
        return ManaEffect(tuple(ManaOption(fixed=(c,)) for c in pair), count=amount, split=pair)
    if m2 := re.fullmatch(
        r"((?:\{[WUBRGC]\})+), then add an additional ((?:\{[WUBRGC]\})+) for each (.+)", body
    ):
        each = parse_amount(m2.group(3))  # the mana batteries: one, plus one more for each
        if each is None or m2.group(1) != m2.group(2):
            return None
        symbols = sort_mana(re.findall(r"[WUBRGC]", m2.group(1)))
        return ManaEffect((ManaOption(fixed=symbols),), count=replace(each, offset=each.offset + 1))
    if m2 := re.fullmatch(r"one mana of (any|each) color among (.+)", body):
        among = _filters_and(m2.group(2))  # Mox Amber, Bloom Tender
        return None if among is None else ManaEffect(_ANY_COLOR, colors_of=(m2.group(1), among))
    if m2 := re.fullmatch(r"mana equal to ((?:enchanted|equipped) [a-z]{1,20})['’]s mana cost", body):
        whose = parse_filter(m2.group(1))
        return None if whose is None else ManaEffect((), cost_of=whose)
    if body in {"one mana of any of this creature's colors", "one mana of any of ~'s colors"}:
        return ManaEffect(_ANY_COLOR, colors_of=("any", None))  # Katilda's grant
    if m2 := re.fullmatch(
        r"(?:an amount of mana of that color equal to|one mana of that color for each) (.+)", body
    ):  # after "Choose a color." (Nykthos, Astral Cornucopia)
        amount = parse_amount(m2.group(1))
        return None if amount is None else ManaEffect(_ANY_COLOR, count=amount)
    if m2 := re.fullmatch(r"(\w+) mana of any one color", body):
        n = NUMBER_WORDS.get(m2.group(1))
        return None if n is None else ManaEffect(tuple(ManaOption(fixed=(c,) * n) for c in COLORS))
    if m2 := re.fullmatch(r"(\w+) mana in any combination of colors", body):
        n = NUMBER_WORDS.get(m2.group(1))
        if n is None or n > 6:
            return None
        return ManaEffect(
            tuple(ManaOption(fixed=combo) for combo in combinations_with_replacement(COLORS, n))
        )
    if m2 := re.fullmatch(r"(\w+) \{([WUBRGC])\}", body):  # "Add six {G}" (Castle Garenbrig)
        n = NUMBER_WORDS.get(m2.group(1))
        return None if n is None or n > 100 else ManaEffect((ManaOption(fixed=(m2.group(2),) * n),))
    if m2 := re.fullmatch(r"(\w+) mana in any combination of \{([WUBRGC])\} and/or \{([WUBRGC])\}", body):
        n = NUMBER_WORDS.get(m2.group(1))  # Goblin Clearcutter: every split of n between the two types
        if n is None or n > 20:
            return None
        pair = sort_mana((m2.group(2), m2.group(3)))
        return ManaEffect(tuple(ManaOption(fixed=c) for c in combinations_with_replacement(pair, n)))
    if m2 := re.fullmatch(r"(\w+) mana of different colors", body):  # Firemind Vessel, Guild Globe
        n = NUMBER_WORDS.get(m2.group(1))
        if n is None or n > len(COLORS):
            return None
        return ManaEffect(tuple(ManaOption(fixed=c) for c in combinations(COLORS, n)))
    if m2 := re.fullmatch(r"one mana of any (type|color) (?:that )?(.+) could produce", body):
        phrase = m2.group(2)
        if phrase == "the sacrificed land":
            # Squandered Resources: the sacrificed land is a land its controller controls.
            flt: Filter | None = Filter(types=("Land",), controller="you")
        else:
            flt = parse_filter(phrase)
        return None if flt is None else ManaEffect((ManaOption(reference=Reference(m2.group(1), flt)),))
    if body in {
        "one mana of any color in your commander's color identity",
        "one mana of any color in your commander’s color identity",
    }:
        return ManaEffect(_ANY_COLOR, commander=True)
    return None


_SENTENCE = re.compile(r"(?<=[.])\s+(?=[A-Z\"~])")
_HARMLESS = re.compile(
    r"^(?:~ deals \d+ damage to you|It deals \d+ damage to you|You lose \d+ life|You gain \d+ life"
    r"|Until end of turn, you don't lose this mana as steps and phases end"
    r"|(?:If|When) (?:that|this) mana is spent .*|(?:If|When) you spend this mana .*"
    r"|You can't spend this mana .*"
    r"|Spend this mana only .*)$"
)
_SPENT_TRIGGER = re.compile(r"^(?:If|When|Whenever) (?:that|this) mana is spent\b")
_DELAYED = re.compile(r"^When you (?:next )?cast your next spell this turn\b")
"""CR 603.7a: a delayed triggered ability the effect creates; it and the sentences after it are its own."""
_EFFECT_FORMS: Final = (
    # CR 106.4: the player who adds the mana may be chosen: choosing oneself, it is one's own mana
    (re.compile(r"^(?:Choose a player\. That player|A player of your choice) adds "), "Add "),
    (re.compile(r" they choose(?=\.|$)"), ""),
    # "You add {B}{B} and draw a card": two instructions
    (re.compile(r"(?<=\. )You add ([^.]{1,80}?) and draw a card(?=\.|$)"), r"Add \1. Draw a card"),
    # "Draw a card, then add ...": two instructions
    (re.compile(r"^(Draw a card|Untap ~), then add "), r"\1. Add "),
    # CR 105.2: the colors among permanents (Bloom Tender, Meteor Crater)
    (
        re.compile(r"^For each color among ([^,.]{1,80}), add one mana of that color"),
        r"Add one mana of each color among \1",
    ),
    (
        re.compile(r"^Choose a color of ([^.]{1,80})\. Add one mana of that color"),
        r"Add one mana of any color among \1",
    ),
)
_PUT_COUNTER = re.compile(r"^Put an? ([a-z+/\-0-9]{1,20}) counter on ~$")


def _normal_effect(effect: str) -> str:
    """The effect in the forms ``parse_add`` reads (see ``_EFFECT_FORMS``)."""
    for pattern, repl in _EFFECT_FORMS:
        effect = pattern.sub(repl, effect)
    return effect


_INSTEAD = re.compile(r"^If (?P<cond>[^,]+), (?:add (?P<a>.+) instead|instead add (?P<b>.+))$")


@dataclass(frozen=True, slots=True)
class EffectReading:
    mana: ManaEffect | None
    adds_mana: bool
    targets: bool
    problem: str | None
    conditions: tuple[Condition, ...] = ()


def read_effect(effect: str) -> EffectReading:
    """Find the "Add" sentence of an ability's effect and check the other sentences leave mana alone.

    Read beside it: "Activate only ..." (CR 602.5b), spending restrictions and riders (CR 106.6), and an
    "If ..., add ... instead" (CR 614.1a)."""
    effect = _normal_effect(effect)
    sentences = [s.strip().rstrip(".") for s in _SENTENCE.split(effect.strip()) if s.strip()]
    for k, sentence in enumerate(sentences):
        if _DELAYED.match(sentence):  # CR 603.7a: the rest is the delayed trigger's (Codie)
            sentences = sentences[:k]
            break
    # CR 605.1a, 603.7: a target of the delayed trigger the mana sets up ("When that mana is spent to cast
    # ..., copy that spell and you may choose new targets", Pyromancer's Goggles) is not the ability's.
    own = [s for s in sentences if not _SPENT_TRIGGER.match(s)]
    targets = any(re.search(r"\btargets?\b", s) for s in own)
    conditions = tuple(
        parse_condition(s.removeprefix("Activate only ")) for s in sentences if s.startswith("Activate only ")
    )
    sentences = [s for s in sentences if not s.startswith("Activate only ") and s != "Choose a color"]
    adds = [s for s in sentences if re.match(r"Add\b", s)]
    # a quoted ability is another object's (CR 111.4, 613.1f): its "Add" is not this effect's
    mentions = bool(re.search(r"\badds?\b", _QUOTED.sub('""', effect), re.IGNORECASE))
    if not adds:
        if mentions:
            return EffectReading(
                None, True, targets, "adds mana in a way this reader does not know", conditions
            )
        return EffectReading(None, False, targets, None, conditions)
    if len(adds) > 1:
        return EffectReading(None, True, targets, "more than one 'Add' instruction", conditions)
    mana = parse_add(adds[0])
    if mana is None:
        return EffectReading(None, True, targets, f"unknown mana template: {adds[0]!r}", conditions)
    restriction = None
    instead: tuple[Condition, ManaEffect] | None = None
    for s in sentences:
        if s is adds[0]:
            continue
        if s.startswith(("Spend this mana only", "You can't spend this mana")):
            restriction = s + "."
        elif (m := _INSTEAD.match(s)) and instead is None:
            other = parse_add("Add " + (m.group("a") or m.group("b")))
            that = re.fullmatch(r"(\w+) mana of that (?:type|color)", m.group("a") or m.group("b") or "")
            if other is None and that and (n := NUMBER_WORDS.get(that.group(1))) and len(mana.options) == 1:
                # Incubation Druid: n mana of the type the ability's own choice gave (CR 106.7)
                other = replace(mana, count=Amount(that.group(0), fixed=n))
            if other is None:
                return EffectReading(None, True, targets, f"unknown mana template: {s!r}", conditions)
            instead = (parse_condition(m.group("cond")), other)
        elif re.search(r"\b(?:add|adds|instead|mana)\b", s, re.IGNORECASE) and not _HARMLESS.match(s):
            return EffectReading(
                None, True, targets, f"a sentence that may change the mana: {s!r}", conditions
            )
    before = sentences[: sentences.index(adds[0])]
    if mana.count is not None and mana.count.counter is not None:
        # "Put a charge counter on ~. Add X mana ..., where X is the number of charge counters on ~":
        # the counter is put on first (CR 608.2c), so X counts it
        put = sum(1 for b in before if (pm := _PUT_COUNTER.match(b)) and pm.group(1) == mana.count.counter)
        mana = replace(mana, count=replace(mana.count, offset=mana.count.offset + put))
    mana = replace(mana, restriction=restriction, instead=instead)
    return EffectReading(mana, True, targets, None, conditions)


# ------------------------------------------------------------------------------------ activated abilities


@dataclass(frozen=True, slots=True)
class ActivatedText:
    """An activated ability read from text (CR 602.1: "[Cost]: [Effect]").

    ``is_mana_ability`` follows CR 605.1a (no target, could add mana, not a loyalty ability); it is None
    when the reader could not tell whether the effect adds mana. ``problem`` says what was not understood.
    """

    cost: tuple[CostPart, ...]
    effect: str
    mana: ManaEffect | None
    is_mana_ability: bool | None
    is_loyalty: bool
    problem: str | None
    conditions: tuple[Condition, ...] = ()

    @property
    def cost_text(self) -> str:
        return cost_text(self.cost)

    @property
    def has_tap(self) -> bool:
        return any(p.kind == "tap" for p in self.cost)

    @property
    def has_untap(self) -> bool:
        return any(p.kind == "untap" for p in self.cost)


_ACTIVATED = re.compile(r"^(?P<cost>[^:\"]+?):\s+(?P<effect>.+)$")
_COST_START = re.compile(
    r"^(?:\{|\[?[+\-−]?(?:\d+|X)\b|Pay |Sacrifice |Discard |Tap |Untap |Remove |Exile |Put |"
    r"Return |Reveal |Mill |Collect )"
)


def _removed_counters(effect: str, cost: tuple[CostPart, ...]) -> str:
    """The effect with the counters its cost removes from the permanent read as the counters on it: the
    most it can remove, and so the most mana (removing fewer adds less, CR 118.3 lets one choose). "{B}
    for each storage counter removed this way" reads "for each storage counter on ~", "Add X mana ..."
    (X the counters removed) "... where X is the number of storage counters on ~"."""
    for part in cost:
        if (
            part.kind == "sacrifice"
            and part.amount == -1
            and part.filter is not None
            and "where X" not in effect
        ):
            noun = part.text.removeprefix("Sacrifice X ")  # "Sacrifice X Goats: Add X mana": at most all
            effect = re.sub(
                r"^(Add X mana [^.]{1,200})", rf"\1, where X is the number of {noun} you control", effect
            )
        if part.kind != "remove_counters" or part.counter is None:
            continue
        kind = part.counter
        effect = effect.replace(f"{kind} counter removed this way", f"{kind} counter on ~")
        if " X " in part.text and "where X is" not in effect:
            effect = re.sub(
                r"^(Add X mana [^.]{1,200})", rf"\1, where X is the number of {kind} counters on ~", effect
            )
            effect = effect.replace("equal to X", f"equal to the number of {kind} counters on ~")
    return effect


@text_cache(entries=8192, chars=1_000_000)  # bounded in bytes too: the texts are the client's
def parse_activated(line: str, self_name: str = "~") -> ActivatedText | None:
    """Read ``line`` as an activated ability; None when it is not of the form ``COST: EFFECT``."""
    m = _ACTIVATED.match(line.strip())
    if m is None or not _COST_START.match(m.group("cost")):
        return None
    cost = parse_cost(m.group("cost"), self_name)
    effect = m.group("effect").strip()
    loyalty = any(p.kind == "loyalty" for p in cost)
    reading = read_effect(_removed_counters(effect, cost))
    if loyalty or reading.targets:
        is_mana: bool | None = False  # CR 605.1a, 605.5a
    elif reading.problem is not None:
        is_mana = None
    else:
        is_mana = reading.adds_mana
    return ActivatedText(cost, effect, reading.mana, is_mana, loyalty, reading.problem, reading.conditions)


# -------------------------------------------------------------------------------------- static effects


@dataclass(frozen=True, slots=True)
class TypeChange:
    """A layer-4 land type change (CR 613.1d). ``mode`` "set" replaces land types and removes the land's
    own abilities (CR 305.7); "add" keeps them ("in addition to its other types")."""

    mode: str
    land_types: tuple[str, ...]
    filter: Filter


@dataclass(frozen=True, slots=True)
class Grant:
    """A layer-6 ability grant (CR 613.1f): quoted activated abilities, or a keyword such as haste."""

    filter: Filter
    abilities: tuple[str, ...] = ()
    keyword: str | None = None
    condition: Condition | None = None
    """ "As long as ..." (CR 611.3a: the effect applies only while the condition holds)."""


@dataclass(frozen=True, slots=True)
class ProductionReplacement:
    """A replacement effect on tapping for mana (CR 106.12b, 614). ``mode``: "fixed" (produces exactly
    ``mana`` "instead of any other type and amount"), "type" (each mana becomes ``mana[0]``), "color" (the
    mana becomes as much of one color of the player's choice), "one_color" (one mana of a color of the
    player's choice "instead of any other type and amount"), "multiply"
    (``factor`` times as much)."""

    mode: str
    filter: Filter
    mana: tuple[str, ...] = ()
    factor: int = 1
    min_amount: int = 0
    """Damping Sphere: only a production of at least this many mana is replaced."""


@dataclass(frozen=True, slots=True)
class ManaTrigger:
    """A triggered mana ability on tapping for mana (CR 106.12a, 605.1b). ``same_type``: "one mana of any
    type that land produced"; otherwise ``options`` are added ("an additional {G}")."""

    filter: Filter
    same_type: bool = False
    options: tuple[ManaOption, ...] = ()
    needs: str | None = None
    """The trigger event needs this mana among what was produced: a type (Forsaken Monument's "for {C}")
    or ``"chosen"``, the source's chosen color (Caged Sun, Gauntlet of Power)."""
    count: Amount | None = None
    """ "an additional {G} for each Elf on the battlefield" (Elvish Guidance): read on the board."""
    same_name: bool = False
    """``same_type`` once for each other land its controller controls with the tapped land's name."""


@dataclass(frozen=True, slots=True)
class FaceMana:
    """Everything mana-related read from one face's text; ``problems`` pairs an unread line with why."""

    activated: tuple[ActivatedText, ...] = ()
    type_changes: tuple[TypeChange, ...] = ()
    grants: tuple[Grant, ...] = ()
    replacements: tuple[ProductionReplacement, ...] = ()
    triggers: tuple[ManaTrigger, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()
    lines: tuple[tuple[str, str], ...] = ()
    """Each line of text (reminder removed) with what became of it: ``mana`` (a mana ability read),
    ``ability`` (another activated ability), ``static`` (an effect read), ``problem`` (warned), ``other``."""


def strip_reminder(text: str) -> str:
    """Remove reminder text (CR 207.2: parenthesized text is no rule)."""
    return _REMINDER.sub("", text).strip()


def _land_types(words: str) -> tuple[str, ...] | None:
    if words in {"every basic land type", "all basic land types"}:
        return tuple(BASIC_LAND_TYPES)
    out = []
    for w in (x.strip() for x in re.split(r",\s*(?:and\s+)?|\s+and\s+", words)):
        w = re.sub(r"^(?:a|an)\s+", "", w)
        found = _BASIC_PLURALS.get(w.casefold())
        if found is None:
            return None
        out.append(found)
    return tuple(out)


_TYPE_ADD = re.compile(
    r"^(?P<who>.+?) (?:is|are) (?P<types>.+?) in addition to (?:its|their) other (?:land )?types$"
)
_TYPE_SET = re.compile(r"^(?P<who>.+?) (?:is|are) (?P<types>.+)$")
_GRANT = re.compile(
    r'^(?:As long as (?P<cond>[^,"]{1,80}), )?(?P<who>[^"]+?) (?:gets [+\-]\d+/[+\-]\d+ and )?ha(?:s|ve) '
    r'(?:(?:[a-z]+, )*[a-z]+ and )?"(?P<a>[^"]+)"(?: and "(?P<b>[^"]+)")?$'
)
"""CR 613.1f: "<permanents> have "<ability>"", after keywords it also grants and a power change (layer
7c, not read), under an "As long as" condition (CR 611.3a)."""
_SUBJECT_IS = re.compile(r"^(?P<subj>enchanted permanent|equipped creature|~) is (?P<what>.+)$")


def _grant_subject(cond: str) -> tuple[Filter, Condition | None] | None:
    """ "As long as enchanted permanent is a land, it has ...": the permanents "it" names and what is left
    of the condition (None: nothing, the filter says it all)."""
    m = _SUBJECT_IS.match(cond)
    if m is None:
        return None
    attached = m.group("subj") != "~"
    base = Filter(enchanted=True) if attached else Filter(itself=True)
    what = m.group("what")
    if attached and (t := re.fullmatch(r"an? (artifact|creature|enchantment|land|planeswalker)", what)):
        return replace(base, types=(t.group(1).capitalize(),)), None
    if not attached and what == "modified":
        return base, Condition(cond, "modified")
    if not attached and re.fullmatch(r"in (?:your|a) graveyard", what):
        return base, Condition(cond, "never")  # CR 113.6b: it functions only in the graveyard
    return base, Condition(cond, "unknown")


_HASTE = re.compile(r"^(?P<who>.+?) ha(?:s|ve) haste$")
_REPL = re.compile(
    r"^If (?:(?P<you>you tap) (?P<w1>.+?)|(?P<w2>.+?) is tapped) for mana, it produces (?P<what>.+?) instead"
    r"(?P<rest>.*)$"
)
_TRIG = re.compile(
    r"^Whenever (?:(?P<player>a player|you) taps? (?P<w1>.+?)|(?P<w2>.+?) is tapped) for mana, "
    r"(?:that player |its controller )?adds? (?P<what>.+)$"
)


def _norm(line: str, name: str) -> str:
    text = line.replace(name, "~") if name else line
    short = name.split(",")[0]
    if short and short != name:
        text = text.replace(short, "~")
    return text.strip().rstrip(".")


_CAGED_SUN = re.compile(
    r"^Whenever (?:a land's|a land’s) ability causes you to add one or more mana of the chosen color, "
    r"add one additional mana of that color$"
)
_GAUNTLET = re.compile(
    r"^Whenever (?P<who>.+?) is tapped for mana of the chosen color, its controller adds an additional "
    r"(?:one )?mana of that color$"
)
_FOR_TYPE = re.compile(
    r"^Whenever you tap (?P<who>.+?) for \{(?P<t>[WUBRGC])\}, add an additional \{(?P=t)\}$"
)
_DAMPING = re.compile(
    r"^If (?P<who>.+?) is tapped for (?P<n>\w+) or more mana, it produces \{(?P<m>[WUBRGC])\} instead of any "
    r"other type and amount$"
)
_TRIGGER_RIDERS = re.compile(
    r"(?:, and ~ deals \d+ damage to (?:the|that) player|\. That land doesn't untap during its controller's "
    r"next untap step)$"
)


def _read_mana_effect_on(line: str) -> ProductionReplacement | ManaTrigger | None:
    """Effects on mana abilities (CR 106.12, 605.1b, 614.1a) with their own templates: Caged Sun, Gauntlet
    of Power, Forsaken Monument, Damping Sphere. A rider that leaves mana alone (damage to the player,
    "doesn't untap") is dropped first."""
    line = _TRIGGER_RIDERS.sub("", line)
    if _CAGED_SUN.match(line):
        return ManaTrigger(
            Filter(types=("Land",), controller="you"), options=(ManaOption(chosen=1),), needs="chosen"
        )
    if m := _GAUNTLET.match(line):
        flt = parse_filter(m.group("who"))
        if flt is not None:
            return ManaTrigger(flt, options=(ManaOption(chosen=1),), needs="chosen")
    if m := _FOR_TYPE.match(line):
        flt = parse_filter(m.group("who"))
        if flt is not None:
            t = m.group("t")
            return ManaTrigger(replace(flt, controller="you"), options=(ManaOption(fixed=(t,)),), needs=t)
    if m := _DAMPING.match(line):
        flt, n = parse_filter(m.group("who")), NUMBER_WORDS.get(m.group("n"))
        if flt is not None and n is not None:
            return ProductionReplacement("fixed", flt, mana=(m.group("m"),), min_amount=n)
    return None


_LOSES_ALL = re.compile(
    r'^(?P<who>[^"]{1,60}?) loses all land types and abilities and has "(?P<a>[^"]+)"'
    r'(?: and "(?P<b>[^"]+)")?$'
)
_SWAPS = re.compile(r"^If tapped for mana, (?P<list>[^.]{1,300}) instead of any other type$")


def _until_end_of_turn(effect: str) -> ProductionReplacement | None:
    """ "Until end of turn, if you tap a land you control for mana, it produces {U} instead of any other
    type": the replacement effect an ability creates for a duration (CR 611.2), read as a static one."""
    m = re.fullmatch(r"Until end of turn, if (.+?)\.?", effect.strip())
    if m is None:
        return None
    read = _read_static("If " + m.group(1))
    return read if isinstance(read, ProductionReplacement) else None


def _read_type_swaps(line: str) -> tuple[ProductionReplacement, ...] | None:
    """ "If tapped for mana, Plains produce {R}, Islands produce {G}, ... instead of any other type"
    (Reality Twist): one type-changing replacement per land type (CR 106.12b, 614.1a)."""
    m = _SWAPS.match(line)
    if m is None:
        return None
    out = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group("list")):
        pm = re.fullmatch(r"(\w+) produce \{([WUBRGC])\}", part.strip())
        land = _BASIC_PLURALS.get(pm.group(1).casefold()) if pm else None
        if pm is None or land is None:
            return None
        out.append(
            ProductionReplacement("type", Filter(types=("Land",), subtypes=(land,)), mana=(pm.group(2),))
        )
    return tuple(out)


def _read_static(line: str) -> TypeChange | Grant | ProductionReplacement | ManaTrigger | None:
    if (effect := _read_mana_effect_on(line)) is not None:
        return effect
    line = _TRIGGER_RIDERS.sub("", line)
    if m := _TYPE_ADD.match(line):
        flt, types = parse_filter(m.group("who")), _land_types(m.group("types"))
        if flt is not None and types is not None:
            return TypeChange("add", types, flt)
    if m := _GRANT.match(line):
        cond, who = m.group("cond"), m.group("who")
        condition = None if cond is None else parse_condition(cond)
        if who == "it" and cond is not None:
            subject = _grant_subject(cond)
            flt, condition = subject if subject is not None else (None, None)
        else:
            flt = parse_filter(who)
            if condition is not None and condition.kind == "unknown" and (sub := _grant_subject(cond)):
                condition = sub[1] if sub[1] is not None else condition
        if flt is not None:
            texts = tuple(t for t in (m.group("a"), m.group("b")) if t)
            return Grant(flt, abilities=texts, condition=condition)
    if m := _HASTE.match(line):
        flt = parse_filter(m.group("who"))
        if flt is not None:
            return Grant(flt, keyword="Haste")
    if m := _REPL.match(line):
        flt = parse_filter(m.group("w1") or m.group("w2"))
        if flt is not None and m.group("you"):
            flt = replace(flt, controller="you")
        what, rest = m.group("what"), m.group("rest").strip()
        if flt is not None:
            if mult := re.fullmatch(r"(twice|three times|four times) as much of that mana", what):
                factor = {"twice": 2, "three times": 3, "four times": 4}[mult.group(1)]
                if rest == "":
                    return ProductionReplacement("multiply", flt, factor=factor)
            kind = {"of any other type and amount": "fixed", "of any other type": "type"}.get(rest)
            if what == "mana of a color of your choice" and kind == "type":
                return ProductionReplacement("color", flt)  # Pulse of Llanowar
            if what == "one mana of a color of your choice" and kind == "fixed":
                return ProductionReplacement("one_color", flt)  # Harvest Mage
            sym = re.fullmatch(r"\{([WUBRGC])\}", what)
            mana = sym.group(1) if sym else ("C" if what == "colorless mana" else None)
            if kind is not None and mana is not None:
                return ProductionReplacement(kind, flt, mana=(mana,))
    if m := _TRIG.match(line):
        flt = parse_filter(m.group("w1") or m.group("w2"))
        if flt is not None and m.group("player") == "you":
            flt = replace(flt, controller="you")
        what = m.group("what")
        if flt is not None:
            if re.fullmatch(r"one mana of any type that (?:land|permanent) produced", what):
                return ManaTrigger(flt, same_type=True)
            if re.fullmatch(
                r"an additional one mana of any type that land produced for each other land you control "
                r"with the same name as it",
                what,
            ):  # Sasaya's Essence (CR 201.2)
                return ManaTrigger(flt, same_type=True, same_name=True)
            if m2 := re.fullmatch(r"an additional (.+)", what):
                eff = parse_add("Add " + m2.group(1))
                if eff is not None and eff.undefined is None and not eff.split and eff.colors_of is None:
                    return ManaTrigger(flt, options=eff.options, count=eff.count)
    if m := _TYPE_SET.match(line):
        flt, types = parse_filter(m.group("who")), _land_types(m.group("types"))
        if flt is not None and types is not None:
            return TypeChange("set", types, flt)
    return None


_MANA_RELATED = re.compile(
    r"for mana|could produce|produces? [^.]{0,80}instead|"
    r"ha(?:s|ve) [^.]*\"[^\"]*\bAdd\b|lands?\b[^.]*\b(?:is|are)\b (?:a |an |every )?"
    r"(?:basic land type|Plains|Islands?|Swamps?|Mountains?|Forests?)\b|land types? and abilities",
    re.IGNORECASE,
)
_IGNORABLE = re.compile(
    r"^(?:Enchant .*|As ~ enters(?: the battlefield)?, choose a color|Whenever .* for mana, ~ deals .*"
    r"|Whenever an opponent taps a land for mana, that land doesn't untap during its controller's next "
    r"untap step"
    r"|.*\bcreates?\b.*|Landfall — .*)$"
)


_PRODUCES_INSTEAD = re.compile(r"\bproduces?\b[^.]{0,80}\binstead\b", re.IGNORECASE)
_ABILITY_WORD = re.compile(r"^(?![IVX]+(?:, [IVX]+)* — )(?:• )?[A-Z][A-Za-z'’ -]{0,30} — (?=\S)")
"""An ability word or a mode label before an ability (CR 207.2c, 700.2): "Metalcraft — ", "• Khans — "."""
_ADDS_MANA = re.compile(r"\badds?\b[^.]{0,200}?(?:\{[WUBRGCX]\}|\bmana\b)", re.IGNORECASE)
_TRIGGER = re.compile(r"^(?:When|Whenever|At|(?:[IVX]+, )*[IVX]+ —|Cumulative upkeep ?—) ?")
"""CR 603.1 triggered abilities, 714.2b chapter abilities, 702.24a cumulative upkeep (a trigger whose cost
adds mana)."""
_DELAYED_AT = re.compile(r"\b[Aa]t the beginning of [^,.]{1,80}, add ")
"""CR 603.7a: a delayed triggered ability ("If you do, at the beginning of your first main phase, add")."""
_REMOVE_ALL = re.compile(r"\bremove all ([a-z+/\-0-9]{1,20}) counters from (?:~|it)(?!\w)")
_QUOTED = re.compile(r'"[^"]*"')
_CREATES = re.compile(r"\b(?:creates?|tokens?|emblem|gains?|becomes?)\b")
_QUOTED_ADD = re.compile(r'"[^"]*\bAdd\b[^"]*"')


def _other_mana_line(line: str) -> tuple[str, str | None]:
    """A line that adds mana but is neither an activated ability nor a static effect read above.

    - ``token``: the mana ability is in quotes, an ability of a token or object it creates or grants
      for a duration (CR 111.4, 611.2); that object has it when it is on the board;
    - ``trigger``: a triggered ability (CR 603.1) or chapter ability (CR 714.2b) that adds mana when it
      resolves; not a mana ability, since it does not trigger from one (CR 605.1b), so it pays for nothing
      here. Understood when its "add" is a template read here; otherwise a warning.
    Anything else is a warning."""
    unquoted = _QUOTED.sub('""', line)
    if not _ADDS_MANA.search(unquoted):
        if _CREATES.search(unquoted):
            return "token", None
        return "problem", "a mana ability given to permanents in a way this reader does not know"
    if _TRIGGER.match(line) or _DELAYED_AT.search(line):
        if removed := _REMOVE_ALL.search(unquoted):  # "remove all charge counters from ~. Add ... for each
            kind = removed.group(1)  # charge counter removed this way": the counters it had (CR 122.1)
            unquoted = unquoted.replace(f"{kind} counter removed this way", f"{kind} counter on ~")
        unquoted = _normal_effect(re.sub(r"\bchoose a player\. That player adds\b", "add", unquoted))
        for m in re.finditer(r"\b[Aa]dds? ([^.]+)", unquoted):
            clause = re.split(r" and (?:you |~ )| at the beginning", m.group(1))[0].strip()
            if parse_add("Add " + clause) is None:
                return "problem", "a triggered ability adds mana in a way this reader does not know"
        return "trigger", None
    return "problem", "adds mana in a way this reader does not know"


@text_cache(entries=8192, chars=2_000_000)  # bounded in bytes too: the texts are the client's
def read_text(oracle_text: str, name: str = "") -> FaceMana:
    """Read every line of a face's text (``name`` is replaced by ``~`` for self-references)."""
    activated: list[ActivatedText] = []
    type_changes: list[TypeChange] = []
    grants: list[Grant] = []
    replacements: list[ProductionReplacement] = []
    triggers: list[ManaTrigger] = []
    problems: list[tuple[str, str]] = []
    lines: list[tuple[str, str]] = []
    for raw in strip_reminder(oracle_text).splitlines():
        line = _norm(strip_reminder(raw), name)
        if not line:
            continue
        line = _ABILITY_WORD.sub("", line, count=1)  # CR 207.2c: an ability word has no rules meaning
        ability = parse_activated(line + ".", "~")
        if ability is not None:
            activated.append(ability)
            if ability.problem is not None:
                problems.append((raw.strip(), ability.problem))
                lines.append((raw.strip(), "problem"))
            elif (
                ability.mana is None and _PRODUCES_INSTEAD.search(line) and _until_end_of_turn(ability.effect)
            ):
                # CR 611.2, 614.1a: the effect it creates replaces what lands produce until end of turn
                # (Deep Water, Harvest Mage); read, it applies once the ability has resolved
                lines.append((raw.strip(), "token"))
            elif ability.mana is None and _PRODUCES_INSTEAD.search(line):
                # CR 106.12b, 614.1a: an activated ability whose effect replaces what lands produce
                # in a way not read here, so said ("nothing silent").
                problems.append(
                    (raw.strip(), "an ability whose effect changes the mana lands produce: not read here")
                )
                lines.append((raw.strip(), "problem"))
            elif (
                ability.mana is None and _QUOTED_ADD.search(line) and _CREATES.search(_QUOTED.sub('""', line))
            ):
                # CR 111.4, 611.2: the mana ability is that of a token it creates or of an object it
                # gives it to for a while: that object has it once it is on the board
                lines.append((raw.strip(), "token"))
            else:
                lines.append((raw.strip(), "mana" if ability.mana is not None else "ability"))
            continue
        if (m := _LOSES_ALL.match(line)) and (flt := parse_filter(m.group("who"))):
            # CR 305.7, 613.1d then 613.1f: no land types and no abilities, then the quoted ones
            type_changes.append(TypeChange("set", (), flt))
            grants.append(Grant(flt, abilities=tuple(t for t in (m.group("a"), m.group("b")) if t)))
            lines.append((raw.strip(), "static"))
            continue
        if (swaps := _read_type_swaps(line)) is not None:
            replacements.extend(swaps)
            lines.append((raw.strip(), "static"))
            continue
        effect = _read_static(line)
        if effect is None and _ADDS_MANA.search(line):
            kind, why = _other_mana_line(line)
            lines.append((raw.strip(), kind))
            if why is not None:
                problems.append((raw.strip(), why))
            continue
        lines.append((raw.strip(), "other" if effect is None else "static"))
        if isinstance(effect, TypeChange):
            type_changes.append(effect)
        elif isinstance(effect, Grant):
            grants.append(effect)
        elif isinstance(effect, ProductionReplacement):
            replacements.append(effect)
        elif isinstance(effect, ManaTrigger):
            triggers.append(effect)
        elif _MANA_RELATED.search(line) and not _IGNORABLE.match(line):
            problems.append((raw.strip(), "a mana-related text this reader does not understand"))
            lines[-1] = (raw.strip(), "problem")
    return FaceMana(
        tuple(activated),
        tuple(type_changes),
        tuple(grants),
        tuple(replacements),
        tuple(triggers),
        tuple(problems),
        tuple(lines),
    )


def read_face(face: Face) -> FaceMana:
    """The mana-related reading of a face's oracle text (cached by text and name)."""
    return read_text(face.oracle_text, face.name)


# ----------------------------------------------------------------------------- a card's produced mana

_ADD_PHRASE: Final = re.compile(r"\b[Aa]dds? ([^.\n]{1,300})")
_ANY_COLOR_WORDS: Final = re.compile(
    r"\b(?:any color|any one color|combination of colors|chosen color|that color)\b"
)
_ANY_TYPE_WORDS: Final = re.compile(r"\bany (?:one )?type\b")


def _effect_types(effect: ManaEffect) -> set[str]:
    out: set[str] = set()
    if effect.undefined is not None:  # CR 106.5: it adds no mana at all
        return out
    for option in effect.options:
        out.update(option.fixed)
        if option.chosen:
            out.update(COLORS)  # CR 105.1: a chosen color is one of the five
        if option.reference is not None:  # CR 106.7: whatever another permanent could produce
            out.update(COLORS if option.reference.what == "color" else MANA_TYPES)
    if effect.commander or effect.colors_of is not None:  # CR 903.4f, 105.2: colors of other objects
        out.update(COLORS)
    if effect.cost_of is not None:  # another permanent's mana cost: any color, generic as colorless
        out.update(MANA_TYPES)
    if effect.instead is not None:  # CR 614.1a: what it adds instead, when the condition holds
        out |= _effect_types(effect.instead[1])
    return out


def _phrase_types(phrase: str) -> set[str]:
    """The mana one "add ..." phrase could add: read by ``parse_add``, else from its symbols and words."""
    effect = parse_add("Add " + phrase.strip())
    if effect is not None:
        return _effect_types(effect)
    out = {m for m in re.findall(r"\{([WUBRGC])\}", phrase)}
    if _ANY_COLOR_WORDS.search(phrase):
        out.update(COLORS)
    if _ANY_TYPE_WORDS.search(phrase):
        out.update(MANA_TYPES)
    return out


def face_produced_mana(face: Face) -> tuple[str, ...]:
    """The mana types (W, U, B, R, G, C) that the abilities of this face could ever add.

    CR 305.6: each basic land type gives "{T}: Add [its mana]"; CR 605.1a and 113.3: every ability of the
    face that adds mana (mana abilities, loyalty abilities, spell abilities, triggered abilities), read as
    ``parse_add`` reads it, else from the symbols and "any color"/"any type" words of its "add" phrase;
    CR 106.7 references ("any color a land you control could produce") count as every color (type).
    Abilities granted to other objects are not the face's own and are not counted.
    """
    out: set[str] = {BASIC_LAND_TYPES[t] for t in face.type_line.basic_land_types}
    text = strip_reminder(face.oracle_text)
    for line in text.splitlines():
        if line.lstrip().startswith(('"', "“")) or re.search(r"\bha(?:ve|s) \"", line):
            continue  # a granted ability in quotes belongs to another object (CR 613.1f)
        for m in _ADD_PHRASE.finditer(line):
            out |= _phrase_types(m.group(1))
    return sort_mana(tuple(out))


def card_produced_mana(card: Card) -> tuple[str, ...]:
    """The mana types any face of ``card`` could ever add (``face_produced_mana``), in WUBRGC order."""
    out: set[str] = set()
    for face in card.faces:
        out.update(face_produced_mana(face))
    return sort_mana(tuple(out))
