"""The mana-base advisor: the fewest land swaps that bring a deck's spells to Karsten's source counts.

The target. A spell meets its threshold when, for each color of its cost, the deck's sources of that color
are at least the table cell ``castability.sources_needed`` for its symbols of that color, its turn, the
deck's size and land count (the ``meets`` of deck analysis). A swap takes out one land and puts in another,
so the deck's size and land count, hence every table cell, stay as they are: the target is a fixed number
of sources per color (``required``: the largest cell over the spells), and a plan meets it when every color
has that many lands producing it (CR 106.7: a land counts for each color it could produce).

The search. A change swaps one copy of a land of the deck for one copy of a land that may be added (a
basic, a land already in the deck, a candidate), within the copies a deck may hold (CR 100.2a: four of a
card but basic lands, CR 903.5b: one in Commander). Only a land's colors count toward the target, so lands
are searched in groups by their colors (at most 32 a side) and the plan is mapped back to lands afterwards.
Plans are searched by increasing number of swaps (iterative deepening), each plan once (swaps in a fixed
order), with two bounds: one swap adds at most one source of each color, so a plan with ``k`` swaps left
cannot close a color's deficit larger than ``k``; and it lowers the total deficit (the sources missing,
summed over the colors) by at most the short colors its new land adds less the colors at or under their
need that its old land takes away, so ``k`` swaps cannot close more than ``k`` times the best such swap
still open. The first plan found has the fewest swaps: exact. The search is bounded by ``max_changes`` and
``max_nodes`` (which also bounds the swap pairs looked at); when the node budget runs out before a plan is
found or every plan of the last size was ruled out, the answer says so (``complete`` false,
``proven_below``: no plan with fewer swaps exists).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from app.rules import deadline
from app.rules.errors import RulesError

COLORS: Final = "WUBRG"
MAX_NODES: Final = 8_000
"""Search nodes (swap choices tried) per plan; beyond it the answer is what was proven."""
WORK_PER_NODE: Final = 64
"""The budget also bounds the swap pairs looked at, ``WORK_PER_NODE`` per node on average."""


class ManabaseError(RulesError):
    """Input the advisor cannot take: counts that do not add up, unknown colors."""


@dataclass(frozen=True, slots=True)
class LandKind:
    """A land of the deck (``count`` copies; taken out only if ``removable``) or one the plan may put in
    (``addable`` more copies)."""

    key: str
    colors: frozenset[str]
    count: int
    addable: int
    removable: bool = True


@dataclass(frozen=True, slots=True)
class Swap:
    remove: str
    add: str
    count: int


@dataclass(frozen=True, slots=True)
class Plan:
    """``swaps`` (None: no plan found within the bounds), ``complete`` (every plan up to ``max_changes``
    swaps was decided: a missing plan is then proven not to exist within them), ``proven_below`` (no plan
    has fewer swaps than this), ``nodes`` searched."""

    swaps: tuple[Swap, ...] | None
    complete: bool
    proven_below: int
    nodes: int


def sources(lands: Sequence[LandKind], counts: Sequence[int] | None = None) -> dict[str, int]:
    """Lands producing each color (each land counts once for every color it could produce)."""
    out = dict.fromkeys(COLORS, 0)
    for i, land in enumerate(lands):
        n = land.count if counts is None else counts[i]
        for c in land.colors:
            out[c] += n
    return out


def plan(
    lands: Sequence[LandKind],
    required: Mapping[str, int],
    *,
    max_changes: int,
    max_nodes: int = MAX_NODES,
) -> Plan:
    """The fewest swaps after which every color ``c`` has at least ``required[c]`` sources (module
    docstring). Raises ``ManabaseError`` on a color outside WUBRG or negative counts."""
    _check_input(lands, required)
    search = _Search(_groups(lands), tuple(required.get(c, 0) for c in COLORS), max_nodes)
    if search.deficit() == 0:
        return Plan((), True, 0, 0)
    lower = max(search.need[j] - search.have[j] for j in range(5))
    for k in range(lower, max_changes + 1):
        if search.search(k, 0):
            grouped = search.lands
            colors = [(grouped[r].colors, grouped[a].colors) for r, a in search.chosen]
            return Plan(_expand(lands, colors), True, k, search.nodes)
        if search.out_of_budget:
            return Plan(None, False, k, search.nodes)
    return Plan(None, True, max_changes + 1, search.nodes)


def _check_input(lands: Sequence[LandKind], required: Mapping[str, int]) -> None:
    for c, n in required.items():
        if c not in COLORS or n < 0:
            raise ManabaseError(f"required sources must be WUBRG colors with counts from 0, not {c!r}: {n}")
    for land in lands:
        if land.count < 0 or land.addable < 0 or not land.colors <= frozenset(COLORS):
            raise ManabaseError(f"bad land kind {land.key!r}")


class _Search:
    """The iterative-deepening search of ``plan`` over land groups (module docstring): the state of the
    swaps chosen so far, undone on the way back."""

    def __init__(self, lands: list[LandKind], need: tuple[int, ...], max_nodes: int) -> None:
        self.lands = lands
        self.need = need
        self.max_nodes = max_nodes
        self.masks = tuple(tuple(c in land.colors for c in COLORS) for land in lands)
        self.have = [sum(land.count for i, land in enumerate(lands) if self.masks[i][j]) for j in range(5)]
        # A useful swap puts in a land with a color that is wanted and that the land taken out lacks (a
        # color not short now may be once another swap takes a source of it away).
        wanted = {j for j in range(5) if need[j] > 0}
        masks = self.masks
        pairs = [
            (r, a)
            for r in range(len(lands))
            if lands[r].count > 0 and lands[r].removable
            for a in range(len(lands))
            if a != r and lands[a].addable > 0 and any(masks[a][j] and not masks[r][j] for j in wanted)
        ]
        # Lands with fewer colors go out first, lands with more go in first: good plans are met early.
        pairs.sort(key=lambda p: (len(lands[p[0]].colors), -len(lands[p[1]].colors), p))
        self.pairs = pairs
        self.removed = [0] * len(lands)
        self.added = [0] * len(lands)
        self.chosen: list[tuple[int, int]] = []
        self.nodes = 0
        self.work = 0  # pairs looked at: a node's cost grows with the pairs, so the budget counts them too
        self.out_of_budget = False

    def deficit(self) -> int:
        return sum(max(0, self.need[j] - self.have[j]) for j in range(5))

    def net(self, r: int, a: int) -> int:
        """How much swapping ``r`` for ``a`` lowers the total deficit now: the short colors ``a`` adds, less
        the colors at or under their need that ``r`` takes away."""
        out = 0
        for j in range(5):
            if self.masks[a][j] and not self.masks[r][j] and self.have[j] < self.need[j]:
                out += 1
            elif self.masks[r][j] and not self.masks[a][j] and self.have[j] <= self.need[j]:
                out -= 1
        return out

    def can_swap(self, r: int, a: int) -> bool:
        """Whether another copy of ``r`` can go out and another of ``a`` come in."""
        return self.removed[r] < self.lands[r].count and self.added[a] < self.lands[a].addable

    def best_net(self, start: int) -> int:
        """The most one swap still open here can lower the total deficit."""
        return max((self.net(r, a) for r, a in self.pairs[start:] if self.can_swap(r, a)), default=0)

    def hopeless(self, left: int, start: int) -> bool:
        """Whether no plan of ``left`` more swaps from ``start`` can close the deficit (the two bounds)."""
        if left == 0 or max(self.need[j] - self.have[j] for j in range(5)) > left:
            return True
        best = self.best_net(start)
        return best == 0 or self.deficit() > left * best  # each swap lowers it by at most `best`

    def swap(self, r: int, a: int, step: int) -> None:
        """Do (``step`` 1) or undo (``step`` -1) swapping a copy of ``r`` for one of ``a``."""
        self.removed[r] += step
        self.added[a] += step
        for j in range(5):
            self.have[j] += step * (self.masks[a][j] - self.masks[r][j])

    def search(self, left: int, start: int) -> bool:
        deadline.check()  # one node of the search: its state is this call's own, dropped with it
        self.work += 2 * (len(self.pairs) - start)
        if self.work > self.max_nodes * WORK_PER_NODE:
            self.out_of_budget = True
            return False
        if self.deficit() == 0:
            return True
        if self.hopeless(left, start):
            return False
        for i in sorted(range(start, len(self.pairs)), key=lambda i: -self.net(*self.pairs[i])):
            r, a = self.pairs[i]
            if not self.can_swap(r, a):
                continue
            self.nodes += 1
            if self.nodes > self.max_nodes:
                self.out_of_budget = True
                return False
            self.swap(r, a, 1)
            self.chosen.append((r, a))
            if self.search(left - 1, i):
                return True
            self.chosen.pop()
            self.swap(r, a, -1)
        return False


def _groups(lands: Sequence[LandKind]) -> list[LandKind]:
    """Lands that may go out, grouped by their colors; lands that may come in, likewise; lands that stay
    (not removable). Only colors count toward the target, so a plan over groups is a plan over lands: at
    most 32 groups a side, whatever the deck (a 1,000-line list of distinct lands included)."""
    out: dict[frozenset[str], int] = {}
    into: dict[frozenset[str], int] = {}
    fixed: dict[frozenset[str], int] = {}
    for land in lands:
        if land.removable:
            out[land.colors] = out.get(land.colors, 0) + land.count
        else:
            fixed[land.colors] = fixed.get(land.colors, 0) + land.count
        if land.addable:
            into[land.colors] = into.get(land.colors, 0) + land.addable
    name = "".join
    return [
        *(LandKind(f"out:{name(sorted(c))}", c, n, 0) for c, n in out.items()),
        *(LandKind(f"in:{name(sorted(c))}", c, 0, n) for c, n in into.items()),
        *(LandKind(f"fixed:{name(sorted(c))}", c, n, 0, removable=False) for c, n in fixed.items()),
    ]


def _expand(
    lands: Sequence[LandKind], swaps: Sequence[tuple[frozenset[str], frozenset[str]]]
) -> tuple[Swap, ...]:
    """Group swaps as swaps of lands: copies taken out of the lands of those colors with the most copies
    first, put in to the lands of those colors that may take the most copies first (a basic before a
    dual), each within its count."""
    taken = {land.key: 0 for land in lands}
    put = {land.key: 0 for land in lands}
    out_order = sorted(
        (land for land in lands if land.removable and land.count), key=lambda x: (-x.count, x.key)
    )
    in_order = sorted((land for land in lands if land.addable), key=lambda x: (-x.addable, x.key))
    merged: dict[tuple[str, str], int] = {}
    for gone, came in swaps:
        r = next(x for x in out_order if x.colors == gone and taken[x.key] < x.count)
        a = next(x for x in in_order if x.colors == came and put[x.key] < x.addable)
        taken[r.key] += 1
        put[a.key] += 1
        merged[(r.key, a.key)] = merged.get((r.key, a.key), 0) + 1
    return tuple(Swap(r, a, n) for (r, a), n in merged.items())
