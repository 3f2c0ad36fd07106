"""The payment solver's transport graph (CR 601.2h): mana units as supplies, cost symbols as slots.

A unit is a key ``(type mask, snow, position)`` with a count, a slot likewise (the mana it accepts, whether
it needs snow mana, where it is paid: ``SPELL_POS`` for the spell's cost, ``k`` for the activation cost of
the k-th ordered activation); ``transport_graph`` is the one builder of the bipartite graph between them,
which the feasibility checks (``feasible``, ``feasible_monos``) and the final assignment (``match``) share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from app.rules.mana.flow import Transport, max_transport
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import MANA_TYPES, ManaSymbol, SymbolKind

BIT: Final = {t: 1 << i for i, t in enumerate(MANA_TYPES)}
ANY: Final = (1 << len(MANA_TYPES)) - 1
LIFE: Final = 1 << len(MANA_TYPES)
SPELL_ONLY: Final = 1 << (len(MANA_TYPES) + 1)  # a unit's mask bit: restricted mana (CR 106.6)
WILD: Final = 1 << (len(MANA_TYPES) + 2)  # a unit of any type, so it pays only what any mana pays
SPELL_POS: Final = 1 << 30
LIFE_PER_SYMBOL: Final = 2  # CR 107.4f


_TYPES_OF: Final = tuple(tuple(t for t in MANA_TYPES if m & BIT[t]) for m in range(ANY + 1))


def types_of(mask: int) -> tuple[str, ...]:
    """The mana types a mask holds, in W U B R G C order (other bits ignored)."""
    return _TYPES_OF[mask & ANY]


def slot_mask(sym: ManaSymbol) -> tuple[int, bool] | None:
    """The mana (and life) one symbol accepts, and whether it needs snow mana; None: not one slot."""
    kind = sym.kind
    colors = 0
    for c in sym.colors:
        colors |= BIT[c]
    if kind in (SymbolKind.COLORED, SymbolKind.HYBRID):
        return colors, False
    if kind is SymbolKind.COLORLESS:
        return BIT["C"], False
    if kind is SymbolKind.COLORLESS_HYBRID:
        return colors | BIT["C"], False
    if kind is SymbolKind.SNOW:
        return ANY, True
    if kind in (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN):
        return colors | LIFE, False
    if kind is SymbolKind.HALF:
        return (colors or ANY), False
    return None  # generic, monocolored hybrid, variable, infinity: handled by the caller


def slots_only(cost: ManaCost) -> bool:
    """Whether every symbol of ``cost`` besides generic mana is one slot (``slot_mask``): no {2/X} symbol
    to choose a way of paying (CR 107.4e), no {∞}."""
    return all(slot_mask(sym) is not None for sym in cost.others)


# Demand keys: (accepted mask, needs snow, position); supply keys: (mask, snow, position).
Key = tuple[int, bool, int]


def add_cost(cost: ManaCost, pos: int, dem: dict[Key, int], monos: dict[tuple[int, int], int]) -> bool:
    """Add the slots of ``cost`` paid at ``pos``; False if it holds {∞} (never payable)."""
    if cost.generic:
        key = (ANY, False, pos)
        dem[key] = dem.get(key, 0) + cost.generic
    for sym in cost.others:
        slot = slot_mask(sym)
        if slot is not None:
            key = (slot[0], slot[1], pos)
            dem[key] = dem.get(key, 0) + 1
        elif sym.kind is SymbolKind.MONO_HYBRID:
            mk = (BIT[sym.colors[0]], pos)
            monos[mk] = monos.get(mk, 0) + 1
        else:
            return False
    return True


_Slot = tuple[int, int, bool, int, bool, bool]  # index, mask, snow, position, accepts every type, spell's


def _row(smask: int, ssnow: bool, spos: int, slots: Sequence[_Slot], relax: int) -> list[int]:
    """The slots a unit at ``spos`` can pay: one of a type it can be, snow only from snow (CR 107.4h).
    Earlier positions pay later ones (CR 605.3a order); positions from ``relax`` on are not yet ordered:
    any of them pays any other, never itself. Restricted mana pays only the spell that meets the
    restriction (CR 106.6); ``shortfall``'s mana of any type (``WILD``) a slot only if every type would."""
    types = smask & ~SPELL_ONLY
    wild = bool(smask & WILD)
    only = bool(smask & SPELL_ONLY)
    unordered = spos >= relax
    return [
        j
        for j, dmask, dsnow, dpos, every, spell in slots
        if types & dmask
        and (ssnow or not dsnow)
        and (every or not wild)
        and (spell or not only)
        and (spos < dpos or (unordered and dpos >= relax and spos != dpos))
    ]


@dataclass(frozen=True, slots=True)
class Paid:
    symbol: str
    target: int | None
    mana: str | None
    step: int | None  # -1: pool; None: life
    unit: int

    def __init__(
        self,
        symbol: str,
        target: int | None,
        mana: str | None,
        step: int | None,
        unit: int,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "symbol", symbol)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "mana", mana)
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "unit", unit)


def supply_order(k: Key) -> tuple[int, bool, int, int]:
    """Supplies least flexible first (fewest types, non-snow before snow): the flow's tie-break, so the
    most flexible sources are the ones left untapped."""
    return (k[0].bit_count(), k[1], k[2], k[0])


def demand_order(k: Key) -> tuple[int, bool, int, int]:
    """Slots most particular first (fewest accepted types, snow before not)."""
    return (k[0].bit_count(), not k[1], k[2], k[0])


def transport_graph(sup_keys: Sequence[Key], dem_keys: Sequence[Key], relax: int) -> list[list[int]]:
    """The edges of the payment graph, in supply order, then one last row: the slots that 2 life may pay
    (Phyrexian symbols, CR 107.4f), for a life supply placed after the mana supplies.

    ``adj[i]`` lists the slots supply ``i`` may pay (``_row``: type, snow, CR 106.6 restrictions,
    CR 605.3a order), in the demand order given, which is the flow's preference order."""
    slots = [(j, m, snow, pos, m & ANY == ANY, pos == SPELL_POS) for j, (m, snow, pos) in enumerate(dem_keys)]
    adj = [_row(smask, ssnow, spos, slots, relax) for smask, ssnow, spos in sup_keys]
    adj.append([j for j, d in enumerate(dem_keys) if d[0] & LIFE])
    return adj


@dataclass(frozen=True, slots=True)
class Matching:
    """An assignment (``match``) and the flow problem it came from: the unit keys in supply order, each
    supply's capacity (the life supply last), the slots' counts and the edges, so a caller can ask whether
    the same problem with fewer units would give the same flow (``flow.same_flow_with_less``)."""

    paid: list[Paid]
    unit_keys: list[tuple[int, bool, int, int]]
    supply: list[int]
    demand: list[int]
    adj: list[list[int]]


def match(
    units: dict[tuple[int, bool, int, int], list[tuple[int, int]]],
    slots: dict[Key, list[tuple[str, int | None]]],
    life_units: int,
    *,
    ordered_relax: int,
) -> Matching | None:
    """Pay every slot with a concrete unit (or 2 life, CR 107.4f, after every mana: 119.4); None if
    impossible. ``units`` are keyed with a tie-break rank last, tried first (least flexible first).
    Each unit key's queue hands out its first units, in order, as many as its supply sends."""
    unit_keys = sorted(units, key=lambda k: (k[3], k[2], k[0].bit_count(), k[1], k[0]))
    dem_keys = sorted(slots, key=demand_order)
    sup_keys: list[Key] = [(k[0], k[1], k[2]) for k in unit_keys]
    adj = transport_graph(sup_keys, dem_keys, ordered_relax)
    late = len(sup_keys)
    sup = [len(units[k]) for k in unit_keys] + [life_units]
    dem = [len(slots[k]) for k in dem_keys]
    total, _life, flow = max_transport(sup, dem, adj, late=late)
    if total != sum(dem):
        return None
    out: list[Paid] = []
    slot_queues = [iter(slots[k]) for k in dem_keys]
    unit_queues = [iter(units[k]) for k in unit_keys]
    for i, f in enumerate(flow):
        for j, amount in sorted(f.items()):
            for _ in range(amount):
                text, target = next(slot_queues[j])
                if i == late:
                    out.append(Paid(text, target, None, None, -1))
                    continue
                step, ui = next(unit_queues[i])
                smask = sup_keys[i][0] & dem_keys[j][0] & ANY
                mana = types_of(smask)[0]
                out.append(Paid(text, target, mana, step, ui))
    return Matching(out, unit_keys, sup, dem, adj)


def feasible(sup: dict[Key, int], dem: dict[Key, int], life_units: int, relax: int) -> int | None:
    """Life units the cheapest full payment needs (mana first, CR 119.4), None if the slots cannot all
    be paid."""
    need = sum(dem.values())
    if need == 0:
        return 0
    sup_keys = sorted(sup, key=supply_order)
    dem_keys = sorted(dem, key=demand_order)
    adj = transport_graph(sup_keys, dem_keys, relax)
    supply = [sup[k] for k in sup_keys] + [life_units]
    total, life_used, _flow = max_transport(supply, [dem[k] for k in dem_keys], adj, late=len(sup_keys))
    return life_used if total == need else None


def feasible_monos(
    sup: dict[Key, int], dem: dict[Key, int], monos: dict[tuple[int, int], int], life_units: int, relax: int
) -> tuple[int, tuple[int, ...]] | None:
    """Least life units paying every slot and the spell's {2/X} symbols ``monos`` (CR 107.4e: one mana of
    X or two mana of any type each), with how many of each class take one mana of X; None if impossible.

    Polynomial, no search over splits. Every mana unit can pay the spell's generic mana, so once the slots
    that need something particular (a type, snow, a position) are paid, the rest of the mana pays the
    generic part whatever it is. Paying k symbols with X needs the particular slots plus k X-slots paid
    (a flow), and then ``generic + 2 (M - k)`` units left over: so the best k is the largest flow into the
    X-slots once the particular slots are full (augmenting paths never empty a full slot). Life only pays
    Phyrexian slots, and each unit of it frees one mana unit, so for a budget of life it goes first; the
    least budget that pays is found by bisection, feasibility growing with the budget.
    """
    if not monos:
        used = feasible(sup, dem, life_units, relax)
        return None if used is None else (used, ())
    typed = dict(dem)
    generic = typed.pop((ANY, False, SPELL_POS), 0)
    mono_keys = sorted(monos)
    total_monos = sum(monos.values())
    sup_keys = sorted(sup, key=supply_order)
    typed_keys = sorted(typed, key=demand_order)
    dem_keys = typed_keys + [(cmask, False, pos) for cmask, pos in mono_keys]
    dem_list = [typed[k] for k in typed_keys] + [monos[k] for k in mono_keys]
    adj = transport_graph(sup_keys, dem_keys, relax)
    mana = list(range(len(sup_keys)))
    life_node = len(sup_keys)
    typed_idx = range(len(typed_keys))
    mono_idx = range(len(typed_keys), len(dem_keys))
    n_mana = sum(sup.values())
    n_typed = sum(typed.values())

    def attempt(budget: int) -> tuple[int, tuple[int, ...]] | None:
        net = Transport([sup[k] for k in sup_keys] + [budget], dem_list, adj)
        net.augment([life_node], typed_idx)
        net.augment(mana, typed_idx)
        if any(net.rem_d[j] for j in typed_idx):
            return None
        colored = net.augment(mana, mono_idx)
        life_used = net.sent(life_node)
        left = n_mana - (n_typed - life_used + colored)
        if left < generic + 2 * (total_monos - colored):
            return None
        return life_used, tuple(net.received(j) for j in mono_idx)

    found = attempt(0)
    if found is not None:
        return found
    hi = min(life_units, sum(c for k, c in typed.items() if k[0] & LIFE))
    if hi <= 0 or attempt(hi) is None:
        return None
    lo = 0  # infeasible at lo, feasible at hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if attempt(mid) is None:
            lo = mid
        else:
            hi = mid
    return attempt(hi)
