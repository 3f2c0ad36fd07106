"""The payment solver's shortfall (API 1.1 ``short``): the least mana that, added to the pool, would pay a
cost (CR 601.2h), found by bisection over the search of ``payment_search``."""

from __future__ import annotations

from collections.abc import Callable

from app.rules.mana.payment_graph import ANY, BIT, WILD, Key
from app.rules.mana.payment_search import Prepared
from app.rules.mana.payment_values import check_cost
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import MANA_TYPES, ManaSymbol, SymbolKind


def shortfall(prepared: Prepared, cost: ManaCost) -> ManaCost:
    """API 1.1 ``short``: the least mana that, added to the pool, makes ``cost`` payable (fewest mana,
    then fewest that must be of a particular type), written as mana: mana of any type as one generic
    number, then the typed symbols in W U B R G C order ({S}: any type, from a snow source, for what
    only snow mana pays, CR 107.4h). Never a hybrid or Phyrexian symbol; {∞} stays (never payable).

    Each question is "payable with this much more in the pool?", which only gets easier with more or
    more flexible mana, so every count is found by bisection: the fewest units that may each be any
    type (and snow), then the most of those that may be left as "any type" (``WILD``: a unit that
    pays only what any mana pays), then type by type how many of the rest may be of that type.
    """
    cost = check_cost(cost)
    infinite = tuple(s for s in cost.others if s.kind is SymbolKind.INFINITY)
    finite = ManaCost((), cost.generic, tuple(s for s in cost.others if s.kind is not SymbolKind.INFINITY))
    if prepared.solve(finite, best_life=False) is not None:
        return ManaCost((), 0, infinite)
    rainbow: Key = (ANY, True, 0)
    wild: Key = (ANY | WILD, False, 0)

    def pays(extra: dict[Key, int]) -> bool:
        return prepared.plus(extra).solve(finite, best_life=False) is not None

    def most(lo: int, hi: int, ok: Callable[[int], bool]) -> int:
        """The largest n in [lo, hi] with ok(n), given ok(lo) and ok falling as n grows."""
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if ok(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    # Fewest units: a unit of any type from a snow source pays any one symbol (a {2/W} with one {W}),
    # so the cost's symbol count is enough.
    hi = finite.generic + len(finite.others)
    lo = 1
    while lo < hi and not pays({rainbow: lo}):
        lo = min(hi, 2 * lo)
    total = lo if pays({rainbow: lo}) else hi
    prev = lo // 2 if lo > 1 else 0
    while prev + 1 < total:  # the least count in (prev, total] that pays
        mid = (prev + total) // 2
        if pays({rainbow: mid}):
            total = mid
        else:
            prev = mid
    generic = most(0, total, lambda g: pays({wild: g, rainbow: total - g}))
    left = total - generic
    typed: dict[Key, int] = {wild: generic}
    symbols: list[ManaSymbol] = []
    for t in MANA_TYPES:
        if not left:
            break
        key: Key = (BIT[t], False, 0)

        def with_type(n: int, key: Key = key, left: int = left) -> bool:
            return pays({**typed, key: n, rainbow: left - n})

        n = most(0, left, with_type)
        if n:
            typed[key] = n
            left -= n
            symbols.extend([ManaSymbol.parse("{" + t + "}")] * n)
    symbols.extend([ManaSymbol.parse("{S}")] * left)
    return ManaCost((), generic, (*symbols, *infinite))
