"""The exact computation of Karsten's castability model (see ``castability``'s docstring for the model):
the London mulligan stages (CR 103.5, 103.5c), Hall states deciding whether the lands seen pay the spell's
colored symbols together (CR 106.7, 601.2g-h: one land, one mana), and the dynamic programs over land
kinds summing the hypergeometric weights; ``probabilities`` is its entry, cached (``castability_cache``)."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Final

from app.rules import deadline
from app.rules.decks.castability_cache import bounded
from app.rules.errors import RulesError

HAND_SIZE = 7
LANDS_AIMED_FOR = 3
"""After a mulligan, the hand keeps 3 lands when it can (the contract's bottoming policy)."""
_Class = tuple[str, int]
"""A projected land kind: the spell colors it could produce (a sorted string) and its copies."""

STATES_PER_CHECK: Final = 63
"""A dynamic program's states between two deadline checks, less one (a mask: every 64th state)."""
HALL_MEMO_MAX: Final = 20_000
"""A Hall state's memo of added lands is emptied beyond this many entries (each a few hundred bytes)."""


class CastabilityError(RulesError):
    """Input the castability model cannot take: a turn below 1, counts that do not add up, unknown colors."""


# --- the exact computation ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Stage:
    """One hand of the mulligan sequence: how many cards go to the bottom, and which 7-card land counts
    are mulliganed when none do (CR 103.5: London mulligan; CR 103.5c: Commander's free first one)."""

    bottom: int
    mulligan_at: frozenset[int]

    def kept_lands(self, lands: int) -> int:
        """Lands left after bottoming ``self.bottom`` cards aiming for 3 lands (spells first while the hand
        has 3 lands or fewer)."""
        return lands - min(self.bottom, max(0, lands - LANDS_AIMED_FOR))

    def keeps(self, lands: int) -> bool:
        if self.bottom == 0:
            return lands not in self.mulligan_at
        if self.bottom >= HAND_SIZE - 4:  # a 4-card hand is always kept
            return True
        return 2 <= self.kept_lands(lands) <= 4


_SEVEN_CARD_MULLIGAN = frozenset({0, 1, 6, 7})
_FREE_MULLIGAN = frozenset({0, 1, 2, 6, 7})


def stages(commander: bool) -> tuple[_Stage, ...]:
    first = (_Stage(0, _FREE_MULLIGAN),) if commander else ()
    return (
        *first,
        _Stage(0, _SEVEN_CARD_MULLIGAN),
        _Stage(1, frozenset()),
        _Stage(2, frozenset()),
        _Stage(3, frozenset()),
    )


def _compositions(classes: tuple[_Class, ...], total_max: int, exact: bool) -> Iterator[tuple[int, ...]]:
    """Every vector of per-class land counts (each within its class's copies) summing to ``total_max``
    (``exact``) or to at most it."""
    n = len(classes)
    vec = [0] * n
    # Copies of the classes from i on: an exact sum out of their reach is not explored (without this, the
    # search walked every vector of a smaller sum too, hundreds of milliseconds between two hands).
    room = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        room[i] = room[i + 1] + classes[i][1]

    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == n:
            if not exact or left == 0:
                yield tuple(vec)
            return
        if exact and left > room[i]:
            return
        for k in range(min(classes[i][1], left) + 1):
            vec[i] = k
            yield from rec(i + 1, left - k)
        vec[i] = 0

    yield from rec(0, total_max)


@dataclass(frozen=True, slots=True)
class Hall:
    """The spell's colored symbols seen through Hall's condition (a matching exists iff every set S of its
    colors is touched by at least pips(S) lands). A state ``h`` holds, for each nonempty S, the lands
    touching S capped at pips(S): adding lands only needs ``h``, and the largest payable number of symbols
    is ``pip_total - max(pips(S) - h[S])`` (the deficiency form), so ``h == full`` means "pays"."""

    full: tuple[int, ...]
    touches: tuple[tuple[bool, ...], ...]  # per land kind, per subset S: does the kind touch S?
    pip_total: int
    memo: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @staticmethod
    def of(kinds: tuple[str, ...], wanted: tuple[tuple[str, int], ...]) -> Hall:
        subsets = [
            frozenset(s)
            for size in range(1, len(wanted) + 1)
            for s in combinations([c for c, _ in wanted], size)
        ]
        pips = dict(wanted)
        full = tuple(sum(pips[c] for c in s) for s in subsets)
        touches = tuple(tuple(any(c in kind for c in s) for s in subsets) for kind in kinds)
        return Hall(full, touches, sum(pips.values()))

    def add(self, h: tuple[int, ...], kind: int, k: int) -> tuple[int, ...]:
        """The state after ``k`` more lands of kind ``kind`` (memoized: the states are few)."""
        if k == 0:
            return h
        key = (h, kind, k)
        out = self.memo.get(key)
        if out is None:
            out = tuple(
                min(v + k, f) if t else v for v, f, t in zip(h, self.full, self.touches[kind], strict=True)
            )
            self._keep(key, out)
        return out

    def of_lands(self, vec: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        """The state of these lands (``vec[i]`` of kind ``i``), memoized."""
        key = (tuple(vec), -1, -1)
        out = self.memo.get(key)
        if out is None:
            out = tuple(0 for _ in self.full)
            for kind, k in enumerate(vec):
                out = self.add(out, kind, k)
            self._keep(key, out)
        return out

    def _keep(self, key: tuple[tuple[int, ...], int, int], out: tuple[int, ...]) -> None:
        if len(self.memo) >= HALL_MEMO_MAX:
            self.memo.clear()  # the states recur within one computation: a fresh memo refills quickly
        self.memo[key] = out

    def matched(self, h: tuple[int, ...]) -> int:
        return self.pip_total - max(0, *(f - v for f, v in zip(self.full, h, strict=True)))

    def saturated(self, h: tuple[int, ...], kind: int) -> bool:
        """More lands of this kind change nothing (it touches no set that still lacks lands)."""
        return all(v >= f or not t for v, f, t in zip(h, self.full, self.touches[kind], strict=True))


def mulligan_weights(
    land_total: int, nonlands: int, draws: int, turn: int, commander: bool
) -> tuple[list[float], dict[tuple[int, int], float]]:
    """The London mulligan's stages (CR 103.5) as weights, the same for every castability model.

    ``weight[t]``: the chance (summed over stages, times the chance of reaching the stage) that a hand was
    kept without bottoming a land, given ``t`` lands among the first ``HAND_SIZE + draws`` cards of that
    stage's shuffle. ``bottoming[(lands, to_bottom)]``: the summed chance of reaching a stage whose 7-card
    hand with ``lands`` lands puts ``to_bottom`` of them on the bottom and is kept."""
    deck = land_total + nonlands
    seen = HAND_SIZE + draws
    if seen > deck:
        raise CastabilityError(f"a deck of {deck} cards cannot show {seen} cards by turn {turn}")
    hand_lands = [
        comb(land_total, k) * comb(nonlands, HAND_SIZE - k) / comb(deck, HAND_SIZE)
        for k in range(HAND_SIZE + 1)
    ]
    weight = [0.0] * (seen + 1)
    bottoming: dict[tuple[int, int], float] = {}
    reach = 1.0
    for stage in stages(commander):
        mulligan = 0.0
        for lands in range(HAND_SIZE + 1):
            if not stage.keeps(lands):
                mulligan += hand_lands[lands]
                continue
            kept = stage.kept_lands(lands)
            if kept == lands:  # only spells went to the bottom
                for t in range(lands, min(seen, lands + draws) + 1):
                    weight[t] += (
                        reach * comb(t, lands) * comb(seen - t, HAND_SIZE - lands) / comb(seen, HAND_SIZE)
                    )
            else:
                key = (lands, lands - kept)
                bottoming[key] = bottoming.get(key, 0.0) + reach
        reach *= mulligan
    return weight, bottoming


@bounded("probabilities", lambda args: (args, args))
def probabilities(
    classes: tuple[_Class, ...],
    nonlands: int,
    wanted: tuple[tuple[str, int], ...],
    turn: int,
    draws: int,
    commander: bool,
) -> tuple[float, float]:
    copies = tuple(c for _, c in classes)
    hall = Hall.of(tuple(k for k, _ in classes), wanted)
    land_total = sum(copies)
    deck = land_total + nonlands
    seen = HAND_SIZE + draws
    weight, bottoming = mulligan_weights(land_total, nonlands, draws, turn, commander)
    success = 0.0
    condition = 0.0
    for (lands, to_bottom), chance in bottoming.items():
        # mypyc keeps one representation per variable: ``c`` is an int copy count below, so not reused here
        s, conditioned = _bottoming_hands(classes, nonlands, lands, to_bottom, draws, turn, hall)
        success += chance * s
        condition += chance * conditioned
    # Hands that bottomed no land: sum over the lands among the first `seen` cards, by a dynamic program
    # over the land kinds whose state is (the Hall state, lands so far).
    zero = hall.of_lands(())
    states: dict[tuple[tuple[int, ...], int], int] = {(zero, 0): 1}
    for kind, c in enumerate(copies):
        deadline.check()  # one land kind of the dynamic program
        grown: dict[tuple[tuple[int, ...], int], int] = {}
        for step, ((h, t), w) in enumerate(states.items()):
            if not step & STATES_PER_CHECK:
                deadline.check()  # every few dozen states of the kind
            for k in range(min(c, seen - t) + 1):
                state = (hall.add(h, kind, k), t + k)
                grown[state] = grown.get(state, 0) + w * comb(c, k)
        states = grown
    norm = comb(deck, seen)
    for (h, t), w in states.items():
        if t < turn or weight[t] == 0.0:
            continue
        p = w * comb(nonlands, seen - t) / norm * weight[t]
        condition += p
        if h == hall.full:
            success += p
    return success, condition


def _bottom(hand: tuple[int, ...], count: int, kinds_colors: tuple[int, ...], hall: Hall) -> tuple[int, ...]:
    """The hand's lands after putting ``count`` lands on the bottom, one at a time: each time the land whose
    loss keeps the most symbols payable, then the one producing the fewest of the spell's colors (so
    off-color lands go first), then the first kind."""
    order = sorted(range(len(hand)), key=lambda j: (kinds_colors[j], j))
    vec = list(hand)
    for j in order:  # lands producing none of the spell's colors change nothing: they go first
        if kinds_colors[j] or not count:
            break
        gone = min(count, vec[j])
        vec[j] -= gone
        count -= gone
    for _ in range(count):
        now = hall.matched(hall.of_lands(vec))
        chosen = -1
        for j in order:
            if vec[j] == 0:
                continue
            if chosen < 0:
                chosen = j  # removing one land loses at most one symbol: the first kind is the fallback
            vec[j] -= 1
            keeps = hall.matched(hall.of_lands(vec)) == now
            vec[j] += 1
            if keeps:
                chosen = j
                break
        vec[chosen] -= 1
    return tuple(vec)


def _bottoming_hands(
    classes: tuple[_Class, ...],
    nonlands: int,
    lands: int,
    to_bottom: int,
    draws: int,
    turn: int,
    hall: Hall,
) -> tuple[float, float]:
    """(P(success and enough lands), P(enough lands)) summed over 7-card hands with ``lands`` lands, of which
    ``to_bottom`` go to the bottom, and over the draws that follow from the rest of the library."""
    deck = sum(c for _, c in classes) + nonlands
    spells_in_hand = HAND_SIZE - lands
    if spells_in_hand > nonlands:
        return 0.0, 0.0
    library_nonlands = nonlands - spells_in_hand
    scale = comb(nonlands, spells_in_hand) / comb(deck, HAND_SIZE) / comb(deck - HAND_SIZE, draws)
    lands_needed = turn - (lands - to_bottom)
    success = 0
    condition = 0
    for w_hand, start, library, pool in _hand_table(classes, lands, to_bottom, hall):
        deadline.check()  # one kept hand's draws (a cached table's hand is cheap, its draws are not)
        s, c = _draws(start, library, pool, library_nonlands, draws, lands_needed, hall)
        success += w_hand * s
        condition += w_hand * c
    return success * scale, condition * scale


def _hall_key(args: tuple[object, ...]) -> tuple[Hashable, object]:
    """A cache key naming the Hall (the last argument) by its shape: shared tuples, not counted, and no
    cache entry keeps a Hall and its memo alive."""
    hall = args[-1]
    assert isinstance(hall, Hall)
    return (*args[:-1], hall.full, hall.touches), args[:-1]


@bounded("hands", _hall_key)
def _hand_table(
    classes: tuple[_Class, ...], lands: int, to_bottom: int, hall: Hall
) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...], int], ...]:
    """Per 7-card hand with ``lands`` lands (by kind) that puts ``to_bottom`` of them on the bottom: its
    weight (ways to draw those lands), the Hall state it keeps, the library's lands per kind still useful
    (-1: changes nothing) and how many lands are pooled as plain ones. Independent of the turn: spells of
    the same colors and symbols on other turns, and the mulligan stages, share it (cached, bounded)."""
    copies = tuple(c for _, c in classes)
    kinds_colors = tuple(len(k) for k, _ in classes)
    saturated: dict[tuple[int, ...], tuple[bool, ...]] = {}  # per kept state: the kinds that change nothing
    kinds = range(len(copies))
    out = []
    for hand in _compositions(classes, lands, exact=True):
        deadline.check()  # one kept hand; an exception is never cached by lru_cache
        w_hand = 1
        for k, c in zip(hand, copies, strict=True):
            w_hand *= comb(c, k)
        start = hall.of_lands(_bottom(hand, to_bottom, kinds_colors, hall))
        flags = saturated.get(start)
        if flags is None:
            flags = saturated[start] = tuple(hall.saturated(start, j) for j in kinds)
        library = tuple(-1 if f else c - k for f, c, k in zip(flags, copies, hand, strict=True))
        pool = sum(c - k for c, k, n in zip(copies, hand, library, strict=True) if n < 0)
        out.append((w_hand, start, library, pool))
    return tuple(out)


@bounded("draws", _hall_key)
def _draws(
    start: tuple[int, ...],
    library: tuple[int, ...],
    pool: int,
    nonlands: int,
    draws: int,
    lands_needed: int,
    hall: Hall,
) -> tuple[int, int]:
    """Weighted counts (products of binomials, not yet divided by the number of draws) of the ``draws``
    cards that (succeed, reach ``lands_needed`` lands) from a library with ``library[i]`` lands of each kind
    the kept hand still lacks (-1 for kinds that would change nothing, pooled in ``pool`` as plain lands).

    A dynamic program over the kinds the hand lacks, whose state is (Hall state, lands drawn so far); the
    pooled lands and the nonlands then fill the remaining draws. Cached (bounded): the key names the Hall by
    its shape (shared tuples, not counted), not by the object, so no entry keeps a Hall and its memo alive."""
    if start == hall.full:  # the kept hand pays already: only the number of lands drawn matters
        lands = pool + sum(n for n in library if n > 0)
        ways = sum(comb(lands, m) * comb(nonlands, draws - m) for m in range(max(0, lands_needed), draws + 1))
        return ways, ways
    states: dict[tuple[tuple[int, ...], int], int] = {(start, 0): 1}
    for kind, n in enumerate(library):
        if n < 0:
            continue
        deadline.check()  # one land kind of the draws' dynamic program; nothing is cached before it returns
        grown: dict[tuple[tuple[int, ...], int], int] = {}
        for step, ((h, drawn), w) in enumerate(states.items()):
            if not step & STATES_PER_CHECK:
                deadline.check()  # every few dozen states of the kind
            for k in range(min(n, draws - drawn) + 1):
                key = (hall.add(h, kind, k), drawn + k)
                grown[key] = grown.get(key, 0) + w * comb(n, k)
        states = grown
    # tail[m]: ways to fill the draws after m lands of the lacking kinds, with enough lands in all.
    tail = [
        sum(
            comb(pool, p) * comb(nonlands, draws - m - p)
            for p in range(max(0, lands_needed - m), draws - m + 1)
        )
        for m in range(draws + 1)
    ]
    success = 0
    condition = 0
    for (h, drawn), w in states.items():
        ways = w * tail[drawn]
        if ways:
            condition += ways
            if h == hall.full:
                success += ways
    return success, condition
