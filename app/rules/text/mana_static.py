"""Static effects on mana read from card text: layer-4 land type changes (CR 305.7, 613.1d), layer-6
ability grants (CR 613.1f), replacement effects on mana production (CR 106.12b, 614.1a) and triggered mana
abilities on tapping for mana (CR 106.12a, 605.1b). Each line shape is a template of
``registry("mana-static")`` (``app.rules.text.templates``), tried in order."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from app.rules.text.mana_add import parse_add
from app.rules.text.mana_amounts import Amount, Condition, ManaOption, parse_condition
from app.rules.text.mana_filters import BASIC_PLURALS, Filter, parse_filter
from app.rules.text.templates import registry
from app.rules.values.names import NUMBER_WORDS
from app.rules.values.types import BASIC_LAND_TYPES

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


def _land_types(words: str) -> tuple[str, ...] | None:
    if words in {"every basic land type", "all basic land types"}:
        return tuple(BASIC_LAND_TYPES)
    out = []
    for w in (x.strip() for x in re.split(r",\s*(?:and\s+)?|\s+and\s+", words)):
        w = re.sub(r"^(?:a|an)\s+", "", w)
        found = BASIC_PLURALS.get(w.casefold())
        if found is None:
            return None
        out.append(found)
    return tuple(out)


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


StaticEffect = TypeChange | Grant | ProductionReplacement | ManaTrigger
STATIC: Final = registry("mana-static")
"""The static-effect templates, tried in order on one line of text as the mana reader prepares it
(Oracle's capitals, reminder text removed, the card's name read as ``~``, no final period, and a rider
that leaves mana alone dropped: ``_TRIGGER_RIDERS``)."""
_READERS: Final[dict[str, Callable[[re.Match[str]], tuple[StaticEffect, ...] | None]]] = {}
_TRIGGER_RIDERS = re.compile(
    r"(?:, and ~ deals \d+ damage to (?:the|that) player|\. That land doesn't untap during its controller's "
    r"next untap step)$"
)


def _static(
    name: str,
    pattern: str,
    reader: Callable[[re.Match[str]], tuple[StaticEffect, ...] | None],
    *,
    rule: str,
    examples: tuple[str, ...],
    yields: str,
    shadows: tuple[str, ...] = (),
) -> None:
    STATIC.add(name, pattern, rule=rule, examples=examples, yields=yields, shadows=shadows)
    _READERS[name] = reader


def _loses_all(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    flt = parse_filter(m.group("who"))
    if flt is None:
        return None
    # CR 305.7, 613.1d then 613.1f: no land types and no abilities, then the quoted ones
    grant = Grant(flt, abilities=tuple(t for t in (m.group("a"), m.group("b")) if t))
    return TypeChange("set", (), flt), grant


def _type_swaps(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    """ "If tapped for mana, Plains produce {R}, Islands produce {G}, ... instead of any other type"
    (Reality Twist): one type-changing replacement per land type (CR 106.12b, 614.1a)."""
    out: list[StaticEffect] = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group("list")):
        pm = re.fullmatch(r"(\w+) produce \{([WUBRGC])\}", part.strip())
        land = BASIC_PLURALS.get(pm.group(1).casefold()) if pm else None
        if pm is None or land is None:
            return None
        out.append(
            ProductionReplacement("type", Filter(types=("Land",), subtypes=(land,)), mana=(pm.group(2),))
        )
    return tuple(out)


def _caged_sun(_m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    flt = Filter(types=("Land",), controller="you")
    return (ManaTrigger(flt, options=(ManaOption(chosen=1),), needs="chosen"),)


def _gauntlet(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    flt = parse_filter(m.group("who"))
    return None if flt is None else (ManaTrigger(flt, options=(ManaOption(chosen=1),), needs="chosen"),)


def _for_type(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    flt = parse_filter(m.group("who"))
    if flt is None:
        return None
    t = m.group("t")
    return (ManaTrigger(replace(flt, controller="you"), options=(ManaOption(fixed=(t,)),), needs=t),)


def _damping(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    flt, n = parse_filter(m.group("who")), NUMBER_WORDS.get(m.group("n"))
    if flt is None or n is None:
        return None
    return (ProductionReplacement("fixed", flt, mana=(m.group("m"),), min_amount=n),)


def _type_change(mode: str) -> Callable[[re.Match[str]], tuple[StaticEffect, ...] | None]:
    def read(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
        flt, types = parse_filter(m.group("who")), _land_types(m.group("types"))
        return None if flt is None or types is None else (TypeChange(mode, types, flt),)

    return read


def _grant(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    cond, who = m.group("cond"), m.group("who")
    condition = None if cond is None else parse_condition(cond)
    if who == "it" and cond is not None:
        subject = _grant_subject(cond)
        flt, condition = subject if subject is not None else (None, None)
    else:
        flt = parse_filter(who)
        if condition is not None and condition.kind == "unknown" and (sub := _grant_subject(cond)):
            condition = sub[1] if sub[1] is not None else condition
    if flt is None:
        return None
    texts = tuple(t for t in (m.group("a"), m.group("b")) if t)
    return (Grant(flt, abilities=texts, condition=condition),)


def _haste(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    flt = parse_filter(m.group("who"))
    return None if flt is None else (Grant(flt, keyword="Haste"),)


_FACTORS: Final = {"twice": 2, "three times": 3, "four times": 4}


def _replacement(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    """CR 106.12b, 614.1a: what a land produces instead (Contamination, Mana Reflection, Pulse of Llanowar,
    Harvest Mage)."""
    flt = parse_filter(m.group("w1") or m.group("w2"))
    if flt is None:
        return None
    if m.group("you"):
        flt = replace(flt, controller="you")
    what, rest = m.group("what"), m.group("rest").strip()
    mult = re.fullmatch(r"(twice|three times|four times) as much of that mana", what)
    if mult and rest == "":
        return (ProductionReplacement("multiply", flt, factor=_FACTORS[mult.group(1)]),)
    kind = {"of any other type and amount": "fixed", "of any other type": "type"}.get(rest)
    if what == "mana of a color of your choice" and kind == "type":
        return (ProductionReplacement("color", flt),)  # Pulse of Llanowar
    if what == "one mana of a color of your choice" and kind == "fixed":
        return (ProductionReplacement("one_color", flt),)  # Harvest Mage
    sym = re.fullmatch(r"\{([WUBRGC])\}", what)
    mana = sym.group(1) if sym else ("C" if what == "colorless mana" else None)
    if kind is not None and mana is not None:
        return (ProductionReplacement(kind, flt, mana=(mana,)),)
    return None


def _tapped_trigger(m: re.Match[str]) -> tuple[StaticEffect, ...] | None:
    """CR 106.12a, 605.1b: mana added when a permanent is tapped for mana (Heartbeat of Spring, Wild Growth,
    Sasaya's Essence, Elvish Guidance)."""
    flt = parse_filter(m.group("w1") or m.group("w2"))
    if flt is None:
        return None
    if m.group("player") == "you":
        flt = replace(flt, controller="you")
    what = m.group("what")
    if re.fullmatch(r"one mana of any type that (?:land|permanent) produced", what):
        return (ManaTrigger(flt, same_type=True),)
    if re.fullmatch(
        r"an additional one mana of any type that land produced for each other land you control "
        r"with the same name as it",
        what,
    ):  # Sasaya's Essence (CR 201.2)
        return (ManaTrigger(flt, same_type=True, same_name=True),)
    if m2 := re.fullmatch(r"an additional (.+)", what):
        eff = parse_add("Add " + m2.group(1))
        if eff is not None and eff.undefined is None and not eff.split and eff.colors_of is None:
            return (ManaTrigger(flt, options=eff.options, count=eff.count),)
    return None


_static(
    "loses-all-land-types-and-has",
    r'^(?P<who>[^"]{1,60}?) loses all land types and abilities and has "(?P<a>[^"]+)"'
    r'(?: and "(?P<b>[^"]+)")?$',
    _loses_all,
    rule="305.7",
    examples=('Enchanted land loses all land types and abilities and has "{T}: Add {C}"',),
    yields="a layer-4 type change to no land type and a layer-6 grant of the quoted abilities",
)
_static(
    "land-types-swap-production",
    r"^If tapped for mana, (?P<list>[^.]{1,300}) instead of any other type$",
    _type_swaps,
    rule="106.12b",
    examples=("If tapped for mana, Plains produce {R}, Swamps produce {G}, Mountains produce {W}, "
              "and Forests produce {B} instead of any other type",),
    yields="one type-changing production replacement per basic land type named",
)  # fmt: skip
_static(
    "chosen-color-land-adds-one-more",
    r"^Whenever (?:a land's|a land’s) ability causes you to add one or more mana of the chosen color, "
    r"add one additional mana of that color$",
    _caged_sun,
    rule="106.12a",
    examples=("Whenever a land's ability causes you to add one or more mana of the chosen color, "
              "add one additional mana of that color",),
    yields="a mana trigger on your lands: one more mana of the chosen color",
)  # fmt: skip
_static(
    "tapped-for-chosen-color-adds-more",
    r"^Whenever (?P<who>.+?) is tapped for mana of the chosen color, its controller adds an additional "
    r"(?:one )?mana of that color$",
    _gauntlet,
    rule="106.12a",
    examples=("Whenever a basic land is tapped for mana of the chosen color, its controller adds an "
              "additional one mana of that color",),
    yields="a mana trigger on the named permanents: one more mana of the chosen color",
)  # fmt: skip
_static(
    "tapped-for-type-adds-more",
    r"^Whenever you tap (?P<who>.+?) for \{(?P<t>[WUBRGC])\}, add an additional \{(?P=t)\}$",
    _for_type,
    rule="106.12a",
    examples=("Whenever you tap a permanent for {C}, add an additional {C}",),
    yields="a mana trigger needing that type among the mana produced: one more of it",
)
_static(
    "tapped-for-n-or-more-produces-instead",
    r"^If (?P<who>.+?) is tapped for (?P<n>\w+) or more mana, it produces \{(?P<m>[WUBRGC])\} instead of any "
    r"other type and amount$",
    _damping,
    rule="106.12b",
    examples=(
        "If a land is tapped for two or more mana, it produces {C} instead of any other type and amount",
    ),
    yields="a production replacement applying only from that amount",
)
_static(
    "land-types-in-addition",
    # The lookahead first: without the ending, each "is" would be tried against the whole rest (quadratic).
    r"^(?=.* in addition to (?:its|their) other (?:land )?types$)"
    r"(?P<who>.+?) (?:is|are) (?P<types>.+?) in addition to (?:its|their) other (?:land )?types$",
    _type_change("add"),
    rule="613.1d",
    examples=("Each land is a Swamp in addition to its other land types",
              "Enchanted land is every basic land type in addition to its other types"),
    yields="a layer-4 type change adding land types (the land keeps its abilities)",
)  # fmt: skip
_static(
    "has-quoted-ability",
    r'^(?:As long as (?P<cond>[^,"]{1,80}), )?(?P<who>[^"]+?) (?:gets [+\-]\d+/[+\-]\d+ and )?ha(?:s|ve) '
    r'(?:(?:[a-z]+, )*[a-z]+ and )?"(?P<a>[^"]+)"(?: and "(?P<b>[^"]+)")?$',
    _grant,
    rule="613.1f",
    examples=('Lands you control have "{T}: Add one mana of any color."',
              'Creatures you control have "{T}: Add one mana of any color."'),
    yields="a layer-6 grant of the quoted abilities, under its 'As long as' condition (611.3a)",
    shadows=("loses-all-land-types-and-has",),
)  # fmt: skip
_static(
    "has-haste",
    r"^(?P<who>.+?) ha(?:s|ve) haste$",
    _haste,
    rule="613.1f",
    examples=("Creatures you control have haste",),
    yields="a haste grant (so {T} abilities of creatures can be activated, 302.6)",
)
_static(
    "tapped-for-mana-produces-instead",
    r"^If (?:(?P<you>you tap) (?P<w1>.+?)|(?P<w2>.+?) is tapped) for mana, it produces (?P<what>.+?) instead"
    r"(?P<rest>.*)$",
    _replacement,
    rule="106.12b",
    examples=("If a land is tapped for mana, it produces colorless mana instead of any other type",
              "If you tap a permanent for mana, it produces twice as much of that mana instead"),
    yields="a production replacement: fixed mana, one type, a color of choice, or a multiple",
)  # fmt: skip
_static(
    "tapped-for-mana-adds",
    r"^Whenever (?:(?P<player>a player|you) taps? (?P<w1>.+?)|(?P<w2>.+?) is tapped) for mana, "
    r"(?:that player |its controller )?adds? (?P<what>.+)$",
    _tapped_trigger,
    rule="106.12a",
    examples=("Whenever a player taps a land for mana, that player adds one mana of any type that land "
              "produced",
              "Whenever enchanted land is tapped for mana, its controller adds an additional {G}"),
    yields="a triggered mana ability: the same type again, or the mana of its 'additional' Add",
)  # fmt: skip
_static(
    "land-types-set",
    r"^(?P<who>.+?) (?:is|are) (?P<types>.+)$",
    _type_change("set"),
    rule="305.7",
    examples=("Nonbasic lands are Mountains", "Enchanted land is an Island"),
    yields="a layer-4 type change setting land types: the land loses its other land types and abilities",
    # "<permanents> is|are <anything>": the broadest shape, tried last
    shadows=(
        "land-types-in-addition",
        "tapped-for-chosen-color-adds-more",
        "tapped-for-n-or-more-produces-instead",
        "tapped-for-mana-produces-instead",
        "tapped-for-mana-adds",
    ),
)


def read_static(line: str) -> tuple[StaticEffect, ...] | None:
    """The static mana effects of one line (a riders-free line matched by the templates above), or None."""
    return STATIC.read(_TRIGGER_RIDERS.sub("", line), _READERS)


def until_end_of_turn(effect: str) -> ProductionReplacement | None:
    """ "Until end of turn, if you tap a land you control for mana, it produces {U} instead of any other
    type": the replacement effect an ability creates for a duration (CR 611.2), read as a static one."""
    m = re.fullmatch(r"Until end of turn, if (.+?)\.?", effect.strip())
    if m is None:
        return None
    read = read_static("If " + m.group(1))
    if read is None or len(read) != 1 or not isinstance(read[0], ProductionReplacement):
        return None
    return read[0]
