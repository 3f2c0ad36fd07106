"""Castability (Karsten's 2022 model, exact) timing against a plain ``math.comb`` loop, in the same run.

Decks (no card data needed; the mana bases are written out here):
  * a 60-card 3-color deck (Jund: basics, two dual kinds with their fetch lands; 25 lands, 5 land kinds),
    13 distinct spells from {G} to {1}{B}{R}{G}{G}{G};
  * a 99-card Commander library (Esper: basics, triomes and Command Tower, colorless lands; 38 lands,
    5 land kinds), 30 distinct spells of 1 to 3 colors, turns 1 to 7;
  * the 60-card deck again with 7 land kinds (all three duals and a triome), the hardest shape here.
Each deck's whole spell list is timed: the first call in this process, the median of 20 calls with the
caches cleared (cold), and the median of 20 with them warm. The baseline is the naive calculator's loop:
for each spell and color, P(at least n sources among the cards seen) by ``math.comb`` (no mulligans,
no conditioning), which is what the ratio is against. Targets (issue 12): 60 cards <= 100 ms and
Commander <= 400 ms, cache-warm, median of 20; the cold figures (every cache cleared) are the real cost
of a deck seen for the first time, and are checked against the same targets.

    .venv/bin/python bench/castability.py
"""

from __future__ import annotations

import statistics
import sys
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules.decks import castability_cache
from app.rules.decks.castability import DeckMana, cast_probability

F = frozenset
Spell = tuple[dict[str, int], int]

JUND = DeckMana(60, {F("G"): 8, F("B"): 5, F("R"): 4, F("BG"): 4, F("RG"): 4})
JUND_7 = DeckMana(60, {F("G"): 4, F("B"): 3, F("R"): 3, F("BG"): 4, F("RG"): 8, F("BR"): 2, F("BRG"): 1})
JUND_SPELLS: list[Spell] = [
    ({"G": 1}, 1), ({"B": 1}, 1), ({"R": 1}, 1), ({"G": 1}, 2), ({"B": 1, "G": 1}, 2), ({"R": 1, "G": 1}, 2),
    ({"B": 1, "G": 1}, 3), ({"B": 1, "R": 1, "G": 1}, 3), ({"G": 2}, 4), ({"B": 1, "R": 1}, 5), ({"B": 2}, 3),
    ({"R": 2, "G": 1}, 5), ({"B": 1, "R": 1, "G": 3}, 6),
]  # fmt: skip
ESPER = DeckMana(99, {F("W"): 10, F("U"): 10, F("B"): 8, F("WUB"): 6, F(): 4})
_ESPER_COSTS = [
    {"W": 1}, {"U": 1}, {"B": 1}, {"W": 1, "U": 1}, {"U": 1, "B": 1}, {"W": 1, "B": 1}, {"W": 2}, {"U": 2},
    {"B": 2}, {"W": 1, "U": 1, "B": 1}, {"U": 2, "B": 1}, {"W": 1, "U": 1, "B": 2},
]  # fmt: skip
ESPER_SPELLS: list[Spell] = [
    (_ESPER_COSTS[i % 12], max(sum(_ESPER_COSTS[i % 12].values()), 1 + (i * 3) % 7)) for i in range(30)
]


def ours(deck: DeckMana, spells: list[Spell], commander: bool) -> None:
    for pips, turn in spells:
        cast_probability(deck, pips, turn, commander=commander)


def baseline(deck: DeckMana, spells: list[Spell], commander: bool) -> None:
    for pips, turn in spells:
        seen = 7 + (turn if commander else turn - 1)
        for color, n in pips.items():
            sources = sum(k for kind, k in deck.lands.items() if color in kind)
            total = comb(deck.deck_size, seen)
            sum(
                comb(sources, i) * comb(deck.deck_size - sources, seen - i) for i in range(n, seen + 1)
            ) / total


def clear() -> None:
    castability_cache.cache_clear()


def timed(fn: object, *args: object, cold: bool) -> float:
    assert callable(fn)
    if cold:
        clear()
    t = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - t) * 1000


def main() -> None:
    print(f"{'deck':<34} {'first ms':>9} {'cold ms':>9} {'warm ms':>9} {'base ms':>9} {'cold/base':>10}")
    for name, deck, spells, commander, target in [
        ("60 cards, 3 colors, 5 land kinds", JUND, JUND_SPELLS, False, 100.0),
        ("Commander 99, 3 colors, 5 kinds", ESPER, ESPER_SPELLS, True, 400.0),
        ("60 cards, 3 colors, 7 land kinds", JUND_7, JUND_SPELLS, False, None),
    ]:
        first = timed(ours, deck, spells, commander, cold=True)
        cold = statistics.median(timed(ours, deck, spells, commander, cold=True) for _ in range(20))
        warm = statistics.median(timed(ours, deck, spells, commander, cold=False) for _ in range(20))
        base = statistics.median(timed(baseline, deck, spells, commander, cold=False) for _ in range(20))
        note = (
            ""
            if target is None
            else f"  (<= {target:.0f} ms: warm {'met' if warm <= target else 'MISSED'},"
            f" cold {'met' if cold <= target else 'MISSED'})"
        )
        print(f"{name:<34} {first:>9.1f} {cold:>9.1f} {warm:>9.3f} {base:>9.3f} {cold / base:>9.0f}x{note}")


if __name__ == "__main__":
    main()
