"""A brute-force reference for the payment solver, and a replay check of its plans.

Written straight from the rules, sharing nothing with ``app.rules.mana.payment`` but its input records: it
tries every activation sequence (each source once, one {T} ability per permanent, each activation paying its
mana cost from the pool as it then is, CR 605.3a), every alternative each source may add, and every way to pay
each symbol (CR 107.4, 119.4). Exponential on purpose; only for small boards.
"""

from __future__ import annotations

import time
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement

from app.rules.mana.payment_values import ManaSource, PaymentPlan
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import MANA_TYPES, ManaSymbol, SymbolKind

Unit = tuple[str, bool]  # (mana type, from a snow source)
Pool = tuple[Unit, ...]


class TimeUp(Exception):
    """The brute force ran past its deadline."""


def _requirements(cost: ManaCost, *, spell: bool = True) -> tuple[tuple[str, frozenset[str], bool], ...]:
    """Each symbol as (kind, accepted types, needs snow); kinds: unit, life (Phyrexian), mono, never.

    Restricted mana (``ManaSource.spell_only``) is the type with a ``*``: it pays the spell (``spell``)
    and never an activation cost (CR 106.6)."""

    def ok(types: frozenset[str]) -> frozenset[str]:
        return types | {t + "*" for t in types} if spell else types

    anything = frozenset(MANA_TYPES)
    reqs: list[tuple[str, frozenset[str], bool]] = [("unit", ok(anything), False)] * cost.generic
    for s in cost.others:
        colors = frozenset(s.colors)
        if s.kind in (SymbolKind.COLORED, SymbolKind.HYBRID):
            reqs.append(("unit", ok(colors), False))
        elif s.kind is SymbolKind.COLORLESS:
            reqs.append(("unit", ok(frozenset("C")), False))
        elif s.kind is SymbolKind.COLORLESS_HYBRID:
            reqs.append(("unit", ok(colors | {"C"}), False))
        elif s.kind is SymbolKind.SNOW:
            reqs.append(("unit", ok(anything), True))
        elif s.kind is SymbolKind.HALF:
            reqs.append(("unit", ok(colors or anything), False))
        elif s.kind in (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN):
            reqs.append(("life", ok(colors), False))
        elif s.kind is SymbolKind.MONO_HYBRID:
            reqs.append(("mono" if spell else "mono-ability", ok(colors), False))
        else:
            reqs.append(("never", frozenset(), False))
    return tuple(reqs)


@cache
def _pay(
    reqs: tuple[tuple[str, frozenset[str], bool], ...], pool: Pool, life: int
) -> frozenset[tuple[Pool, int]]:
    """Every (pool left, life paid) after paying ``reqs`` from ``pool`` with at most ``life`` life."""
    if not reqs:
        return frozenset({(pool, 0)})
    kind, types, snow = reqs[0]
    rest = reqs[1:]
    out: set[tuple[Pool, int]] = set()

    def take(p: Pool, ok: frozenset[str], need_snow: bool) -> set[Pool]:
        return {p[:i] + p[i + 1 :] for i, (t, s) in enumerate(p) if t in ok and (s or not need_snow)}

    if kind == "never":
        return frozenset()
    for left in take(pool, types, snow):
        out |= _pay(rest, left, life)
    if kind == "life" and life >= 2:
        out |= {(p, lp + 2) for p, lp in _pay(rest, pool, life - 2)}
    if kind in ("mono", "mono-ability"):
        anything = frozenset(MANA_TYPES) | (
            frozenset(t + "*" for t in MANA_TYPES) if kind == "mono" else set()
        )
        for first in take(pool, anything, False):
            for second in take(first, anything, False):
                out |= _pay(rest, second, life)
    return frozenset(out)


def brute_min_life(
    cost: ManaCost,
    sources: tuple[ManaSource, ...],
    *,
    pool: ManaCost | None = None,
    life: int = 20,
    deadline: float | None = None,
) -> int | None:
    """The least life any way of paying ``cost`` needs, or None when no way pays it."""
    return _min_life_from(cost, sources, tuple(sorted(_pool(pool))), life, deadline)


def _min_life_from(
    cost: ManaCost, sources: tuple[ManaSource, ...], start: Pool, life: int, deadline: float | None
) -> int | None:
    reqs = _requirements(cost)

    @cache
    def explore(p: Pool, used: frozenset[int], life_left: int) -> int | None:
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeUp
        best: int | None = None
        for _left, paid in _pay(reqs, p, life_left):
            best = paid if best is None else min(best, paid)
        # CR 118.3: a permanent taps once, leaves once; a card moves once (the sources' tokens)
        busy = {t for i in used for t in _tokens(sources[i])}
        # a permanent that has left does nothing more (CR 701.21a: it is in the graveyard)
        gone = {t.removeprefix("leaves:") for t in busy if t.startswith("leaves:")}
        for i, s in enumerate(sources):
            if i in used or _tokens(s) & busy or s.life_cost > life_left or s.permanent in gone:
                continue
            after_life = life_left - s.life_cost
            act = _requirements(s.activation_cost, spell=False) if s.activation_cost is not None else ()
            for left, paid in _pay(act, p, after_life):
                for alt in set(s.outputs):
                    new_pool = tuple(
                        sorted(left + tuple((t + ("*" if s.spell_only else ""), s.snow) for t in alt))
                    )
                    r = explore(new_pool, used | {i}, after_life - paid)
                    if r is not None:
                        total = s.life_cost + paid + r
                        best = total if best is None else min(best, total)
        return best

    return explore(start, frozenset(), life)


def _tokens(s: ManaSource) -> frozenset[str]:
    """The resources an activation uses: its own {T} (``uses_permanent``) and its ``tokens``."""
    return s.tokens | {"tap:" + s.permanent} if s.uses_permanent else s.tokens


def brute_can_pay(cost: ManaCost, sources: tuple[ManaSource, ...], **kw: object) -> bool:
    return brute_min_life(cost, sources, **kw) is not None  # type: ignore[arg-type]


def _pool(pool: ManaCost | None) -> list[Unit]:
    if pool is None:
        return []
    return [("C" if s.kind is SymbolKind.COLORLESS else s.colors[0], False) for s in pool.others]


def brute_short_size(
    cost: ManaCost, sources: tuple[ManaSource, ...], *, pool: ManaCost | None = None, life: int = 20
) -> tuple[int, int]:
    """API 1.1 ``short``, by trying every multiset of mana added to the pool, fewest first: (how many
    mana, how many of them must be of a particular type). A unit left "of any type" must pay whatever
    type it is: every type is tried for it."""
    finite = ManaCost((), cost.generic, tuple(s for s in cost.others if s.kind is not SymbolKind.INFINITY))
    types = [(t, False) for t in MANA_TYPES] + [("S", True)]

    def pays(extra: tuple[Unit, ...], wild: int) -> bool:
        base = pool.others if pool is not None else ()
        for filler in MANA_TYPES if wild else ("C",):
            added = extra + tuple((filler, False) for _ in range(wild))
            if not _can_pay_with(finite, sources, tuple(sorted(_pool_of(base) + list(added))), life):
                return False
        return True

    for total in range(len(finite.others) + finite.generic + 1):
        for wild in range(total, -1, -1):
            for combo in combinations_with_replacement(types, total - wild):
                extra = tuple(("C" if t == "S" else t, snow) for t, snow in combo)
                if any(t == "S" for t, _ in combo):
                    # {S}: mana of any type from a snow source; every type of it must do
                    if all(
                        pays(tuple((u if t == "S" else t, snow) for t, snow in combo), wild)
                        for u in MANA_TYPES
                    ):
                        return total, total - wild
                elif pays(extra, wild):
                    return total, total - wild
    raise AssertionError("adding every symbol's mana pays")


def _pool_of(symbols: tuple[ManaSymbol, ...]) -> list[Unit]:
    return [("C" if s.kind is SymbolKind.COLORLESS else s.colors[0], False) for s in symbols]


def _can_pay_with(cost: ManaCost, sources: tuple[ManaSource, ...], start: Pool, life: int) -> bool:
    return _min_life_from(cost, sources, start, life, None) is not None


# -- replaying a plan -------------------------------------------------------------------------------


def _accepts(sym: ManaSymbol, mana: str | None) -> bool:
    if mana is None:
        return sym.kind in (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN)
    kind = sym.kind
    if kind in (SymbolKind.GENERIC, SymbolKind.SNOW) or (kind is SymbolKind.HALF and not sym.colors):
        return True
    if kind is SymbolKind.COLORLESS:
        return mana == "C"
    if kind is SymbolKind.COLORLESS_HYBRID:
        return mana in ("C", *sym.colors)
    return mana in sym.colors


def check_plan(
    plan: PaymentPlan,
    cost: ManaCost,
    sources: tuple[ManaSource, ...],
    *,
    pool: ManaCost | None = None,
    life: int = 20,
) -> None:
    """Assert that ``plan`` is legal: each step a listed source used once (one {T} ability a permanent),
    adding one of its alternatives; every symbol of the cost and of each activation cost paid with mana
    of a right type that was in the pool or added by an earlier step, each mana spent once; life within
    ``life`` (CR 119.4)."""
    assert plan.cost == cost
    unused = list(sources)
    tokens_used: set[str] = set()
    step_sources: list[ManaSource] = []
    for n, step in enumerate(plan.steps):
        key = (step.permanent, step.ability)
        src = next(
            (
                s
                for s in unused
                if (s.permanent, s.ability) == key
                and s.consumes == step.consumes
                and not _tokens(s) & tokens_used
                and Counter(step.adds) in [Counter(o) for o in s.outputs]
            ),
            None,
        )
        assert src is not None, f"no unused source {key} adding {step.adds} with {step.consumes}"
        unused.remove(src)
        tokens_used |= _tokens(src)
        # it may tap for its own mana and then leave, never act after it has left (CR 701.21a)
        gone = {t.removeprefix("leaves:") for t in src.tokens if t.startswith("leaves:")}
        later = {s.permanent for s in plan.steps[n + 1 :]}
        assert not gone & later, f"{gone & later} acts after leaving"
        assert step.life_paid == src.life_cost
        step_sources.append(src)
    # Mana spent from each step and from the pool.
    spent: dict[int | None, Counter[str]] = {}
    for pay in plan.payments:
        if pay.mana is None:
            assert pay.step is None
            continue
        spent.setdefault(pay.step, Counter())[pay.mana] += 1
        if pay.step is not None:
            assert 0 <= pay.step < len(plan.steps)
            if pay.target is not None:
                assert pay.step < pay.target, "mana spent before it was added"
    for step_idx, used in spent.items():
        have = Counter(t for t, _s in _pool(pool)) if step_idx is None else Counter(plan.steps[step_idx].adds)
        assert not used - have, f"step {step_idx} spends {used} but has {have}"
    assert Counter(plan.from_pool) == spent.get(None, Counter())
    # Every cost paid, symbol by symbol.
    costs: dict[int | None, ManaCost] = {None: cost}
    for i, src in enumerate(step_sources):
        if src.activation_cost is not None and not src.activation_cost.is_zero:
            costs[i] = src.activation_cost
            assert plan.steps[i].activation_cost == src.activation_cost
    for target, c in costs.items():
        records = [p for p in plan.payments if p.target == target]
        for p in records:
            if p.mana is not None and ManaSymbol.parse(p.symbol).kind is SymbolKind.SNOW:
                assert p.step is not None and step_sources[p.step].snow, "{S} paid with non-snow mana"
            if target is not None and p.step is not None:
                assert not step_sources[p.step].spell_only, "restricted mana paid an activation cost"
        _check_cost_paid(c, records)
    assert {p.target for p in plan.payments} <= set(costs)
    life_symbols = sum(1 for p in plan.payments if p.mana is None)
    assert plan.life_paid == 2 * life_symbols + sum(s.life_cost for s in step_sources)
    assert plan.life_paid == 0 or plan.life_paid <= life, "CR 119.4: only 0 life at a total below it"


def _check_cost_paid(cost: ManaCost, records: list) -> None:  # type: ignore[type-arg]
    by_symbol: dict[str, list[str | None]] = {}
    for p in records:
        by_symbol.setdefault(p.symbol, []).append(p.mana)
    wanted = Counter(s.text for s in cost.others)
    if cost.generic:
        wanted["{1}"] = cost.generic
    assert set(by_symbol) == set(wanted), f"paid {sorted(by_symbol)} for {cost}"
    for text, manas in by_symbol.items():
        sym = ManaSymbol.parse(text)
        k = wanted[text]
        if sym.kind is SymbolKind.MONO_HYBRID:
            colored = 2 * k - len(manas)
            assert 0 <= colored <= k, f"{text} paid with {manas}"
            assert sum(1 for m in manas if m == sym.colors[0]) >= colored
            assert all(m is not None for m in manas)
            continue
        assert len(manas) == k, f"{text}: {len(manas)} payments for {k} symbols"
        assert all(_accepts(sym, m) for m in manas), f"{text} paid with {manas}"
