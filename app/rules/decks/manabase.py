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

from collections.abc import Callable, Mapping, Sequence
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


# --- the best plan when not every spell can get there ------------------------------------------------

MAX_PAIRS: Final = 20_000
"""Removal and addition vectors combined, over all plan sizes, before the best-plan search stops."""


@dataclass(frozen=True, slots=True)
class BestPlan:
    """The best plan of ``best_plan``: its ``swaps``, the ``sources`` per color once made, which spells it
    brings to their threshold (``reached``, indices of ``needs``), its total ``shortfall`` (sources missing,
    summed over the other spells' colors), the spells some plan within the bound brings there on their own
    (``reachable``), ``complete`` (every plan up to ``max_changes`` swaps was weighed) and ``tried_up_to``
    (the largest plan size fully weighed)."""

    swaps: tuple[Swap, ...]
    sources: dict[str, int]
    reached: tuple[int, ...]
    shortfall: int
    reachable: tuple[bool, ...]
    complete: bool
    tried_up_to: int


def _pareto(
    vectors: dict[tuple[int, ...], tuple[int, ...]], keep_low: bool
) -> dict[tuple[int, ...], tuple[int, ...]]:
    """The vectors no other one beats in every color (lowest for removals, highest for additions)."""
    items = sorted(vectors.items(), key=lambda kv: sum(kv[0]), reverse=not keep_low)
    kept: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for vec, witness in items:
        if keep_low:
            beaten = any(all(o <= v for o, v in zip(other, vec, strict=True)) for other, _ in kept)
        else:
            beaten = any(all(o >= v for o, v in zip(other, vec, strict=True)) for other, _ in kept)
        if not beaten:
            kept.append((vec, witness))
    return dict(kept)


LAYER_CAP: Final = 32
"""Color vectors kept per plan size while summing removals or additions; past it the most useful are kept
(``weights``) and the search says it was not complete."""


def _sums(
    classes: list[tuple[tuple[int, ...], int]],
    max_changes: int,
    keep_low: bool,
    weights: tuple[int, ...],
) -> tuple[list[dict[tuple[int, ...], tuple[int, ...]]], bool]:
    """Per number of copies k (0..max_changes), the color vectors that k copies taken from ``classes`` (a
    projected color mask and the copies available) can sum to, each with its witness (copies per class),
    Pareto-best at the end; and whether a layer was cut to ``LAYER_CAP`` (then not every sum was kept:
    the ones kept are the lowest, for removals, or highest, for additions, by ``weights``)."""
    width = len(weights)
    zero = tuple(0 for _ in range(width))
    layers: list[dict[tuple[int, ...], tuple[int, ...]]] = [{zero: tuple(0 for _ in classes)}]
    layers += [{} for _ in range(max_changes)]
    cut = False
    for i, (mask, copies) in enumerate(classes):
        deadline.check()  # one class of lands of the best-plan search
        grown: list[dict[tuple[int, ...], tuple[int, ...]]] = [dict(layer) for layer in layers]
        for k, layer in enumerate(layers):
            for vec, witness in layer.items():
                for t in range(1, min(copies, max_changes - k) + 1):
                    nxt = tuple(v + t * m for v, m in zip(vec, mask, strict=True))
                    if nxt not in grown[k + t]:
                        w = list(witness)
                        w[i] += t
                        grown[k + t][nxt] = tuple(w)
        for k, layer in enumerate(grown):
            if len(layer) > LAYER_CAP:
                layer = _pareto(layer, keep_low)
            if len(layer) > LAYER_CAP:
                cut = True
                ranked = sorted(
                    layer.items(),
                    key=lambda kv: sum(w * v for w, v in zip(weights, kv[0], strict=True)),
                    reverse=not keep_low,
                )
                layer = dict(ranked[:LAYER_CAP])
            grown[k] = layer
        layers = grown
    return [_pareto(layer, keep_low) for layer in layers], cut


def best_plan(
    lands: Sequence[LandKind],
    needs: Sequence[Mapping[str, int]],
    *,
    max_changes: int,
    max_pairs: int = MAX_PAIRS,
) -> BestPlan:
    """The plan of at most ``max_changes`` swaps that brings the most spells (``needs``: per spell, the
    sources it needs per color) to their threshold, then leaves the smallest total shortfall, then has the
    fewest swaps. Exact: every plan size is weighed over the Pareto-best removals and additions (sources
    only help, so a plan beaten in every color is never better); past ``max_pairs`` the search stops and
    the answer says which sizes were weighed (``complete`` false)."""
    for need in needs:
        _check_input(lands, need)
    groups = _groups(lands)
    colors = [c for c in COLORS if any(n.get(c, 0) > 0 for n in needs)]
    have0 = sources(groups)
    base = tuple(have0[c] for c in colors)
    out_classes = _classes([g for g in groups if g.removable and g.count], colors, lambda g: g.count)
    in_classes = _classes([g for g in groups if g.addable], colors, lambda g: g.addable)
    most = tuple(max(n.get(c, 0) for n in needs) for c in colors)
    # Removing a color the deck has to spare costs least; adding a color most short helps most.
    spare = tuple(1 if b > m else 3 for b, m in zip(base, most, strict=True))
    short_by = tuple(1 + max(0, m - b) for b, m in zip(base, most, strict=True))
    removals, cut_r = _sums([(m, n) for m, n, _ in out_classes], max_changes, True, spare)
    additions, cut_a = _sums([(m, n) for m, n, _ in in_classes], max_changes, False, short_by)
    distinct: dict[tuple[int, ...], list[int]] = {}
    for i, need in enumerate(needs):
        distinct.setdefault(tuple(need.get(c, 0) for c in colors), []).append(i)
    reachable = [False] * len(needs)
    best: tuple[int, int] | None = None
    best_at: tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
    pairs = 0
    tried = -1
    complete = not (cut_r or cut_a)
    for k in range(max_changes + 1):
        deadline.check()  # one plan size of the best-plan search
        if pairs + len(removals[k]) * len(additions[k]) > max_pairs and k > 0:
            complete = False
            break
        for r, r_w in removals[k].items():
            for a, a_w in additions[k].items():
                pairs += 1
                h = tuple(b - x + y for b, x, y in zip(base, r, a, strict=True))
                reached = 0
                short = 0
                for wanted, members in distinct.items():
                    lack = sum(max(0, n - v) for n, v in zip(wanted, h, strict=True))
                    if lack == 0:
                        reached += len(members)
                        for i in members:
                            reachable[i] = True
                    else:
                        short += lack * len(members)
                score = (reached, -short)
                if best is None or score > best:
                    best = score
                    best_at = (k, h, r_w, a_w)
        tried = k
        if best is not None and best == (len(needs), 0):
            break  # every spell there, with the fewest swaps: nothing beats it
    assert best_at is not None  # k = 0 (no change) is always weighed
    k, h, r_w, a_w = best_at
    gone = _members(out_classes, r_w, lambda g: g.count)
    came = _members(in_classes, a_w, lambda g: g.addable)
    swaps = _expand(lands, list(zip(gone, came, strict=True))) if k else ()
    final = dict(have0)
    for c, v in zip(colors, h, strict=True):
        final[c] = v
    for r_colors, a_colors in zip(gone, came, strict=True):
        for c in COLORS:
            if c not in colors:
                final[c] += (c in a_colors) - (c in r_colors)
    reached_idx = tuple(
        i for i, need in enumerate(needs) if all(final.get(c, 0) >= n for c, n in need.items())
    )
    assert best is not None
    return BestPlan(swaps, final, reached_idx, -best[1], tuple(reachable), complete, tried)


def _classes(
    groups: list[LandKind], colors: list[str], copies: Callable[[LandKind], int]
) -> list[tuple[tuple[int, ...], int, list[LandKind]]]:
    """Groups with the same colors among ``colors`` as one class: (mask, copies, its groups)."""
    out: dict[tuple[int, ...], list[LandKind]] = {}
    for g in groups:
        out.setdefault(tuple(int(c in g.colors) for c in colors), []).append(g)
    return [(m, sum(copies(g) for g in gs), gs) for m, gs in out.items()]


def _members(
    classes: list[tuple[tuple[int, ...], int, list[LandKind]]],
    witness: tuple[int, ...],
    copies: Callable[[LandKind], int],
) -> list[frozenset[str]]:
    """The witness's copies per class as copies of its groups (the group with the most copies first)."""
    out: list[frozenset[str]] = []
    for (_, _, groups), t in zip(classes, witness, strict=True):
        left = t
        for g in sorted(groups, key=lambda g: -copies(g)):
            take = min(left, copies(g))
            out += [g.colors] * take
            left -= take
    return out
