"""Amounts of mana as counts per type (CR 106.1, 106.4): a multiset, never a list of symbols.

A production such as a Forest under 28 Mana Reflections (CR 106.12b, 616.1) adds 2^28 mana: as a list
that is gigabytes, as counts it is six integers. Counts stay exact up to ``MANA_BOUND``, a bound no rule
and no cost needs (a cost's numbers add up to at most 1,000,000); past it they saturate, and the caller
says so in its warnings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from app.rules.values.symbols import MANA_TYPES

MANA_BOUND: Final = 10**1000
"""Counts saturate here: far above anything a payment uses, and still printable as a JSON integer."""
TEXT_LIMIT: Final = 100
"""Above this many mana a production is not written out as symbols (API.md "Mana": ``produces``)."""
_INDEX: Final = {t: i for i, t in enumerate(MANA_TYPES)}


def _clip(n: int) -> int:
    return n if n <= MANA_BOUND else MANA_BOUND


@dataclass(frozen=True, slots=True)
class Mana:
    """A multiset of mana: ``counts`` per type in W U B R G C order (CR 105.1, 106.1b)."""

    counts: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)

    def __init__(self, counts: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "counts", counts)

    @staticmethod
    def of(types: Iterable[str]) -> Mana:
        """``Mana.of("GG")`` or ``Mana.of(("G", "G"))``: one mana per type named."""
        counts = [0] * len(MANA_TYPES)
        for t in types:
            counts[_INDEX[t]] += 1
        return Mana._make(counts)

    @staticmethod
    def single(mana_type: str, n: int = 1) -> Mana:
        counts = [0] * len(MANA_TYPES)
        counts[_INDEX[mana_type]] = n
        return Mana._make(counts)

    @staticmethod
    def _make(counts: list[int]) -> Mana:
        c = [_clip(n) for n in counts]
        return Mana((c[0], c[1], c[2], c[3], c[4], c[5]))

    @property
    def total(self) -> int:
        """How many mana (exact below ``MANA_BOUND``)."""
        return sum(self.counts)

    @property
    def saturated(self) -> bool:
        return any(n >= MANA_BOUND for n in self.counts)

    def __bool__(self) -> bool:
        return any(self.counts)

    def __add__(self, other: Mana) -> Mana:
        return Mana._make([a + b for a, b in zip(self.counts, other.counts, strict=True)])

    def times(self, k: int) -> Mana:
        """``k`` times as much of every type (Mana Reflection's "twice as much of that mana")."""
        return Mana._make([n * k for n in self.counts])

    def count(self, mana_type: str) -> int:
        return self.counts[_INDEX[mana_type]]

    @property
    def types(self) -> tuple[str, ...]:
        """The types present, each once, in W U B R G C order."""
        return tuple(t for t, n in zip(MANA_TYPES, self.counts, strict=True) if n)

    def contains(self, other: Mana) -> bool:
        """Whether ``other`` is a sub-multiset of this one."""
        return all(a >= b for a, b in zip(self.counts, other.counts, strict=True))

    def as_tuple(self, bound: int | None = None) -> tuple[str, ...]:
        """The mana as a sorted tuple of types, each count cut to ``bound`` (for callers that list mana)."""
        return tuple(
            t
            for t, n in zip(MANA_TYPES, self.counts, strict=True)
            for _ in range(n if bound is None else min(n, bound))
        )

    def text(self, limit: int = TEXT_LIMIT) -> str | None:
        """``{G}{G}`` in W U B R G C order; None above ``limit`` mana (a string that long helps no one)."""
        if self.total > limit:
            return None
        return "".join("{" + t + "}" for t in self.as_tuple())

    def sort_key(self) -> tuple[int, tuple[int, ...]]:
        """Fewer mana first, then earlier types first (W before U ... before C)."""
        return (self.total, tuple(-n for n in self.counts))


EMPTY: Final = Mana()
