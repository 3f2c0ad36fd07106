"""Mana symbols (CR 107.4) and the Un symbols of API.md, as interned frozen values.

A symbol knows its kind, its colors and its share of mana value (CR 202.3) in half-units, so half mana
({HW}, {½}) needs no floats. ``ManaSymbol.parse`` reads one brace symbol; costs live in ``costs.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from app.rules.errors import ManaCostSyntaxError

COLORS: Final = ("W", "U", "B", "R", "G")
MANA_TYPES: Final = (*COLORS, "C")
COLOR_NAMES: Final = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
MAX_GENERIC: Final = 1_000_000
"""The largest numeric symbol accepted ({1000000}, Gleemax); bounds every cost's arithmetic."""

_WHEEL = {c: i for i, c in enumerate(COLORS)}


class SymbolKind(StrEnum):
    GENERIC = "generic"
    VARIABLE = "variable"
    COLORED = "colored"
    COLORLESS = "colorless"
    SNOW = "snow"
    HYBRID = "hybrid"
    MONO_HYBRID = "monocolored_hybrid"
    COLORLESS_HYBRID = "colorless_hybrid"
    PHYREXIAN = "phyrexian"
    HYBRID_PHYREXIAN = "hybrid_phyrexian"
    HALF = "half"
    INFINITY = "infinity"


@dataclass(frozen=True, slots=True)
class ManaSymbol:
    """One mana symbol. ``text`` is canonical (``{W/U}``, never ``{U/W}``).

    ``amount`` is the number of a generic symbol, or the generic half of a monocolored hybrid ({2/W} → 2).
    ``half_value`` is the symbol's mana value in half-units (CR 202.3), ``None`` for {∞}.
    """

    text: str
    kind: SymbolKind
    colors: tuple[str, ...] = ()
    amount: int = 0
    half_value: int | None = 2

    def __reduce__(self) -> tuple[type[ManaSymbol], tuple[object, ...]]:
        """Pickled by its constructor (the catalogue snapshot): compiled, a frozen class refuses the field
        by field restore of the default pickling (``tests/test_compiled_copies.py``)."""
        return (ManaSymbol, (self.text, self.kind, self.colors, self.amount, self.half_value))

    @classmethod
    def parse(cls, text: str) -> ManaSymbol:
        """Read one brace symbol such as ``{2/W}``; case-insensitive, hybrid halves in either order."""
        if len(text) < 2 or text[0] != "{" or text[-1] != "}":
            raise ManaCostSyntaxError(f"{text!r} is not a brace symbol", symbol=text, position=0)
        symbol = symbol_for(text[1:-1])
        if symbol is None:
            raise ManaCostSyntaxError(f"unknown mana symbol {text}", symbol=text, position=0)
        return symbol

    @property
    def is_colored(self) -> bool:
        """CR 107.4e: a hybrid symbol is colored even when one half is colorless or generic."""
        return bool(self.colors)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"ManaSymbol.parse({self.text!r})"


def _make_table() -> dict[str, ManaSymbol]:
    table: dict[str, ManaSymbol] = {}

    def add(sym: ManaSymbol, *aliases: str) -> None:
        for key in (sym.text[1:-1], *aliases):
            table[key] = sym

    for v in ("X", "Y", "Z"):
        add(ManaSymbol(f"{{{v}}}", SymbolKind.VARIABLE, half_value=0))
    for c in COLORS:
        add(ManaSymbol(f"{{{c}}}", SymbolKind.COLORED, (c,)))
        add(ManaSymbol(f"{{2/{c}}}", SymbolKind.MONO_HYBRID, (c,), amount=2, half_value=4))
        add(ManaSymbol(f"{{C/{c}}}", SymbolKind.COLORLESS_HYBRID, (c,)), f"{c}/C")
        add(ManaSymbol(f"{{{c}/P}}", SymbolKind.PHYREXIAN, (c,)), f"P/{c}")
    add(ManaSymbol("{C}", SymbolKind.COLORLESS))
    add(ManaSymbol("{S}", SymbolKind.SNOW))
    for pair in ("WU", "WB", "UB", "UR", "BR", "BG", "RG", "RW", "GW", "GU"):
        a, b = pair
        colors = tuple(sorted(pair, key=_WHEEL.__getitem__))
        add(ManaSymbol(f"{{{a}/{b}}}", SymbolKind.HYBRID, colors), f"{b}/{a}")
        add(ManaSymbol(f"{{{a}/{b}/P}}", SymbolKind.HYBRID_PHYREXIAN, colors), f"{b}/{a}/P")
    add(ManaSymbol("{HW}", SymbolKind.HALF, ("W",), half_value=1))
    add(ManaSymbol("{HR}", SymbolKind.HALF, ("R",), half_value=1))
    add(ManaSymbol("{½}", SymbolKind.HALF, (), half_value=1), "1/2")
    add(ManaSymbol("{∞}", SymbolKind.INFINITY, half_value=None))
    return table


_TABLE: Final = _make_table()
_GENERIC_CACHE: dict[int, ManaSymbol] = {}


def generic_symbol(amount: int) -> ManaSymbol:
    """The numeric symbol ``{amount}`` (interned for small numbers)."""
    sym = _GENERIC_CACHE.get(amount)
    if sym is None:
        sym = ManaSymbol(f"{{{amount}}}", SymbolKind.GENERIC, amount=amount, half_value=2 * amount)
        if amount <= 64:
            _GENERIC_CACHE[amount] = sym
    return sym


def symbol_for(inner: str) -> ManaSymbol | None:
    """The symbol whose text between braces is ``inner`` (any case), or None.

    Numbers are accepted from 0 to ``MAX_GENERIC`` without leading zeros, so no input makes big-number work.
    """
    sym = _TABLE.get(inner)
    if sym is not None:
        return sym
    if inner.isdigit() and inner.isascii():
        if (len(inner) > 1 and inner[0] == "0") or len(inner) > 7 or int(inner) > MAX_GENERIC:
            return None
        return generic_symbol(int(inner))
    upper = inner.upper()
    return _TABLE.get(upper) if upper != inner else None


def all_symbols() -> tuple[ManaSymbol, ...]:
    """Every distinct non-numeric symbol, in the order of CR 107.4 (for ``GET /v1/symbols``)."""
    seen: dict[str, ManaSymbol] = {}
    for sym in _TABLE.values():
        seen.setdefault(sym.text, sym)
    return tuple(seen.values())


def color_order(colors: set[str] | frozenset[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The order in which printed costs list these colors.

    Allied runs go clockwise round the color wheel from the color after the gap ({G}{W}, {W}{U}{B});
    enemy pairs and wedges step two at a time ({W}{B}, {R}{W}{B}, {W}{B}{G}). See CR 105.1 for the wheel.
    """
    present = [c for c in COLORS if c in colors]
    n = len(present)
    if n <= 1 or n == 5:
        return tuple(present)
    for step in (1, 2):
        for start in present:
            run = tuple(COLORS[(_WHEEL[start] + step * i) % 5] for i in range(n))
            if set(run) == set(present):
                return run
    return tuple(present)  # pragma: no cover - every subset of five colors is covered above
