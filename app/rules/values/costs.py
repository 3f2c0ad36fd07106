"""The ``ManaCost`` value (CR 107.4, 202): parsing, canonical printing, mana value, colors, arithmetic.

Canonical form (API.md): variables first, then all generic mana merged into one number, then every other
symbol in the order given (a printed card's own order); ``{0}`` for a cost with no mana at all. Two costs
are equal when they hold the same symbols in any order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from app.rules.errors import ManaCostSyntaxError
from app.rules.values.symbols import (
    COLORS,
    MAX_GENERIC,
    ManaSymbol,
    SymbolKind,
    color_order,
    generic_symbol,
    symbol_for,
)

MAX_COST_LENGTH: Final = 1000
"""Longest cost text accepted: bounds parsing time and every sum (1000 chars hold < 200M generic)."""

_BRACE = re.compile(r"\{([^{}]*)\}")
_LOOSE_TOKEN = re.compile(r"\{([^{}]*)\}|(\d+)|(\s+)|(.)")
_VAR_ORDER = {"X": 0, "Y": 1, "Z": 2}
_WHEEL = {c: i for i, c in enumerate(COLORS)}
_KIND_ORDER = {
    SymbolKind.COLORLESS: 0,
    SymbolKind.SNOW: 1,
    SymbolKind.HALF: 2,
    SymbolKind.COLORED: 3,
    SymbolKind.HYBRID: 4,
    SymbolKind.MONO_HYBRID: 5,
    SymbolKind.COLORLESS_HYBRID: 6,
    SymbolKind.PHYREXIAN: 7,
    SymbolKind.HYBRID_PHYREXIAN: 8,
    SymbolKind.INFINITY: 9,
}


@dataclass(frozen=True, slots=True, eq=False)
class ManaCost:
    """A mana cost. Build it with ``parse``, ``parse_loose``, ``of`` or ``zero``; it never changes.

    ``variables`` holds X, Y and Z in canonical order, ``generic`` the merged numeric symbols, ``others``
    every remaining symbol in order.
    """

    variables: tuple[str, ...] = ()
    generic: int = 0
    others: tuple[ManaSymbol, ...] = ()
    _key: tuple[tuple[str, ...], int, tuple[str, ...]] = field(init=False, repr=False)
    # The canonical text, made on first use: an answer prints each cost of its steps, a dozen a request.
    _text: str | None = field(init=False, repr=False, default=None)

    def __init__(
        self, variables: tuple[str, ...] = (), generic: int = 0, others: tuple[ManaSymbol, ...] = ()
    ) -> None:
        # Written out rather than generated: mypyc compiles this one, and leaves the dataclass module's
        # generated ``__init__`` interpreted (13 x slower; ``tests/rules/test_native_inits.py``).
        if generic < 0:
            raise ValueError("generic mana cannot be negative")
        object.__setattr__(self, "variables", variables)
        object.__setattr__(self, "generic", generic)
        object.__setattr__(self, "others", others)
        key = (
            tuple(sorted(variables, key=_VAR_ORDER.__getitem__)),
            generic,
            tuple(sorted(s.text for s in others)),
        )
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_text", None)

    def __reduce__(self) -> tuple[type[ManaCost], tuple[object, ...]]:
        """Pickled by its constructor (the catalogue snapshot): compiled, a frozen class refuses the field
        by field restore of the default pickling (``tests/test_compiled_copies.py``)."""
        return (ManaCost, (self.variables, self.generic, self.others))

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def zero(cls) -> ManaCost:
        """``{0}``: no mana at all (CR 118.5); distinct from a card having no mana cost (None)."""
        return _ZERO

    @classmethod
    def of(
        cls, generic: int = 0, others: Iterable[ManaSymbol | str] = (), variables: Iterable[str] = ()
    ) -> ManaCost:
        """A cost from parts; numeric and variable symbols among ``others`` are moved where they belong."""
        syms = [s if isinstance(s, ManaSymbol) else ManaSymbol.parse(s) for s in others]
        return cls._build(list(variables), generic, syms)

    @classmethod
    def from_symbols(cls, symbols: Iterable[ManaSymbol]) -> ManaCost:
        """A cost holding exactly these symbols, generic merged."""
        return cls._build([], 0, list(symbols))

    @classmethod
    def _build(cls, variables: list[str], generic: int, syms: list[ManaSymbol]) -> ManaCost:
        others: list[ManaSymbol] = []
        for s in syms:
            if s.kind is SymbolKind.GENERIC:
                generic += s.amount
            elif s.kind is SymbolKind.VARIABLE:
                variables.append(s.text[1])
            else:
                others.append(s)
        variables.sort(key=_VAR_ORDER.__getitem__)
        return cls(tuple(variables), generic, tuple(others))

    @classmethod
    def parse(cls, text: str) -> ManaCost:
        """Read a cost in brace syntax (``{2}{W}{U/P}``); symbols may come in any order, any case.

        Raises ``ManaCostSyntaxError`` naming the first bad symbol and its 0-based position; numbers add
        up to at most {1000000} in all.
        """
        _check_length(text)
        variables: list[str] = []
        generic = 0
        others: list[ManaSymbol] = []
        pos = 0
        for m in _BRACE.finditer(text):
            if m.start() != pos:
                _raise_stray(text, pos)
            sym = symbol_for(m.group(1))
            if sym is None:
                raise ManaCostSyntaxError(
                    f"unknown mana symbol {m.group(0)} at position {m.start()}",
                    symbol=m.group(0),
                    position=m.start(),
                )
            kind = sym.kind
            if kind is SymbolKind.GENERIC:
                generic += sym.amount
                if generic > MAX_GENERIC:
                    _raise_too_much(m.group(0), m.start())
            elif kind is SymbolKind.VARIABLE:
                variables.append(sym.text[1])
            else:
                others.append(sym)
            pos = m.end()
        if pos != len(text):
            _raise_stray(text, pos)
        if len(variables) > 1:
            variables.sort(key=_VAR_ORDER.__getitem__)
        return cls(tuple(variables), generic, tuple(others))

    @classmethod
    def parse_loose(cls, text: str) -> ManaCost:
        """Read a cost as Scryfall's parse-mana does: ``2WW``, ``2{g}2``, lowercase, any order, spaces.

        Bare letters are the one-letter symbols (W U B R G C S X Y Z), digit runs are numbers; the result
        is put in printed order (variables, generic, colorless and snow, then colors round the wheel).
        Input written wholly in braces keeps its own order, as a printed cost does.
        """
        _check_length(text)
        if text.startswith("{") and text.endswith("}"):
            try:
                return cls.parse(text)
            except ManaCostSyntaxError:
                pass  # read it loosely below, which reports the first bad token
        syms: list[ManaSymbol] = []
        generic = 0
        for m in _LOOSE_TOKEN.finditer(text):
            braced, digits, space, other = m.groups()
            if space is not None:
                continue
            inner = braced if braced is not None else digits if digits is not None else other
            assert inner is not None
            sym = symbol_for(inner.strip())
            if sym is None or (other is not None and len(sym.text) != 3):
                bad = m.group(0)
                if other == "{":
                    bad = text[m.start() : m.start() + 12]
                raise ManaCostSyntaxError(
                    f"unknown mana symbol {bad} at position {m.start()}", symbol=bad, position=m.start()
                )
            if sym.kind is SymbolKind.GENERIC:
                generic += sym.amount
                if generic > MAX_GENERIC:
                    _raise_too_much(m.group(0), m.start())
            syms.append(sym)
        return cls._build([], 0, syms).in_printed_order()

    # -- reading ------------------------------------------------------------------------------------

    @property
    def symbols(self) -> tuple[ManaSymbol, ...]:
        """Every symbol in canonical order, generic as one numeric symbol (``{0}`` alone when empty)."""
        head = tuple(_VARIABLE_SYMBOLS[v] for v in self.variables)
        if self.generic or not (self.variables or self.others):
            head += (generic_symbol(self.generic),)
        return head + self.others

    @property
    def half_value(self) -> int | None:
        """Mana value in half-units (CR 202.3): X counts 0, hybrid its larger half, Phyrexian 1."""
        total = 2 * self.generic
        for s in self.others:
            if s.half_value is None:
                return None
            total += s.half_value
        return total

    @property
    def mana_value(self) -> int | float | None:
        """CR 202.3 mana value: an ``int``, a ``float`` ending in .5 with half mana, ``None`` with {∞}."""
        hv = self.half_value
        if hv is None:
            return None
        return hv // 2 if hv % 2 == 0 else hv / 2

    @property
    def colors(self) -> tuple[str, ...]:
        """The colors of the symbols (CR 202.2), in WUBRG order."""
        present = {c for s in self.others for c in s.colors}
        return tuple(c for c in COLORS if c in present)

    @property
    def is_infinite(self) -> bool:
        return any(s.kind is SymbolKind.INFINITY for s in self.others)

    @property
    def is_zero(self) -> bool:
        """True when the cost holds no mana and no variable: ``{0}`` (CR 118.5)."""
        return not self.generic and not self.variables and not self.others

    def count(self, what: SymbolKind | str) -> int:
        """How many symbols of a kind, or with this text (``"{W}"``, ``"X"``), the cost holds."""
        if isinstance(what, SymbolKind):
            if what is SymbolKind.GENERIC:
                return 1 if self.generic else 0
            if what is SymbolKind.VARIABLE:
                return len(self.variables)
            return sum(1 for s in self.others if s.kind is what)
        text = what if what.startswith("{") else f"{{{what}}}"
        if text[1:-1] in _VAR_ORDER:
            return self.variables.count(text[1:-1])
        return sum(1 for s in self.others if s.text == text)

    # -- arithmetic ---------------------------------------------------------------------------------

    def devotion_to(self, colors: tuple[str, ...]) -> int:
        """CR 700.5: this cost's mana symbols that are of any of ``colors`` (a hybrid symbol of two of them
        counts once, 700.5a)."""
        return sum(1 for sym in self.symbols if any(c in colors for c in sym.colors))

    def __add__(self, other: ManaCost) -> ManaCost:
        if not isinstance(other, ManaCost):
            return NotImplemented
        generic = self.generic + other.generic
        return ManaCost(
            tuple(sorted(self.variables + other.variables, key=_VAR_ORDER.__getitem__)),
            generic,
            self.others + other.others,
        )

    def with_variables(self, x: int = 0, y: int = 0, z: int = 0) -> ManaCost:
        """The cost with each {X}, {Y}, {Z} replaced by that much generic mana (CR 107.3a, 601.2f)."""
        values = {"X": x, "Y": y, "Z": z}
        extra = sum(values[v] for v in self.variables)
        return ManaCost((), self.generic + extra, self.others)

    def with_generic(self, generic: int) -> ManaCost:
        """The same cost with its generic component set to ``generic`` (never below 0)."""
        return ManaCost(self.variables, max(0, generic), self.others)

    def without(self, symbol: ManaSymbol) -> ManaCost:
        """The cost with one occurrence of a non-generic symbol removed (ValueError if absent)."""
        others = list(self.others)
        others.remove(symbol)
        return ManaCost(self.variables, self.generic, tuple(others))

    def in_printed_order(self) -> ManaCost:
        """The same symbols, colored ones sorted the way printed cards list them (``color_order``)."""
        wheel = color_order({c for s in self.others for c in s.colors})
        rank = {c: i for i, c in enumerate(wheel)}

        def key(s: ManaSymbol) -> tuple[int, int, int]:
            first = min((rank[c] for c in s.colors), default=-1)
            return (first, _KIND_ORDER[s.kind], sum(rank[c] for c in s.colors))

        return ManaCost(self.variables, self.generic, tuple(sorted(self.others, key=key)))

    # -- identity -----------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ManaCost):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = "".join(s.text for s in self.symbols)
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"ManaCost.parse({str(self)!r})"

    @property
    def sort_key(self) -> str:
        """A string equal for equal costs (the multiset of symbols), for indexes and Mental Magic search."""
        variables, generic, others = self._key
        return "".join(f"{{{v}}}" for v in variables) + f"{{{generic}}}" + "".join(others)


def _check_length(text: str) -> None:
    if len(text) > MAX_COST_LENGTH:
        raise ManaCostSyntaxError(
            f"a mana cost is at most {MAX_COST_LENGTH} characters", symbol=text[:20], position=MAX_COST_LENGTH
        )


def _raise_too_much(symbol: str, pos: int) -> None:
    """Input costs hold at most {1000000} generic in all, so every cost parsed prints as parseable text."""
    raise ManaCostSyntaxError(
        f"generic mana adds up to more than {MAX_GENERIC} at {symbol} (position {pos})",
        symbol=symbol,
        position=pos,
    )


def _raise_stray(text: str, pos: int) -> None:
    end = text.find("{", pos + 1)
    bad = text[pos : end if end != -1 else len(text)][:20]
    raise ManaCostSyntaxError(
        f"unexpected {bad!r} at position {pos}: mana symbols are written in braces", symbol=bad, position=pos
    )


_VARIABLE_SYMBOLS: Final = {v: ManaSymbol.parse(f"{{{v}}}") for v in _VAR_ORDER}
_ZERO: Final = ManaCost()
assert MAX_GENERIC * (MAX_COST_LENGTH // 3) < 2**63
