"""The "Add ..." instruction (CR 106.4: an effect instructs a player to add mana), read by the templates of
``registry("mana")`` (``app.rules.text.templates``) in the order registered here.

A template's sentence is one "Add" sentence as the mana reader prepares it: Oracle's capitals kept,
reminder text removed, the card's name read as ``~`` and no final period ("Add {G} or {W}"). Each template
has a reader turning its match into a ``ManaEffect``; a reader that cannot read the parts (a count that
is not on the board, a number word it does not know) returns None and the next template is tried, so a
sentence no template reads is None and the caller warns (never a guess).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations, combinations_with_replacement
from typing import Final

from app.rules.text.mana_amounts import (
    ManaEffect,
    ManaOption,
    Reference,
    filters_and,
    parse_amount,
)
from app.rules.text.mana_filters import Filter, parse_filter, sort_mana
from app.rules.text.templates import registry
from app.rules.values.names import NUMBER_WORDS
from app.rules.values.symbols import COLORS, MANA_TYPES

_ANY_COLOR: Final = tuple(ManaOption(fixed=(c,)) for c in COLORS)
_SYMBOL_RUN = re.compile(r"^(?:\{[WUBRGC]\})+$")
_SYMBOLS = r"(?:\{[WUBRGC]\})+"
_PIECE = rf"(?:{_SYMBOLS}|one mana of the chosen color|one mana of any color)"
_SEPARATOR = r"(?:,\s*or\s+|,\s*|\s+or\s+)"

ADD: Final = registry("mana")
"""The "Add" templates, most specific shapes first where two could read one sentence."""


def _symbols(text: str) -> tuple[str, ...]:
    return sort_mana(re.findall(r"[WUBRGC]", text))


def _number(word: str, most: int) -> int | None:
    """A number word ("two", "six") up to ``most`` (a bound on the options a template enumerates)."""
    n = NUMBER_WORDS.get(word)
    return None if n is None or n > most else n


def _fixed_alternatives(text: str) -> tuple[ManaOption, ...] | None:
    """ "{G}", "{B} or {G}", "{U}{U}, {U}{R}, or {R}{R}", "{R} or one mana of the chosen color"."""
    pieces = [p.strip() for p in re.split(r",\s*or\s+|,\s*|\s+or\s+", text) if p.strip()]
    options: list[ManaOption] = []
    for piece in pieces:
        if _SYMBOL_RUN.match(piece):
            options.append(ManaOption(fixed=_symbols(piece)))
        elif piece == "one mana of the chosen color":
            options.append(ManaOption(chosen=1))
        elif piece == "one mana of any color":
            options.extend(_ANY_COLOR)
        else:
            return None
    return tuple(options) or None


def _fixed(m: re.Match[str]) -> ManaEffect | None:
    options = _fixed_alternatives(m.group("body"))
    return None if options is None else ManaEffect(options)


def _for_each(m: re.Match[str]) -> ManaEffect | None:
    each = parse_amount(m.group("each"))
    return None if each is None else ManaEffect((ManaOption(fixed=_symbols(m.group("mana"))),), count=each)


def _any_color_for_each(m: re.Match[str]) -> ManaEffect | None:
    each = parse_amount(m.group("each"))
    return None if each is None else ManaEffect(_ANY_COLOR, count=each)


def _amount_of_symbol(m: re.Match[str]) -> ManaEffect | None:
    amount = parse_amount(m.group("amount"))
    return None if amount is None else ManaEffect((ManaOption(fixed=(m.group("t"),)),), count=amount)


def _x_mana(m: re.Match[str]) -> ManaEffect | None:
    amount = parse_amount(m.group("amount"))
    if amount is None:
        return None
    kind = m.group("kind")
    options = tuple(ManaOption(fixed=(c,)) for c in (COLORS if "color" in kind else MANA_TYPES))
    # "any combination": the amount is split among the colors in any way (see production)
    return ManaEffect(options, count=amount, split=COLORS if "combination" in kind else ())


def _x_mana_of_two(m: re.Match[str]) -> ManaEffect | None:
    amount = parse_amount(m.group("amount"))
    if amount is None:
        return None
    pair = sort_mana((m.group("a"), m.group("b")))
    return ManaEffect(tuple(ManaOption(fixed=(c,)) for c in pair), count=amount, split=pair)


def _battery(m: re.Match[str]) -> ManaEffect | None:
    each = parse_amount(m.group("each"))  # the mana batteries: one, plus one more for each
    if each is None or m.group("first") != m.group("more"):
        return None
    return ManaEffect(
        (ManaOption(fixed=_symbols(m.group("first"))),), count=replace(each, offset=each.offset + 1)
    )


def _colors_among(m: re.Match[str]) -> ManaEffect | None:
    among = filters_and(m.group("what"))  # Mox Amber, Bloom Tender
    return None if among is None else ManaEffect(_ANY_COLOR, colors_of=(m.group("how"), among))


def _mana_cost_of(m: re.Match[str]) -> ManaEffect | None:
    whose = parse_filter(m.group("whose"))
    return None if whose is None else ManaEffect((), cost_of=whose)


def _own_colors(_m: re.Match[str]) -> ManaEffect | None:
    return ManaEffect(_ANY_COLOR, colors_of=("any", None))  # Katilda's grant


def _that_color(m: re.Match[str]) -> ManaEffect | None:
    amount = parse_amount(m.group("amount"))  # after "Choose a color." (Nykthos, Astral Cornucopia)
    return None if amount is None else ManaEffect(_ANY_COLOR, count=amount)


def _n_of_one_color(m: re.Match[str]) -> ManaEffect | None:
    n = NUMBER_WORDS.get(m.group("n"))
    return None if n is None else ManaEffect(tuple(ManaOption(fixed=(c,) * n) for c in COLORS))


def _n_in_combination(m: re.Match[str]) -> ManaEffect | None:
    n = _number(m.group("n"), 6)
    if n is None:
        return None
    return ManaEffect(tuple(ManaOption(fixed=combo) for combo in combinations_with_replacement(COLORS, n)))


def _n_symbols(m: re.Match[str]) -> ManaEffect | None:
    n = _number(m.group("n"), 100)
    return None if n is None else ManaEffect((ManaOption(fixed=(m.group("t"),) * n),))


def _n_of_two(m: re.Match[str]) -> ManaEffect | None:
    n = _number(m.group("n"), 20)  # Goblin Clearcutter: every split of n between the two types
    if n is None:
        return None
    pair = sort_mana((m.group("a"), m.group("b")))
    return ManaEffect(tuple(ManaOption(fixed=c) for c in combinations_with_replacement(pair, n)))


def _n_different_colors(m: re.Match[str]) -> ManaEffect | None:
    n = _number(m.group("n"), len(COLORS))  # Firemind Vessel, Guild Globe
    return None if n is None else ManaEffect(tuple(ManaOption(fixed=c) for c in combinations(COLORS, n)))


def _could_produce(m: re.Match[str]) -> ManaEffect | None:
    phrase = m.group("phrase")
    if phrase == "the sacrificed land":
        # Squandered Resources: the sacrificed land is a land its controller controls.
        flt: Filter | None = Filter(types=("Land",), controller="you")
    else:
        flt = parse_filter(phrase)
    return None if flt is None else ManaEffect((ManaOption(reference=Reference(m.group("what"), flt)),))


def _commander(_m: re.Match[str]) -> ManaEffect | None:
    return ManaEffect(_ANY_COLOR, commander=True)


_READERS: Final[dict[str, Callable[[re.Match[str]], ManaEffect | None]]] = {}


def _add(
    name: str,
    pattern: str,
    reader: Callable[[re.Match[str]], ManaEffect | None],
    *,
    rule: str,
    examples: tuple[str, ...],
    yields: str,
    shadows: tuple[str, ...] = (),
) -> None:
    """Register an "Add" template (its pattern is read after "Add ", to the sentence's end) and its reader."""
    ADD.add(name, rf"[Aa]dd {pattern}\Z", rule=rule, examples=examples, yields=yields, shadows=shadows)
    _READERS[name] = reader


_add(
    "fixed",
    rf"(?P<body>{_PIECE}(?:{_SEPARATOR}{_PIECE})*)",
    _fixed,
    rule="106.1b",
    examples=("Add {G}", "Add {C}{C}", "Add {R} or {G}", "Add {W}, {U}, or {B}", "Add one mana of any color",
              "Add {U}{U}, {U}{R}, or {R}{R}", "Add {R} or one mana of the chosen color"),
    yields="one option per alternative: its mana types; 'any color' is five options, 'the chosen color' one",
)  # fmt: skip
_add(
    "symbols-for-each",
    r"(?P<mana>(?:\{[WUBRGC]\})+) for each (?P<each>.+)",
    _for_each,
    rule="106.4",
    examples=("Add {G} for each Elf you control", "Add {B} for each Swamp you control",
              "Add {C} for each artifact you control"),
    yields="the mana, counted on the board as the 'for each' reads (parse_amount)",
)  # fmt: skip
_add(
    "any-color-for-each",
    r"one mana of any color for each (?P<each>.+)",
    _any_color_for_each,
    rule="106.4",
    examples=("Add one mana of any color for each charge counter on ~",),  # Coalition Relic, its counters
    yields="one mana of any color, counted on the board",
)
_add(
    "symbol-equal-to",
    r"(?:an amount of|a number of) \{(?P<t>[WUBRGC])\} equal to (?P<amount>.+)",
    _amount_of_symbol,
    rule="106.4",
    examples=(
        "Add an amount of {G} equal to ~'s power",
        "Add an amount of {G} equal to your devotion to green",
        "Add an amount of {B} equal to the sacrificed creature's mana value",
    ),
    yields="that mana type, as many as the amount read on the board",
)
_add(
    "x-mana-where",
    r"X mana (?P<kind>of any one color|in any combination of colors|of any one type), "
    r"where X is (?P<amount>.+)",
    _x_mana,
    rule="106.4",
    examples=("Add X mana of any one color, where X is the number of Allies you control",
              "Add X mana in any combination of colors, where X is the number of creatures with defender "
              "you control"),
    yields="X mana of one color (type), or split among the colors in any way ('any combination')",
)  # fmt: skip
_add(
    "x-mana-of-two-where",
    r"X mana in any combination of \{(?P<a>[WUBRGC])\} and/or \{(?P<b>[WUBRGC])\}, where X is (?P<amount>.+)",
    _x_mana_of_two,
    rule="106.4",
    examples=(
        "Add X mana in any combination of {R} and/or {G}, where X is the number of creatures you control",
    ),
    yields="X mana split between the two types in any way",
)
_add(
    "symbols-then-more-for-each",
    r"(?P<first>(?:\{[WUBRGC]\})+), then add an additional (?P<more>(?:\{[WUBRGC]\})+) for each (?P<each>.+)",
    _battery,
    rule="106.4",
    examples=("Add {B}, then add an additional {B} for each charge counter on ~",),  # the batteries, prepared
    yields="the mana once, plus once more for each (the count offset by one)",
)
_add(
    "one-mana-of-colors-among",
    r"one mana of (?P<how>any|each) color among (?P<what>.+)",
    _colors_among,
    rule="105.2",
    examples=("Add one mana of any color among legendary creatures and planeswalkers you control",
              "Add one mana of each color among permanents you control"),  # Bloom Tender, prepared
    yields="one mana of any (or each) color the named permanents have",
)  # fmt: skip
_add(
    "mana-cost-of-attached",
    r"mana equal to (?P<whose>(?:enchanted|equipped) [a-z]{1,20})['’]s mana cost",
    _mana_cost_of,
    rule="202.1",
    examples=("add mana equal to enchanted permanent's mana cost",),
    yields="each symbol of that permanent's mana cost as mana",
)
_add(
    "one-mana-of-its-colors",
    r"one mana of any of (?:this creature's|~'s) colors",
    _own_colors,
    rule="105.2",
    examples=("Add one mana of any of this creature's colors",),
    yields="one mana of any color the permanent itself has",
)
_add(
    "that-color-for-each",
    r"(?:an amount of mana of that color equal to|one mana of that color for each) (?P<amount>.+)",
    _that_color,
    rule="106.4",
    examples=("Add an amount of mana of that color equal to your devotion to that color",
              "Add one mana of that color for each charge counter on ~"),
    yields="mana of the color chosen by the ability, as many as the amount",
)  # fmt: skip
_add(
    "n-mana-of-one-color",
    r"(?P<n>\w+) mana of any one color",
    _n_of_one_color,
    rule="106.4",
    examples=("Add three mana of any one color", "Add two mana of any one color"),
    yields="n mana, all of one color of the player's choice",
)
_add(
    "n-mana-in-any-combination",
    r"(?P<n>\w+) mana in any combination of colors",
    _n_in_combination,
    rule="106.4",
    examples=("Add two mana in any combination of colors", "Add three mana in any combination of colors"),
    yields="every multiset of n colors (n at most six)",
)
_add(
    "n-symbols",
    r"(?P<n>\w+) \{(?P<t>[WUBRGC])\}",
    _n_symbols,
    rule="106.4",
    examples=("Add six {G}",),
    yields="n mana of that type",
)
_add(
    "n-mana-of-two",
    r"(?P<n>\w+) mana in any combination of \{(?P<a>[WUBRGC])\} and/or \{(?P<b>[WUBRGC])\}",
    _n_of_two,
    rule="106.4",
    examples=("Add three mana in any combination of {R} and/or {G}",),
    yields="every split of n mana between the two types",
)
_add(
    "n-mana-of-different-colors",
    r"(?P<n>\w+) mana of different colors",
    _n_different_colors,
    rule="106.4",
    examples=("Add two mana of different colors",),
    yields="every set of n different colors",
)
_add(
    "could-produce",
    r"one mana of any (?P<what>type|color) (?:that )?(?P<phrase>.+) could produce",
    _could_produce,
    rule="106.7",
    examples=("Add one mana of any color that a land you control could produce",
              "Add one mana of any color that a land an opponent controls could produce",
              "Add one mana of any type the sacrificed land could produce"),
    yields="a reference: the types (colors) the named permanents could produce, found on the board",
)  # fmt: skip
_add(
    "commander-color-identity",
    r"one mana of any color in your commander['’]s color identity",
    _commander,
    rule="903.4",
    examples=("Add one mana of any color in your commander's color identity",),
    yields="one mana of any color of the commander's color identity (none without a commander, 903.4f)",
)


def parse_add(sentence: str) -> ManaEffect | None:
    """Read one "Add ..." sentence (without the final period); None when no template reads it."""
    if re.fullmatch(r"[Aa]dd (.+)", sentence) is None:
        return None
    return ADD.read(sentence, _READERS)
