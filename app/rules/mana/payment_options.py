"""The payment solver's options: the ways each permanent's mana abilities can be used, as units of mana.

An ``Option`` is one way to use a group of sources (one permanent's {T} abilities: at most one of them,
CR 602.5b; or one listing of an ability without {T}): the units it adds (type masks), its activation cost,
its life cost, the resources it uses (``tokens``). Groups sharing a permanent that leaves with that
permanent's costed abilities are combined into one group (``clusters``, CR 118.3).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from app.rules.mana.payment_graph import ANY, BIT, LIFE, SPELL_ONLY, slot_mask, types_of
from app.rules.mana.payment_values import LEAVES, ManaSource, validate_source
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import MANA_TYPES


@dataclass(frozen=True, slots=True)
class Option:
    """One way a permanent can be used: its units (type masks), activation cost, life, provenance."""

    units: tuple[int, ...]
    snow: bool
    cost: ManaCost | None
    life: int
    source: int  # index into the sources list (for a merged option: of its first source)
    by_type: tuple[tuple[str, int], ...]  # flexible single-unit options: which source adds each type
    fixed: tuple[str, ...] | None  # the exact alternative, when the source's alternatives are not a product
    tokens: frozenset[str] = frozenset()
    parts: tuple[Option, ...] = ()  # a cluster's option: the activations it combines, in order
    snows: tuple[bool, ...] = ()  # a combined option's units: each one's snow (``snow``: any of them)

    def __init__(
        self,
        units: tuple[int, ...],
        snow: bool,
        cost: ManaCost | None,
        life: int,
        source: int,
        by_type: tuple[tuple[str, int], ...],
        fixed: tuple[str, ...] | None,
        tokens: frozenset[str] = frozenset(),
        parts: tuple[Option, ...] = (),
        snows: tuple[bool, ...] = (),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "snow", snow)
        object.__setattr__(self, "cost", cost)
        object.__setattr__(self, "life", life)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "by_type", by_type)
        object.__setattr__(self, "fixed", fixed)
        object.__setattr__(self, "tokens", tokens)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "snows", snows)

    def unit_snow(self, i: int) -> bool:
        return self.snows[i] if self.snows else self.snow

    @property
    def costed(self) -> bool:
        return self.cost is not None and not self.cost.is_zero

    @property
    def free(self) -> bool:
        return not self.costed and self.life == 0

    @property
    def sig(self) -> tuple[object, ...]:
        return (
            self.units,
            self.snow,
            str(self.cost) if self.costed else "",
            self.life,
            self.fixed,
            tuple(p.sig for p in self.parts),
            self.snows,
        )

    @property
    def cost_masks(self) -> tuple[int, ...]:
        """The mana each symbol of the activation cost accepts (generic, {S} and {2/W}: any type, at
        least one mana); Phyrexian symbols are left out, life may pay them."""
        cost = self.cost
        if cost is None:
            return ()
        masks = [ANY] * cost.generic
        for sym in cost.others:
            slot = slot_mask(sym)
            if slot is None:
                masks.append(ANY)
            elif not slot[0] & LIFE:
                masks.append(ANY if slot[1] else slot[0])
        return tuple(masks)

    @property
    def net(self) -> int:
        cost = self.cost
        spent = 0 if cost is None else cost.generic + len(cost.others)
        return len(self.units) - spent


CLUSTER_BOUND: Final = 512
"""The most combinations of one cluster of sources sharing resources (``clusters``)."""


def clash(used: frozenset[str], picks: list[tuple[int, Option]]) -> bool:
    """Whether ``picks`` use a token twice, among themselves or with ``used``."""
    seen = set(used)
    for _g, o in picks:
        if o.tokens & seen:
            return True
        seen |= o.tokens
    return False


def combinations(groups: list[list[Option]], bound: int) -> tuple[list[Option], bool]:
    """Every non-empty choice of at most one option per group using no token twice, combined; and whether
    the list was cut at ``bound``."""
    combos: list[Option] = []

    def walk(k: int, used: frozenset[str], picked: tuple[Option, ...]) -> bool:
        if k == len(groups):
            if picked:
                if len(combos) >= bound:
                    return False
                combos.append(combine(picked))
            return True
        for o in groups[k]:
            if not o.tokens & used and not walk(k + 1, used | o.tokens, (*picked, o)):
                return False
        return walk(k + 1, used, picked)

    complete = walk(0, frozenset(), ())
    return combos, not complete


def combine(parts: tuple[Option, ...]) -> Option:
    """One option made of several activations (each keeps its own provenance, for the plan)."""
    if len(parts) == 1:
        return parts[0]
    cost: ManaCost | None = None
    for p in parts:
        if p.costed:
            assert p.cost is not None
            cost = p.cost if cost is None else cost + p.cost
    units = tuple(u for p in parts for u in p.units)
    snows = tuple(p.unit_snow(i) for p in parts for i in range(len(p.units)))
    tokens = frozenset().union(*(p.tokens for p in parts))
    life = sum(p.life for p in parts)
    return Option(units, any(snows), cost, life, parts[0].source, (), None, tokens, parts, snows)


def is_product(outputs: tuple[tuple[str, ...], ...]) -> tuple[int, int] | None:
    """(n, type mask) when the alternatives are exactly every multiset of n mana of those types."""
    if not outputs:
        return None
    n = len(outputs[0])
    if n == 0 or any(len(o) != n for o in outputs):
        return None
    mask = 0
    for o in outputs:
        for t in o:
            mask |= BIT[t]
    k = mask.bit_count()
    # Number of multisets of size n over k types: C(n+k-1, n).
    expected = 1
    for i in range(1, n + 1):
        expected = expected * (k - 1 + i) // i
    distinct = {tuple(sorted(o)) for o in outputs}
    return (n, mask) if len(distinct) == expected else None


def compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every way to split n identical permanents among k options, earlier options filled first."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in compositions(n - first, k - 1):
            yield (first, *rest)


def clusters(
    sources: Sequence[ManaSource], groups: list[list[Option]], notes: list[str]
) -> list[list[Option]]:
    """A group that makes a permanent leave and that permanent's groups with an activation cost become
    one group, whose options are every combination of at most one option of each with no token used
    twice (CR 118.3: a permanent is tapped once, leaves once; a card moves once). A combination count
    above ``CLUSTER_BOUND`` is cut there and said in ``notes``."""
    parent = list(range(len(groups)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    costed_of: dict[str, list[int]] = {}  # a permanent's groups with an activation cost
    for g, options in enumerate(groups):
        for o in options:
            if o.costed:
                costed_of.setdefault(sources[o.source].permanent, []).append(g)
    if not costed_of:  # no activation cost on the board (lands, {T}-only rocks): nothing to combine
        return list(groups)
    # A permanent that leaves can't be activated after, so the mana of what makes it leave can't pay
    # its own activation costs: the two are solved together, where a combination's mana never pays the
    # combination's own costs. (Other shared resources are kept apart by the search, ``_contested``.)
    for g, options in enumerate(groups):
        for o in options:
            for t in o.tokens:
                if t.startswith(LEAVES):
                    for other in costed_of.get(t[len(LEAVES) :], ()):
                        if other != g:
                            parent[find(g)] = find(other)
    members: dict[int, list[int]] = {}
    for g in range(len(groups)):
        members.setdefault(find(g), []).append(g)
    out: list[list[Option]] = []
    for gs in members.values():
        if len(gs) == 1:
            out.append(groups[gs[0]])
            continue
        combos, cut = combinations([groups[g] for g in gs], CLUSTER_BOUND)
        if cut:
            names = sorted({sources[o.source].permanent for g in gs for o in groups[g]})
            notes.append(
                f"{', '.join(names)} share permanents or cards that their costs use: only the first "
                f"{CLUSTER_BOUND} ways of sharing them were tried"
            )
        combos.sort(key=lambda o: (not o.free, -o.net, o.life, o.source))
        out.append(combos)
    return out


def options_of(
    sources: Sequence[ManaSource],
    members: list[int],
    products: dict[tuple[tuple[str, ...], ...], tuple[int, int] | None],
) -> list[Option]:
    """The ways one group of sources (one permanent's {T} abilities, or one listing of an ability without
    {T}) can be used: each free one-mana ability merged by type into one unit (CR 106.4, 605.1a), each
    product of alternatives (a filter land) as n flexible units, every other alternative as it is.
    ``products`` memoizes ``is_product`` over one board's sources (most share their outputs)."""
    if len(members) == 1:
        one = _one_unit(sources, members[0], products)
        if one is not None:
            return [one]
    options: list[Option] = []
    simple: dict[tuple[bool, bool], dict[str, int]] = {}
    for idx in members:
        src = sources[idx]
        cost = src.activation_cost
        if cost is not None and cost.is_infinite:
            continue
        prod = _product(src, products)
        free = (cost is None or cost.is_zero) and src.life_cost == 0
        if prod is not None and prod[0] == 1 and free and not src.tokens:
            table = simple.setdefault((src.snow, src.spell_only), {})
            for t in types_of(prod[1]):
                table.setdefault(t, idx)
            continue
        options.extend(_alternatives(src, idx, prod))
    merged = []
    for (snow, spell_only), table in sorted(simple.items()):
        mask = SPELL_ONLY if spell_only else 0
        for t in table:
            mask |= BIT[t]
        first = min(table.values())
        by_type = tuple((t, table[t]) for t in MANA_TYPES if t in table)
        tokens = frozenset().union(*(sources[i].all_tokens for i in table.values()))
        merged.append(Option((mask,), snow, None, 0, first, by_type, None, tokens))
    # Option order is the branching order: free first, then the most net mana, then least life.
    all_options = merged + options
    if len(all_options) > 1:
        all_options.sort(
            key=lambda o: (not o.free, -o.net, o.life, o.source)
        )  # stable: alternatives in order
    return all_options


def _alternatives(src: ManaSource, idx: int, prod: tuple[int, int] | None) -> list[Option]:
    """The options of one source that is not merged: a product of alternatives (a filter land's
    {W}{W}/{W}{U}/{U}{U}, CR 106.4) as n flexible units, otherwise each distinct alternative."""
    only = SPELL_ONLY if src.spell_only else 0
    cost = src.activation_cost
    tokens = src.all_tokens
    if prod is not None:
        n, mask = prod
        by_type = tuple((t, idx) for t in types_of(mask))
        return [Option((mask | only,) * n, src.snow, cost, src.life_cost, idx, by_type, None, tokens)]
    options: list[Option] = []
    seen: set[tuple[str, ...]] = set()
    for alt in src.outputs:
        key = tuple(sorted(alt, key=MANA_TYPES.index))
        if key in seen:
            continue
        seen.add(key)
        units = tuple(BIT[t] | only for t in key)
        options.append(Option(units, src.snow, cost, src.life_cost, idx, (), alt, tokens))
    return options


def _product(
    src: ManaSource, products: dict[tuple[tuple[str, ...], ...], tuple[int, int] | None]
) -> tuple[int, int] | None:
    outputs = src.outputs
    if outputs in products:
        return products[outputs]
    prod = products[outputs] = is_product(outputs)
    return prod


def _one_unit(
    sources: Sequence[ManaSource],
    idx: int,
    products: dict[tuple[tuple[str, ...], ...], tuple[int, int] | None],
) -> Option | None:
    """A group of one free ability adding one mana of a choice of types and using nothing else (most
    lands): its one option, as ``options_of`` merges it (CR 605.1a), built directly; None otherwise."""
    src = sources[idx]
    cost = src.activation_cost
    if src.tokens or src.life_cost or not (cost is None or cost.is_zero):
        return None
    prod = _product(src, products)
    if prod is None or prod[0] != 1:
        return None
    mask = prod[1] | (SPELL_ONLY if src.spell_only else 0)
    by_type = tuple((t, idx) for t in types_of(prod[1]))
    return Option((mask,), src.snow, None, 0, idx, by_type, None, src.all_tokens)


def option_groups(sources: Sequence[ManaSource], notes: list[str]) -> list[list[Option]]:
    """The sources grouped (a permanent's abilities with {T} or {Q} together, as it taps once, CR 602.5b;
    each listing of one without them apart) and each group's options, clusters combined; a group left
    with no option (its only ability costs {∞}, which nothing pays) is dropped."""
    by_group: dict[tuple[str, int | None, int], list[int]] = {}
    valid_outputs: set[tuple[tuple[str, ...], ...]] = set()
    for idx, src in enumerate(sources):
        validate_source(src, valid_outputs)
        key = (src.permanent, None, 0) if src.uses_permanent else (src.permanent, src.ability, src.activation)
        by_group.setdefault(key, []).append(idx)
    products: dict[tuple[tuple[str, ...], ...], tuple[int, int] | None] = {}
    groups = clusters(sources, [options_of(sources, m, products) for m in by_group.values()], notes)
    return [options for options in groups if options]


def tokens_of(options: Sequence[Option]) -> frozenset[str]:
    """Every resource some option of a group uses."""
    if len(options) == 1:  # most groups (a land's one option): its own set, not a union built anew
        return options[0].tokens
    return frozenset().union(*(o.tokens for o in options))


def mask_of(options: Sequence[Option]) -> int:
    """Every type (and restriction bit) some option of a group adds."""
    mask = 0
    for o in options:
        for u in o.units:
            mask |= u
    return mask


def contested_tokens(held: Sequence[frozenset[str]]) -> frozenset[str]:
    """Tokens held by two groups or more (``held``: each group's ``tokens_of``): the search keeps each used
    once (CR 118.3, a permanent is tapped once and leaves once, a card moves once)."""
    holders: dict[str, int] = {}
    for tokens in held:
        for token in tokens:
            holders[token] = holders.get(token, 0) + 1
    return frozenset(t for t, n in holders.items() if n > 1)


def interchangeable(
    groups: Sequence[Sequence[Option]], held: Sequence[frozenset[str]], contested: frozenset[str]
) -> set[int]:
    """Identical groups whose every option uses all of their contested tokens (two Altars that could each
    sacrifice this creature) exclude each other (CR 118.3: it is sacrificed once) and are interchangeable:
    the groups to drop, keeping the first of each kind."""
    kept: dict[tuple[object, ...], int] = {}
    dropped: set[int] = set()
    for g, options in enumerate(groups):
        mine = held[g] & contested
        if mine and all(mine <= o.tokens for o in options):
            same = (tuple(o.sig for o in options), mine)
            if same in kept:
                dropped.add(g)
            else:
                kept[same] = g
    return dropped


def flexibility(options: Sequence[Option]) -> int:
    """The tie-break rank of a group (CR 601.2h leaves the choice to the player; the solver keeps the most
    flexible sources untapped): how many types it can add, and one more for snow."""
    return (mask_of(options) & ANY).bit_count() + (1 if any(o.snow for o in options) else 0)


def relaxed(options: Sequence[Option]) -> tuple[int, int, bool]:
    """The relaxed contribution of one group to the search's bound: its most mana, of any type it can
    add, for free and in any order (an upper bound on what CR 605.3a's order and costs allow)."""
    mask = mask_of(options)
    if any(not u & SPELL_ONLY for o in options for u in o.units):
        mask &= ~SPELL_ONLY  # some option's mana pays anything: the relaxation must allow it
    return max(len(o.units) for o in options), mask, any(o.snow for o in options)


def split_batches(
    groups: Sequence[Sequence[Option]], group_tokens: Sequence[frozenset[str]]
) -> tuple[list[int], list[list[int]]]:
    """Base: groups with one free option and no contested token (no choice to make). Batches: identical
    groups with a real choice, decided together (how many take each option, not which); a group with
    contested tokens is a batch of its own, as its tokens tell it apart (CR 118.3). Batches with the most
    mana first: their decisions move the bound the most."""
    base: list[int] = []
    batches: dict[tuple[object, ...], list[int]] = {}
    for g, options in enumerate(groups):
        if len(options) == 1 and options[0].free and not group_tokens[g]:
            base.append(g)
        else:
            batches.setdefault((tuple(o.sig for o in options), group_tokens[g]), []).append(g)
    ordered = sorted(batches.values(), key=lambda gs: (-max(len(o.units) for o in groups[gs[0]]), gs[0]))
    return base, ordered
