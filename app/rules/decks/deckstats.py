"""What a deck is, mana-wise: its colored symbols, its curve, what its fetch lands could fetch.

- Pips: the colored mana symbols of a mana cost (CR 107.4); a hybrid symbol ({R/G}, {2/W}) is one symbol of
  each of its colors (CR 107.4e), a Phyrexian one ({G/P}) one of its color (CR 107.4f).
- Curve: a card's mana value (CR 202.3).
- Fetch lands: a land whose ability searches the library for a land card "could produce" (for deck
  building) the colors of what it could find in this deck, and no other: the deck's lands having a land
  type it names (CR 305.6: a Forest has "{T}: Add {G}"; CR 701.23a: a search finds only cards of the
  library, so a type no land of the deck has finds nothing), and for "a basic land card" the deck's basic
  lands (CR 205.4a).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from app.rules.values.costs import ManaCost
from app.rules.values.symbols import COLORS, SymbolKind

BASIC_TYPE_COLORS: Final = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_SEARCH: Final = re.compile(
    r"search your library for (?:an? |up to (?:one|two) )?(?P<what>[^.]*?)\s*cards?\b", re.IGNORECASE
)


def pips(cost: ManaCost) -> dict[str, int]:
    """Colored symbols per color (CR 107.4e: a hybrid symbol counts for each of its colors)."""
    out = dict.fromkeys(COLORS, 0)
    for symbol in cost.symbols:
        for c in symbol.colors:
            if c in out:
                out[c] += 1
    return out


def castability_pips(cost: ManaCost) -> tuple[dict[str, int], bool]:
    """The colored symbols a land base must cover to cast ``cost`` (Karsten's model): single-color symbols
    only. The second value says whether other colored symbols were left out: a hybrid symbol can be paid
    with either half (CR 107.4e) and a Phyrexian one with 2 life (CR 107.4f), so no one color is required."""
    out: dict[str, int] = {}
    left_out = False
    for symbol in cost.symbols:
        if symbol.kind is SymbolKind.COLORED:
            out[symbol.colors[0]] = out.get(symbol.colors[0], 0) + 1
        elif any(c in COLORS for c in symbol.colors):
            left_out = True
    return out, left_out


@dataclass(frozen=True, slots=True)
class FetchTarget:
    """What a land's search ability looks for: basic land types, or any basic land (``basic``)."""

    land_types: tuple[str, ...]
    basic: bool


def fetch_target(oracle_text: str) -> FetchTarget | None:
    """The lands a "search your library for ... land card" ability could fetch; None when it has none."""
    for m in _SEARCH.finditer(oracle_text):
        what = m.group("what")
        types = tuple(t for t in BASIC_TYPE_COLORS if re.search(rf"\b{t}\b", what))
        if types:
            return FetchTarget(types, basic="basic" in what.lower())
        if re.search(r"\bbasic land\b", what, re.IGNORECASE):
            return FetchTarget((), basic=True)
    return None


def fetchable(target: FetchTarget, land_types: Iterable[str], is_basic: bool) -> bool:
    """Whether a deck land of these subtypes (basic or not) is one ``target`` can find."""
    if target.basic and not is_basic:
        return False
    return not target.land_types or bool(set(target.land_types) & set(land_types))


def fetch_colors(
    target: FetchTarget,
    deck_lands: Iterable[tuple[Iterable[str], bool, Iterable[str]]],
) -> frozenset[str]:
    """Colors a fetch could bring: ``deck_lands`` are (subtypes, is_basic, could-produce colors) of the
    deck's lands. A typed search gets the colors of the deck lands of those types (a basic-only search only
    basic ones); an untyped basic search gets the colors of the deck's basic lands. A type that no land of
    the deck has adds nothing: the search finds only what the library holds (CR 701.23a)."""
    found: set[str] = set()
    for subtypes, is_basic, produce in deck_lands:
        if fetchable(target, subtypes, is_basic):
            found.update(c for c in produce if c in COLORS)
    return frozenset(found)


def curve(mana_values: Mapping[str, tuple[int | float | None, int]]) -> dict[str, int]:
    """Copies per mana value (CR 202.3), keys as strings sorted by value; ``{∞}`` and unknown are skipped."""
    out: dict[int | float, int] = {}
    for value, count in mana_values.values():
        if value is None:
            continue
        out[value] = out.get(value, 0) + count
    return {_key(v): out[v] for v in sorted(out)}


def _key(value: int | float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
