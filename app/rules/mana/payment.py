"""The payment solver: can this player pay this mana cost with these mana abilities, and how (CR 601.2g-h)?

Public API, verify / can / do: ``PaymentSources`` (sources prepared once, for many costs) and the
one-cost functions: ``verify_payment`` raises ``UnpayableError`` (an ``IllegalError``) with the
reason, ``can_pay`` answers a bool, ``plan_payment`` returns a ``PaymentPlan`` (every activation, in
order, what it adds and what each symbol was paid with), ``shortfall`` the least mana that, added to the
pool, would pay it.

Semantics (what a plan may do, and what the brute-force reference in ``tests/rules`` enumerates):

* Each listed ``ManaSource`` is activated at most once; of the sources with ``uses_permanent`` (a {T} or
  {Q} cost) at most one per permanent (CR 602.5b: a tapped permanent cannot pay {T} again). A source that
  can be activated repeatedly is listed once per activation.
* Mana abilities are activated before the cost is paid (CR 601.2g); an activation pays its own mana cost
  from the mana pool as it is then, so from the pool given and from sources activated earlier, never from
  its own mana (CR 605.3a, 602.2b). Life costs are paid as the abilities are activated.
* The spell's cost is then paid from the pool (CR 601.2h). {C} needs colorless mana (CR 107.4c), {S} mana
  from a snow source (CR 107.4h; mana already in the pool is taken as not from a snow source), a hybrid
  symbol one of its colors (107.4e), {2/W} one white or two of any type (107.4e), {C/W} colorless or white,
  a Phyrexian symbol its color or 2 life (107.4f), generic any type (107.4b).
* Life: a player can pay life only if their life total is at least the payment (CR 119.4); every life
  payment of one plan (sources' life costs and Phyrexian symbols) comes out of the same total, so their sum
  may be at most ``life``: paying 2 life at 2 life is allowed, at 1 it is not. Mana is preferred to life.
* Half mana ({HW}, {HR}, {½}, Un-sets): no source adds half a mana, so each half symbol is paid with one
  whole mana of its color ({½}: of any type); the unused half is lost. {∞} is never payable. Variables
  must be substituted first (``ManaCost.with_variables``, CR 107.3a): a cost still holding {X} raises.

Algorithm (exact, not an enumeration of mana combinations):

* Sources that add one mana and cost nothing are merged per permanent into one unit that may be any of
  the types they can add; sources whose alternatives are every multiset of n mana over some types (a
  filter land's {W}{W}/{W}{U}/{U}{U}) become n such units. Identical units are aggregated, and cost symbols
  likewise, so paying is a small transportation max-flow (``payment_flow``) whatever the board's size.
* Only permanents that have a real choice (several abilities, several fixed alternatives such as Gilded
  Lotus's three mana of one color, a mana or life cost) are branched on, identical permanents together
  (how many take each option, not which), with a relaxed flow as the bound: undecided permanents add
  their most mana of any of their types for free, and activation order is ignored.
* A choice that uses abilities costing mana is checked exactly by searching the activation order with the
  same flow (each prefix bounded by the order-free relaxation of the rest).
* Among plans the solver prefers, in order: the least life; then (tie-break) spending mana already in the
  pool, then the least flexible sources (fewest producible types, non-snow before snow), so the most
  flexible sources stay untapped; and it never activates a source none of whose mana is spent.
  Branching tries options in a fixed order, so answers are deterministic.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, product
from typing import Final

from app.rules import deadline
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.mana.flow import Transport, max_transport
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import MANA_TYPES, ManaSymbol, SymbolKind

_BIT: Final = {t: 1 << i for i, t in enumerate(MANA_TYPES)}
_ANY: Final = (1 << len(MANA_TYPES)) - 1
_LIFE: Final = 1 << len(MANA_TYPES)
_SPELL_ONLY: Final = 1 << (len(MANA_TYPES) + 1)  # a unit's mask bit: restricted mana (CR 106.6)
_WILD: Final = 1 << (len(MANA_TYPES) + 2)  # a unit of any type, so it pays only what any mana pays
_SPELL_POS: Final = 1 << 30
_LIFE_PER_SYMBOL: Final = 2  # CR 107.4f


@dataclass(frozen=True, slots=True)
class Consumed:
    """What an activation uses beside its own {T}/{Q} and mana (CR 118.3, 602.2b), as a plan step shows it:
    permanents it sacrifices, taps or returns (ids), counters it removes from its own permanent (kind,
    count), cards it exiles or discards (names)."""

    sacrifices: tuple[str, ...] = ()
    taps: tuple[str, ...] = ()
    returns: tuple[str, ...] = ()
    removes: tuple[tuple[str, int], ...] = ()
    exiles: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()


TAP: Final = "tap:"
LEAVES: Final = "leaves:"
CARD: Final = "card:"


@dataclass(frozen=True, slots=True)
class ManaSource:
    """One activatable mana ability of a permanent, as the board analysis finds it (CR 605.1a).

    ``outputs`` are the alternatives it may add, each a multiset of mana types; ``activation_cost`` is mana
    paid to activate it (a filter land's {W/U}); ``uses_permanent``: it has {T} or {Q} in its cost;
    ``spell_only``: its mana has a spending restriction (CR 106.6) the spell being paid for meets, so it
    pays the spell's cost but never another mana ability's activation cost.

    ``tokens`` are the resources the activation uses beside its own permanent's {T}: ``tap:<id>`` (a
    permanent it taps, CR 118.3: once), ``leaves:<id>`` (a permanent it sacrifices or returns; convoke and
    improvise carry it too, as they need the permanent still there at CR 601.2h), ``card:<zone>:<i>`` (a
    card it exiles or discards). Two activations sharing a token are never both in a plan; a source with
    ``uses_permanent`` holds ``tap:<permanent>``. ``activation`` tells apart the listings of one ability
    (its repeated activations, or the alternatives of which resources it uses); ``consumes`` is what the
    plan step shows.
    """

    permanent: str
    ability: int
    outputs: tuple[tuple[str, ...], ...]
    activation_cost: ManaCost | None = None
    life_cost: int = 0
    snow: bool = False
    uses_permanent: bool = True
    spell_only: bool = False
    tokens: frozenset[str] = frozenset()
    activation: int = 0
    consumes: Consumed = Consumed()

    @property
    def all_tokens(self) -> frozenset[str]:
        return self.tokens | {TAP + self.permanent} if self.uses_permanent else self.tokens


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One activation of a plan: ``adds`` is one of the source's ``outputs``."""

    permanent: str
    ability: int
    adds: tuple[str, ...]
    activation_cost: ManaCost | None = None
    life_paid: int = 0
    consumes: Consumed = Consumed()


@dataclass(frozen=True, slots=True)
class SymbolPayment:
    """What paid one symbol (one unit of generic mana, one half of a {2/W} paid with two mana).

    ``target``: None for the cost itself, else the index of the step whose activation cost it pays.
    ``mana``: the type spent, None when 2 life paid a Phyrexian symbol. ``step``: the index of the step
    that added the mana, None for mana that was already in the pool.
    """

    symbol: str
    target: int | None
    mana: str | None
    step: int | None


@dataclass(frozen=True, slots=True)
class PaymentPlan:
    """How to pay ``cost``: activate ``steps`` in order, then pay as ``payments`` says."""

    cost: ManaCost
    steps: tuple[PlanStep, ...]
    payments: tuple[SymbolPayment, ...]
    life_paid: int
    from_pool: tuple[str, ...]


class UnpayableError(IllegalError):
    """The cost cannot be paid with these sources (CR 601.2h); ``short`` is ``shortfall``'s answer."""

    def __init__(self, message: str, *, short: ManaCost) -> None:
        super().__init__(message, rule="601.2h")
        self.short = short


# -- public API --------------------------------------------------------------------------------------


class PaymentSources:
    """One player's mana sources, pool and life, prepared once for any number of costs (verify / can /
    plan / shortfall, as the functions below).

    Preparing (grouping the sources into units and batches, ``_Prepared``) does not depend on the cost: a
    board asked about many costs (every card of a hand) prepares its sources once. Safe to share between
    threads: after construction only memo tables of the bound are filled, each entry with the one value
    its key determines.
    """

    __slots__ = ("_prepared",)

    def __init__(
        self, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
    ) -> None:
        self._prepared = _Prepared(sources, pool, life)

    @property
    def notes(self) -> tuple[str, ...]:
        """What the solver could not prove (a cluster of shared resources cut at its bound)."""
        return tuple(self._prepared.notes)

    def plan(self, cost: ManaCost) -> PaymentPlan:
        """A plan paying ``cost``, with the least life; raises ``UnpayableError`` when there is none."""
        found = self._prepared.solve(_check_cost(cost), best_life=True)
        if found is None:
            raise self._unpayable(cost)
        return self._prepared.build_plan(cost, found)

    def can(self, cost: ManaCost) -> bool:
        """Whether some plan pays ``cost`` (CR 601.2g-h)."""
        return self._prepared.solve(_check_cost(cost), best_life=False) is not None

    def verify(self, cost: ManaCost) -> None:
        """Return if ``cost`` can be paid; otherwise raise ``UnpayableError`` saying what is missing."""
        if not self.can(cost):
            raise self._unpayable(cost)

    def shortfall(self, cost: ManaCost) -> ManaCost:
        """The least mana that, added to the pool, would pay ``cost`` (``shortfall``)."""
        return self._prepared.shortfall(cost)

    def _unpayable(self, cost: ManaCost) -> UnpayableError:
        short = self._prepared.shortfall(cost)
        return UnpayableError(f"cannot pay {cost}: {short} is missing", short=short)


def plan_payment(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> PaymentPlan:
    """A plan paying ``cost``, with the least life; raises ``UnpayableError`` when there is none."""
    return PaymentSources(sources, pool=pool, life=life).plan(cost)


def can_pay(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> bool:
    """Whether some plan pays ``cost`` (CR 601.2g-h)."""
    return PaymentSources(sources, pool=pool, life=life).can(cost)


def verify_payment(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> None:
    """Return if ``cost`` can be paid; otherwise raise ``UnpayableError`` saying what is missing."""
    PaymentSources(sources, pool=pool, life=life).verify(cost)


def shortfall(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> ManaCost:
    """The least mana that, added to the pool, would make ``cost`` payable; ``{0}`` when it is payable.

    API 1.1: fewest mana, then fewest that must be of a particular type, written as mana: the mana that may
    be of any type as one generic number, then ``{W}`` ``{U}`` ``{B}`` ``{R}`` ``{G}`` ``{C}`` (``{S}``:
    mana of any type from a snow source, CR 107.4h). Never a hybrid or Phyrexian symbol: a missing
    ``{B/P}`` is ``{B}``, a ``{2/W}`` half paid is ``{1}``. ``{∞}`` is kept, as nothing pays it.
    """
    return PaymentSources(sources, pool=pool, life=life).shortfall(cost)


# -- internals ---------------------------------------------------------------------------------------


def _check_cost(cost: ManaCost) -> ManaCost:
    if cost.variables:
        raise IllegalError(
            f"{cost} still holds {', '.join(cost.variables)}: choose the value first (CR 107.3a)",
            rule="107.3a",
        )
    return cost


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _types_of(mask: int) -> tuple[str, ...]:
    return tuple(t for t in MANA_TYPES if mask & _BIT[t])


def _slot_mask(sym: ManaSymbol) -> tuple[int, bool] | None:
    """The mana (and life) one symbol accepts, and whether it needs snow mana; None: not one slot."""
    kind = sym.kind
    colors = 0
    for c in sym.colors:
        colors |= _BIT[c]
    if kind in (SymbolKind.COLORED, SymbolKind.HYBRID):
        return colors, False
    if kind is SymbolKind.COLORLESS:
        return _BIT["C"], False
    if kind is SymbolKind.COLORLESS_HYBRID:
        return colors | _BIT["C"], False
    if kind is SymbolKind.SNOW:
        return _ANY, True
    if kind in (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN):
        return colors | _LIFE, False
    if kind is SymbolKind.HALF:
        return (colors or _ANY), False
    return None  # generic, monocolored hybrid, variable, infinity: handled by the caller


# Demand keys: (accepted mask, needs snow, position); supply keys: (mask, snow, position).
_Key = tuple[int, bool, int]


def _add_cost(cost: ManaCost, pos: int, dem: dict[_Key, int], monos: dict[tuple[int, int], int]) -> bool:
    """Add the slots of ``cost`` paid at ``pos``; False if it holds {∞} (never payable)."""
    if cost.generic:
        key = (_ANY, False, pos)
        dem[key] = dem.get(key, 0) + cost.generic
    for sym in cost.others:
        slot = _slot_mask(sym)
        if slot is not None:
            key = (slot[0], slot[1], pos)
            dem[key] = dem.get(key, 0) + 1
        elif sym.kind is SymbolKind.MONO_HYBRID:
            mk = (_BIT[sym.colors[0]], pos)
            monos[mk] = monos.get(mk, 0) + 1
        else:
            return False
    return True


def _compatible(smask: int, ssnow: bool, spos: int, dmask: int, dsnow: bool, dpos: int, relax: int) -> bool:
    """Can a unit at ``spos`` pay a slot at ``dpos``? Earlier positions pay later ones (CR 605.3a order);
    positions from ``relax`` on are not yet ordered: any of them pays any other, never itself."""
    if not smask & dmask & ~_SPELL_ONLY or (dsnow and not ssnow):
        return False
    if smask & _WILD and dmask & _ANY != _ANY:
        return False  # ``shortfall``'s mana of any type: it pays a slot only if every type would
    if smask & _SPELL_ONLY and dpos != _SPELL_POS:
        return False  # CR 106.6: restricted mana pays only the spell that meets the restriction
    return spos < dpos or (spos >= relax and dpos >= relax and spos != dpos)


@dataclass(frozen=True, slots=True)
class _Option:
    """One way a permanent can be used: its units (type masks), activation cost, life, provenance."""

    units: tuple[int, ...]
    snow: bool
    cost: ManaCost | None
    life: int
    source: int  # index into the sources list (for a merged option: of its first source)
    by_type: tuple[tuple[str, int], ...]  # flexible single-unit options: which source adds each type
    fixed: tuple[str, ...] | None  # the exact alternative, when the source's alternatives are not a product
    tokens: frozenset[str] = frozenset()
    parts: tuple[_Option, ...] = ()  # a cluster's option: the activations it combines, in order
    snows: tuple[bool, ...] = ()  # a combined option's units: each one's snow (``snow``: any of them)

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
        masks = [_ANY] * cost.generic
        for sym in cost.others:
            slot = _slot_mask(sym)
            if slot is None:
                masks.append(_ANY)
            elif not slot[0] & _LIFE:
                masks.append(_ANY if slot[1] else slot[0])
        return tuple(masks)

    @property
    def net(self) -> int:
        cost = self.cost
        spent = 0 if cost is None else cost.generic + len(cost.others)
        return len(self.units) - spent


_NodeMemo = dict[tuple[tuple[tuple[int, int], ...], int, int], tuple[int, tuple[int, ...]] | None]
"""One search's checked configurations: (group and option of each choice, ordered, undecided from)."""


@dataclass(slots=True)
class _Found:
    """A configuration that pays: chosen options (group, option), costed ones in activation order."""

    free: list[tuple[int, _Option]]
    ordered: list[tuple[int, _Option]]
    life: int
    monos: tuple[int, ...]


CLUSTER_BOUND: Final = 512
"""The most combinations of one cluster of sources sharing resources (``_Prepared._clusters``)."""


def _clash(used: frozenset[str], picks: list[tuple[int, _Option]]) -> bool:
    """Whether ``picks`` use a token twice, among themselves or with ``used``."""
    seen = set(used)
    for _g, o in picks:
        if o.tokens & seen:
            return True
        seen |= o.tokens
    return False


def _combinations(groups: list[list[_Option]], bound: int) -> tuple[list[_Option], bool]:
    """Every non-empty choice of at most one option per group using no token twice, combined; and whether
    the list was cut at ``bound``."""
    combos: list[_Option] = []

    def walk(k: int, used: frozenset[str], picked: tuple[_Option, ...]) -> bool:
        if k == len(groups):
            if picked:
                if len(combos) >= bound:
                    return False
                combos.append(_combine(picked))
            return True
        for o in groups[k]:
            if not o.tokens & used and not walk(k + 1, used | o.tokens, (*picked, o)):
                return False
        return walk(k + 1, used, picked)

    complete = walk(0, frozenset(), ())
    return combos, not complete


def _combine(parts: tuple[_Option, ...]) -> _Option:
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
    return _Option(units, any(snows), cost, life, parts[0].source, (), None, tokens, parts, snows)


def _is_product(outputs: tuple[tuple[str, ...], ...]) -> tuple[int, int] | None:
    """(n, type mask) when the alternatives are exactly every multiset of n mana of those types."""
    if not outputs:
        return None
    n = len(outputs[0])
    if n == 0 or any(len(o) != n for o in outputs):
        return None
    mask = 0
    for o in outputs:
        for t in o:
            mask |= _BIT[t]
    k = _popcount(mask)
    # Number of multisets of size n over k types: C(n+k-1, n).
    expected = 1
    for i in range(1, n + 1):
        expected = expected * (k - 1 + i) // i
    distinct = {tuple(sorted(o)) for o in outputs}
    return (n, mask) if len(distinct) == expected else None


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every way to split n identical permanents among k options, earlier options filled first."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


class _Prepared:
    """Sources sorted into base units (no choice) and groups to branch on, for one player and pool."""

    def __init__(self, sources: Sequence[ManaSource], pool: ManaCost | None, life: int) -> None:
        self.sources = tuple(sources)
        self.life = max(life, 0)  # CR 119.4: at 0 or less life, no life can be paid
        self.pool_units: tuple[str, ...] = _pool_units(pool)
        by_group: dict[tuple[str, int | None, int], list[int]] = {}
        for idx, src in enumerate(self.sources):
            _validate_source(src)
            key = (
                (src.permanent, None, 0)
                if src.uses_permanent
                else (src.permanent, src.ability, src.activation)
            )
            by_group.setdefault(key, []).append(idx)
        self.notes: list[str] = []
        self.groups: list[list[_Option]] = []
        self.flex: list[int] = []
        for options in self._clusters([self._options(m) for m in by_group.values()]):
            if not options:
                continue
            mask = 0
            for o in options:
                for u in o.units:
                    mask |= u
            self.flex.append(_popcount(mask & _ANY) + (1 if any(o.snow for o in options) else 0))
            self.groups.append(options)
        # Tokens held by two groups or more are contested: the search keeps each used once (CR 118.3).
        holders: Counter[str] = Counter()
        for options in self.groups:
            for t in frozenset().union(*(o.tokens for o in options)):
                holders[t] += 1
        self.contested = frozenset(t for t, n in holders.items() if n > 1)
        # Identical groups whose every option uses all of their contested tokens (two Altars that could
        # each sacrifice this creature) exclude each other and are interchangeable: one is kept.
        kept: dict[tuple[object, ...], int] = {}
        dropped: set[int] = set()
        for g, options in enumerate(self.groups):
            mine = frozenset().union(*(o.tokens for o in options)) & self.contested
            if mine and all(mine <= o.tokens for o in options):
                same = (tuple(o.sig for o in options), mine)
                if same in kept:
                    dropped.add(g)
                else:
                    kept[same] = g
        if dropped:
            self.groups = [o for g, o in enumerate(self.groups) if g not in dropped]
            self.flex = [f for g, f in enumerate(self.flex) if g not in dropped]
            holders = Counter()
            for options in self.groups:
                for t in frozenset().union(*(o.tokens for o in options)):
                    holders[t] += 1
            self.contested = frozenset(t for t, n in holders.items() if n > 1)
        self.group_tokens: list[frozenset[str]] = [
            frozenset().union(*(o.tokens for o in options)) & self.contested for options in self.groups
        ]
        # Base: groups with one free option and no contested token. Batches: identical groups with a real
        # choice (a group with contested tokens is a batch of its own: its tokens tell it apart).
        self.base: list[int] = []
        batches: dict[tuple[object, ...], list[int]] = {}
        for g, options in enumerate(self.groups):
            if len(options) == 1 and options[0].free and not self.group_tokens[g]:
                self.base.append(g)
            else:
                bkey = (tuple(o.sig for o in options), self.group_tokens[g])
                batches.setdefault(bkey, []).append(g)
        # Batches with most mana first: their decisions move the bound the most.
        self.batches = sorted(
            batches.values(), key=lambda gs: (-max(len(o.units) for o in self.groups[gs[0]]), gs[0])
        )
        self.base_sup: dict[_Key, int] = {}
        for t in self.pool_units:
            pkey = (_BIT[t], False, 0)
            self.base_sup[pkey] = self.base_sup.get(pkey, 0) + 1
        for g in self.base:
            opt = self.groups[g][0]
            for ui, u in enumerate(opt.units):
                ukey = (u, opt.unit_snow(ui), 0)
                self.base_sup[ukey] = self.base_sup.get(ukey, 0) + 1
        # The relaxed contribution of each batch member: its most mana, of any type it can add, for free.
        self.relaxed: list[tuple[int, int, bool]] = []
        for gs in self.batches:
            options = self.groups[gs[0]]
            mask = 0
            for o in options:
                for u in o.units:
                    mask |= u
            if any(not u & _SPELL_ONLY for o in options for u in o.units):
                mask &= ~_SPELL_ONLY  # some option's mana pays anything: the relaxation must allow it
            self.relaxed.append((max(len(o.units) for o in options), mask, any(o.snow for o in options)))
        # Per set of mana types T (a bitmask): the most that one member of each batch, with one option,
        # adds to the mana of a type in T, less the symbols of its activation cost only such mana can pay
        # (Phyrexian ones may take life instead). One option per permanent, which the flow's relaxation
        # above does not see.
        # Computed for the sets T that the bound asks about, when it asks (a few dozen of the 2^k sets:
        # all of them up front was a third of a plan's time at 80 sources).
        self.type_caps: list[dict[int, int]] = [{} for _ in self.batches]
        self.cap_sums: dict[int, list[int]] = {}

    def _caps_from(self, tm: int) -> list[int]:
        """For each batch index b, the caps for ``tm`` of batches b and after, summed (the bound adds the
        batches not yet decided, the same suffix at every node of the search)."""
        sums = self.cap_sums.get(tm)
        if sums is None:
            sums = [0] * (len(self.batches) + 1)
            for b in range(len(self.batches) - 1, -1, -1):
                sums[b] = sums[b + 1] + self._type_cap(b, tm)
            self.cap_sums[tm] = sums
        return sums

    def _type_cap(self, b: int, tm: int) -> int:
        caps = self.type_caps[b]
        cap = caps.get(tm)
        if cap is None:
            gs = self.batches[b]
            options = self.groups[gs[0]]
            gains = [
                sum(1 for u in o.units if u & tm) - sum(1 for m in o.cost_masks if (m | tm) == tm)
                for o in options
            ]
            if not any(o.free for o in options):
                gains.append(0)
            cap = caps[tm] = max(gains) * len(gs)
        return cap

    def _clusters(self, groups: list[list[_Option]]) -> list[list[_Option]]:
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
                    costed_of.setdefault(self.sources[o.source].permanent, []).append(g)
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
        out: list[list[_Option]] = []
        for gs in members.values():
            if len(gs) == 1:
                out.append(groups[gs[0]])
                continue
            combos, cut = _combinations([groups[g] for g in gs], CLUSTER_BOUND)
            if cut:
                names = sorted({self.sources[o.source].permanent for g in gs for o in groups[g]})
                self.notes.append(
                    f"{', '.join(names)} share permanents or cards that their costs use: only the first "
                    f"{CLUSTER_BOUND} ways of sharing them were tried"
                )
            combos.sort(key=lambda o: (not o.free, -o.net, o.life, o.source))
            out.append(combos)
        return out

    def _options(self, members: list[int]) -> list[_Option]:
        options: list[_Option] = []
        simple: dict[tuple[bool, bool], dict[str, int]] = {}
        for idx in members:
            src = self.sources[idx]
            only = _SPELL_ONLY if src.spell_only else 0
            cost = src.activation_cost
            if cost is not None and cost.is_infinite:
                continue
            prod = _is_product(src.outputs)
            free = (cost is None or cost.is_zero) and src.life_cost == 0
            tokens = src.all_tokens
            if prod is not None and prod[0] == 1 and free and not src.tokens:
                table = simple.setdefault((src.snow, src.spell_only), {})
                for t in _types_of(prod[1]):
                    table.setdefault(t, idx)
                continue
            if prod is not None:
                n, mask = prod
                by_type = tuple((t, idx) for t in _types_of(mask))
                options.append(
                    _Option((mask | only,) * n, src.snow, cost, src.life_cost, idx, by_type, None, tokens)
                )
                continue
            seen: set[tuple[str, ...]] = set()
            for alt in src.outputs:
                key = tuple(sorted(alt, key=MANA_TYPES.index))
                if key in seen:
                    continue
                seen.add(key)
                units = tuple(_BIT[t] | only for t in key)
                options.append(_Option(units, src.snow, cost, src.life_cost, idx, (), alt, tokens))
        merged = []
        for (snow, spell_only), table in sorted(simple.items()):
            mask = _SPELL_ONLY if spell_only else 0
            for t in table:
                mask |= _BIT[t]
            first = min(table.values())
            by_type = tuple((t, table[t]) for t in MANA_TYPES if t in table)
            tokens = frozenset().union(*(self.sources[i].all_tokens for i in table.values()))
            merged.append(_Option((mask,), snow, None, 0, first, by_type, None, tokens))
        # Option order is the branching order: free first, then the most net mana, then least life.
        all_options = merged + options
        all_options.sort(
            key=lambda o: (not o.free, -o.net, o.life, o.source)
        )  # stable: alternatives in order
        return all_options

    # -- flow checks ---------------------------------------------------------------------------------

    def _check(
        self,
        sup: dict[_Key, int],
        dem: dict[_Key, int],
        monos: dict[tuple[int, int], int],
        life_units: int,
        relax: int,
    ) -> tuple[int, tuple[int, ...]] | None:
        """Least life units (2 life each) with which the slots can all be paid, and the mono choice (how
        many of each class of {2/X} symbols are paid with one mana of X, classes in sorted order).

        Monocolored hybrid symbols of the spell are decided inside the flow (``_feasible_monos``); those
        of activation costs (no printed mana ability has one) are enumerated, at most a few of them."""
        mono_keys = sorted(monos)
        spell = {k: monos[k] for k in mono_keys if k[1] == _SPELL_POS}
        other = [k for k in mono_keys if k[1] != _SPELL_POS]
        best: tuple[int, tuple[int, ...]] | None = None
        for choice in product(*(range(monos[k], -1, -1) for k in other)):
            d = dict(dem)
            for (cmask, pos), colored in zip(other, choice, strict=True):
                if colored:
                    d[(cmask, False, pos)] = d.get((cmask, False, pos), 0) + colored
                rest = monos[(cmask, pos)] - colored
                if rest:
                    d[(_ANY, False, pos)] = d.get((_ANY, False, pos), 0) + 2 * rest
            found = _feasible_monos(sup, d, spell, life_units, relax)
            if found is not None and (best is None or found[0] < best[0]):
                by_key = dict(zip(other, choice, strict=True))
                by_key.update(zip(sorted(spell), found[1], strict=True))
                best = (found[0], tuple(by_key[k] for k in mono_keys))
                if found[0] == 0:
                    break
        return best

    def _node_once(
        self,
        seen: _NodeMemo,
        cost: ManaCost,
        chosen: list[tuple[int, _Option]],
        ordered: int,
        undecided_from: int,
    ) -> tuple[int, tuple[int, ...]] | None:
        """``_node``, each configuration checked once per search: with nothing to branch on, the root,
        the search's first node and the order's checks were the same flow computed four times."""
        key = (tuple((g, id(opt)) for g, opt in chosen), ordered, undecided_from)
        if key not in seen:
            seen[key] = self._node(cost, chosen, ordered, undecided_from)
        return seen[key]

    def _node(
        self, cost: ManaCost, chosen: list[tuple[int, _Option]], ordered: int, undecided_from: int
    ) -> tuple[int, tuple[int, ...]] | None:
        """Check the slots with ``chosen`` options; the first ``ordered`` costed ones in that order, the
        rest unordered; batches from ``undecided_from`` relaxed. Returns (least life, mono choice)."""
        deadline.check()  # one node of the search; raised before ``_node_once`` memoizes anything
        sup = dict(self.base_sup)
        dem: dict[_Key, int] = {}
        monos: dict[tuple[int, int], int] = {}
        _add_cost(cost, _SPELL_POS, dem, monos)
        life = self.life
        pos = 0
        for _g, opt in chosen:
            life -= opt.life
            p = 0
            if opt.costed:
                pos += 1
                p = pos
                assert opt.cost is not None
                _add_cost(opt.cost, p, dem, monos)
            for ui, u in enumerate(opt.units):
                key = (u, opt.unit_snow(ui), p)
                sup[key] = sup.get(key, 0) + 1
        if life < 0:
            return None
        if not self._type_bound(sup, dem, monos, undecided_from):
            return None
        for b in range(undecided_from, len(self.batches)):
            n, mask, snow = self.relaxed[b]
            key = (mask, snow, 0)
            sup[key] = sup.get(key, 0) + n * len(self.batches[b])
        found = self._check(sup, dem, monos, life // _LIFE_PER_SYMBOL, ordered + 1)
        if found is None:
            return None
        return self.life - life + _LIFE_PER_SYMBOL * found[0], found[1]

    def _type_bound(
        self, sup: dict[_Key, int], dem: dict[_Key, int], monos: dict[tuple[int, int], int], undecided: int
    ) -> bool:
        """Hall's condition on sets of mana types, order and the flow's finer structure ignored: the slots
        only mana of types in T can pay need at most as many units that can be a type in T."""
        masks = {m for (m, snow, _p) in dem if not m & _LIFE and not snow and m != _ANY}
        closure = {0}
        for m in masks:
            closure |= {c | m for c in closure}
        closure.discard(0)
        closure.add(_ANY)
        for t in closure:
            need = 0
            for (m, snow, _p), count in dem.items():
                if not m & _LIFE and (m | t) == t and (t == _ANY or not snow):
                    need += count
            if t == _ANY:
                need += sum(monos.values())
            have = sum(count for (m, _snow, _p), count in sup.items() if m & t)
            have += self._caps_from(t)[undecided]
            if need > have:
                return False
        return True

    # -- search --------------------------------------------------------------------------------------

    def solve(self, cost: ManaCost, *, best_life: bool) -> _Found | None:
        """A paying configuration (with the least life when ``best_life``), or None."""
        if cost.is_infinite:
            return None
        seen: _NodeMemo = {}
        root = self._node_once(seen, cost, [], 0, 0)
        if root is None:
            return None
        state: dict[str, _Found | None] = {"best": None}
        floor = root[0]

        def done() -> bool:
            best = state["best"]
            return best is not None and (not best_life or best.life <= floor)

        def dfs(b: int, chosen: list[tuple[int, _Option]]) -> None:
            bound = self._node_once(seen, cost, chosen, 0, b)
            if bound is None:
                return
            best = state["best"]
            if best is not None and bound[0] >= best.life:
                return
            if b == len(self.batches):
                found = self._order(cost, chosen, seen)
                if found is not None and (best is None or found.life < best.life):
                    state["best"] = found
                return
            groups = self.batches[b]
            options = self.groups[groups[0]]
            contested = self.group_tokens[groups[0]]
            # unused: when no option is free, or when using one takes a resource another may need
            allow_unused = bool(contested) or not any(o.free for o in options)
            used = frozenset().union(*(o.tokens for _g, o in chosen)) & self.contested if contested else None
            k = len(options) + (1 if allow_unused else 0)
            for comp in _compositions(len(groups), k):
                picks: list[tuple[int, _Option]] = []
                member = 0
                for oi, count in enumerate(comp):
                    for _ in range(count):
                        g = groups[member]
                        member += 1
                        if oi < len(options):
                            picks.append((g, self.groups[g][oi]))
                if used is not None and _clash(used, picks):
                    continue  # CR 118.3: that permanent or card is already used
                dfs(b + 1, chosen + picks)
                if done():
                    return

        dfs(0, [])
        return state["best"]

    def _order(self, cost: ManaCost, chosen: list[tuple[int, _Option]], seen: _NodeMemo) -> _Found | None:
        """Find an activation order for the costed options of ``chosen`` (CR 605.3a: mana from earlier)."""
        free = [c for c in chosen if not c[1].costed]
        costed = [c for c in chosen if c[1].costed]
        best: list[_Found] = []
        floor_check = self._node_once(seen, cost, free + costed, 0, len(self.batches))
        if floor_check is None:
            return None
        floor = floor_check[0]

        def dfs(placed: list[tuple[int, _Option]], rest: list[tuple[int, _Option]]) -> bool:
            found = self._node_once(seen, cost, free + placed + rest, len(placed), len(self.batches))
            if found is None or (best and found[0] >= best[0].life):
                return False
            if not rest:
                best[:] = [_Found(free, list(placed), found[0], found[1])]
                return found[0] <= floor
            tried: set[tuple[object, ...]] = set()
            for i, item in enumerate(rest):
                if item[1].sig in tried:
                    continue
                tried.add(item[1].sig)
                if dfs([*placed, item], rest[:i] + rest[i + 1 :]):
                    return True
            return False

        dfs([], costed)
        return best[0] if best else None

    # -- shortfall -----------------------------------------------------------------------------------

    def _plus(self, extra: dict[_Key, int]) -> _Prepared:
        """These sources with ``extra`` mana added to the pool (the batches and their memo tables shared:
        they depend on the sources only)."""
        other = copy.copy(self)
        sup = dict(self.base_sup)
        for key, n in extra.items():
            if n:
                sup[key] = sup.get(key, 0) + n
        other.base_sup = sup
        return other

    def shortfall(self, cost: ManaCost) -> ManaCost:
        """API 1.1 ``short``: the least mana that, added to the pool, makes ``cost`` payable (fewest mana,
        then fewest that must be of a particular type), written as mana: mana of any type as one generic
        number, then the typed symbols in W U B R G C order ({S}: any type, from a snow source, for what
        only snow mana pays, CR 107.4h). Never a hybrid or Phyrexian symbol; {∞} stays (never payable).

        Each question is "payable with this much more in the pool?", which only gets easier with more or
        more flexible mana, so every count is found by bisection: the fewest units that may each be any
        type (and snow), then the most of those that may be left as "any type" (``_WILD``: a unit that
        pays only what any mana pays), then type by type how many of the rest may be of that type.
        """
        cost = _check_cost(cost)
        infinite = tuple(s for s in cost.others if s.kind is SymbolKind.INFINITY)
        finite = ManaCost(
            (), cost.generic, tuple(s for s in cost.others if s.kind is not SymbolKind.INFINITY)
        )
        if self.solve(finite, best_life=False) is not None:
            return ManaCost((), 0, infinite)
        rainbow: _Key = (_ANY, True, 0)
        wild: _Key = (_ANY | _WILD, False, 0)

        def pays(extra: dict[_Key, int]) -> bool:
            return self._plus(extra).solve(finite, best_life=False) is not None

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
        typed: dict[_Key, int] = {wild: generic}
        symbols: list[ManaSymbol] = []
        for t in MANA_TYPES:
            if not left:
                break
            key: _Key = (_BIT[t], False, 0)

            def with_type(n: int, key: _Key = key, left: int = left) -> bool:
                return pays({**typed, key: n, rainbow: left - n})

            n = most(0, left, with_type)
            if n:
                typed[key] = n
                left -= n
                symbols.extend([ManaSymbol.parse("{" + t + "}")] * n)
        symbols.extend([ManaSymbol.parse("{S}")] * left)
        return ManaCost((), generic, (*symbols, *infinite))

    # -- building the plan ---------------------------------------------------------------------------

    def build_plan(self, cost: ManaCost, found: _Found) -> PaymentPlan:
        free = [(g, self.groups[g][0]) for g in self.base] + found.free
        free.sort(key=lambda c: c[0])
        ordered = list(found.ordered)
        while True:
            result = self._assign(cost, free, ordered, found.monos)
            used_steps = {u.step for u in result if u.step is not None}
            acts = free + ordered
            unused = [i for i in range(len(acts)) if i not in used_steps]
            if not unused:
                break
            # An activation whose mana nobody spends is dropped (its own cost with it), then re-solve.
            keep = set(range(len(acts))) - set(unused)
            free = [a for i, a in enumerate(acts[: len(free)]) if i in keep]
            ordered = [a for i, a in enumerate(ordered) if i + len(acts) - len(ordered) in keep]
        return self._render(cost, free + ordered, len(free), result)

    def _assign(
        self,
        cost: ManaCost,
        free: list[tuple[int, _Option]],
        ordered: list[tuple[int, _Option]],
        monos_hint: tuple[int, ...],
    ) -> list[_Paid]:
        """Assign every slot a unit, least flexible units first; returns one record per slot."""
        # Units: (mask, snow, pos, flex) -> list of (step, unit index); step -1 is the pool.
        units: dict[tuple[int, bool, int, int], list[tuple[int, int]]] = {}
        for i, t in enumerate(self.pool_units):
            units.setdefault((_BIT[t], False, 0, -1), []).append((-1, i))
        life = self.life
        for step, (g, opt) in enumerate(free + ordered):
            life -= opt.life
            pos = 0 if step < len(free) else step - len(free) + 1
            # Tie-break rank: fewest producible types first; among equals, mana of a source adding several
            # (it is tapped for all of them) before a source adding one.
            rank = 16 * self.flex[g] - min(len(opt.units), 15)
            for ui, u in enumerate(opt.units):
                units.setdefault((u, opt.unit_snow(ui), pos, rank), []).append((step, ui))
        slots: dict[_Key, list[tuple[str, int | None]]] = {}
        monos: list[tuple[str, int | None, int, int]] = []
        payers = [(cost, None, _SPELL_POS)] + [
            (opt.cost, len(free) + k, k + 1) for k, (_g, opt) in enumerate(ordered) if opt.cost is not None
        ]
        for c, target, pos in payers:
            for _ in range(c.generic):
                slots.setdefault((_ANY, False, pos), []).append(("{1}", target))
            for s in c.others:
                slot = _slot_mask(s)
                if slot is not None:
                    slots.setdefault((slot[0], slot[1], pos), []).append((s.text, target))
                else:
                    monos.append((s.text, target, _BIT[s.colors[0]], pos))
        mono_classes = sorted({(m[2], m[3]) for m in monos})
        count = Counter((m[2], m[3]) for m in monos)
        hint = [monos_hint] if len(monos_hint) == len(mono_classes) else []
        for choice in chain(hint, product(*(range(count[k], -1, -1) for k in mono_classes))):
            s2 = {k: list(v) for k, v in slots.items()}
            colored_left = dict(zip(mono_classes, choice, strict=True))
            for text, target, cmask, pos in monos:
                if colored_left[(cmask, pos)] > 0:
                    colored_left[(cmask, pos)] -= 1
                    s2.setdefault((cmask, False, pos), []).append((text, target))
                else:
                    s2.setdefault((_ANY, False, pos), []).extend([(text, target), (text, target)])
            result = _match(units, s2, life // _LIFE_PER_SYMBOL, ordered_relax=len(ordered) + 1)
            if result is not None:
                return result
        raise AssertionError("a configuration found paying must assign")  # pragma: no cover

    def _render(
        self, cost: ManaCost, acts: list[tuple[int, _Option]], n_free: int, paid: list[_Paid]
    ) -> PaymentPlan:
        chosen_types: dict[tuple[int, int], str] = {}
        spent_units: set[tuple[int, int]] = set()
        for p in paid:
            if p.step is not None and p.step >= 0 and p.mana is not None:
                chosen_types[(p.step, p.unit)] = p.mana
                spent_units.add((p.step, p.unit))
        steps: list[PlanStep] = []
        step_sources: list[ManaSource] = []
        where: dict[tuple[int, int], int] = {}  # (act, unit) -> the step that adds it
        cost_step: dict[int, int] = {}  # act -> the step whose activation cost its payments pay
        for act, (_g, opt) in enumerate(acts):
            parts = opt.parts or (opt,)
            first = 0
            for part in parts:
                span = range(first, first + len(part.units))
                first += len(part.units)
                if (
                    len(parts) > 1
                    and not part.costed
                    and part.life == 0
                    and not any((act, ui) in spent_units for ui in span)
                ):
                    continue  # a combined activation whose mana nobody spends is left out
                types = [chosen_types.get((act, ui)) or _types_of(opt.units[ui])[0] for ui in span]
                src_idx = part.source
                if part.by_type and len(part.units) == 1:
                    src_idx = dict(part.by_type)[types[0]]
                src = self.sources[src_idx]
                want = Counter(types)
                adds = next(o for o in src.outputs if Counter(o) == want)
                for ui in span:
                    where[(act, ui)] = len(steps)
                if part.costed and act not in cost_step:
                    cost_step[act] = len(steps)
                step_sources.append(src)
                steps.append(
                    PlanStep(
                        src.permanent,
                        src.ability,
                        adds,
                        src.activation_cost if part.costed else None,
                        src.life_cost,
                        src.consumes,
                    )
                )
        records = [
            SymbolPayment(
                p.symbol,
                None if p.target is None else cost_step[p.target],
                p.mana,
                where[(p.step, p.unit)] if p.step is not None and p.step >= 0 else None,
            )
            for p in paid
        ]
        order = _carry_out_order(steps, step_sources, records)
        at = {old: new for new, old in enumerate(order)}
        steps = [steps[i] for i in order]
        payments = tuple(
            sorted(
                (
                    SymbolPayment(
                        r.symbol,
                        None if r.target is None else at[r.target],
                        r.mana,
                        None if r.step is None else at[r.step],
                    )
                    for r in records
                ),
                key=lambda p: (p.target is not None, p.target or 0),
            )
        )
        life_paid = sum(s.life_paid for s in steps) + _LIFE_PER_SYMBOL * sum(
            1 for p in paid if p.mana is None
        )
        from_pool = tuple(p.mana for p in paid if p.step == -1 and p.mana is not None)
        return PaymentPlan(cost, tuple(steps), payments, life_paid, from_pool)


def _carry_out_order(
    steps: list[PlanStep], sources: list[ManaSource], paid: list[SymbolPayment]
) -> list[int]:
    """An order of the steps that can be carried out (a stable topological order): mana is added before it
    pays an activation cost (CR 605.3a); a permanent's own activations come before one that makes it leave
    the battlefield (it may tap for mana and then be sacrificed, never the other way round, CR 701.21a);
    mana abilities first, then convoke and improvise taps and delve (CR 601.2g before 601.2h)."""
    n = len(steps)
    after: list[set[int]] = [set() for _ in range(n)]  # after[j]: steps that must come before j
    for p in paid:
        if p.step is not None and p.target is not None and p.step != p.target:
            after[p.target].add(p.step)
    for j, src in enumerate(sources):
        gone = {t[len(LEAVES) :] for t in src.tokens if t.startswith(LEAVES)}
        for i, other in enumerate(steps):
            if i != j and other.permanent in gone:
                after[j].add(i)
        if src.ability < 0:  # CR 601.2h: while paying, after every mana ability
            after[j].update(i for i, s in enumerate(steps) if s.ability >= 0)
    order: list[int] = []
    placed: set[int] = set()
    while len(order) < n:
        ready = next((j for j in range(n) if j not in placed and after[j] <= placed), None)
        if ready is None:  # a cycle (never for sources the board lists): keep the solver's order
            return list(range(n))
        order.append(ready)
        placed.add(ready)
    return order


@dataclass(frozen=True, slots=True)
class _Paid:
    symbol: str
    target: int | None
    mana: str | None
    step: int | None  # -1: pool; None: life
    unit: int


def _match(
    units: dict[tuple[int, bool, int, int], list[tuple[int, int]]],
    slots: dict[_Key, list[tuple[str, int | None]]],
    life_units: int,
    *,
    ordered_relax: int,
) -> list[_Paid] | None:
    """Pay every slot with a concrete unit (or 2 life); None if impossible."""
    sup_keys = sorted(units, key=lambda k: (k[3], k[2], _popcount(k[0]), k[1], k[0]))
    dem_keys = sorted(slots, key=lambda k: (_popcount(k[0]), not k[1], k[2], k[0]))
    sup = [len(units[k]) for k in sup_keys]
    dem = [len(slots[k]) for k in dem_keys]
    adj = [
        [j for j, d in enumerate(dem_keys) if _compatible(s[0], s[1], s[2], d[0], d[1], d[2], ordered_relax)]
        for s in sup_keys
    ]
    late = None
    if any(d[0] & _LIFE for d in dem_keys):
        late = len(sup)
        sup.append(life_units)
        adj.append([j for j, d in enumerate(dem_keys) if d[0] & _LIFE])
    total, _life, flow = max_transport(sup, dem, adj, late=late)
    if total != sum(dem):
        return None
    out: list[_Paid] = []
    slot_queues = [iter(slots[k]) for k in dem_keys]
    unit_queues = [iter(units[k]) for k in sup_keys]
    for i, f in enumerate(flow):
        for j, amount in sorted(f.items()):
            for _ in range(amount):
                text, target = next(slot_queues[j])
                if i == late:
                    out.append(_Paid(text, target, None, None, -1))
                    continue
                step, ui = next(unit_queues[i])
                smask = sup_keys[i][0] & dem_keys[j][0] & _ANY
                mana = _types_of(smask)[0]
                out.append(_Paid(text, target, mana, step, ui))
    return out


def _graph(
    sup: dict[_Key, int], dem: dict[_Key, int], life_units: int, relax: int
) -> tuple[list[int], list[int], list[list[int]], int | None]:
    sup_keys = sorted(sup, key=lambda k: (_popcount(k[0]), k[1], k[2], k[0]))
    dem_keys = sorted(dem, key=lambda k: (_popcount(k[0]), not k[1], k[2], k[0]))
    sup_list = [sup[k] for k in sup_keys]
    dem_list = [dem[k] for k in dem_keys]
    adj = [
        [j for j, d in enumerate(dem_keys) if _compatible(s[0], s[1], s[2], d[0], d[1], d[2], relax)]
        for s in sup_keys
    ]
    late = None
    if any(d[0] & _LIFE for d in dem_keys):
        late = len(sup_list)
        sup_list.append(life_units)
        adj.append([j for j, d in enumerate(dem_keys) if d[0] & _LIFE])
    return sup_list, dem_list, adj, late


def _feasible(sup: dict[_Key, int], dem: dict[_Key, int], life_units: int, relax: int) -> int | None:
    """Life units the cheapest full payment needs, None if the slots cannot all be paid."""
    need = sum(dem.values())
    if need == 0:
        return 0
    sup_list, dem_list, adj, late = _graph(sup, dem, life_units, relax)
    total, life_used, _flow = max_transport(sup_list, dem_list, adj, late=late)
    return life_used if total == need else None


def _feasible_monos(
    sup: dict[_Key, int], dem: dict[_Key, int], monos: dict[tuple[int, int], int], life_units: int, relax: int
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
        used = _feasible(sup, dem, life_units, relax)
        return None if used is None else (used, ())
    typed = dict(dem)
    generic = typed.pop((_ANY, False, _SPELL_POS), 0)
    mono_keys = sorted(monos)
    total_monos = sum(monos.values())
    sup_keys = sorted(sup, key=lambda k: (_popcount(k[0]), k[1], k[2], k[0]))
    typed_keys = sorted(typed, key=lambda k: (_popcount(k[0]), not k[1], k[2], k[0]))
    dem_keys = typed_keys + [(cmask, False, pos) for cmask, pos in mono_keys]
    dem_list = [typed[k] for k in typed_keys] + [monos[k] for k in mono_keys]
    adj = [
        [j for j, d in enumerate(dem_keys) if _compatible(s[0], s[1], s[2], d[0], d[1], d[2], relax)]
        for s in sup_keys
    ]
    adj.append([j for j, d in enumerate(typed_keys) if d[0] & _LIFE])
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
    hi = min(life_units, sum(c for k, c in typed.items() if k[0] & _LIFE))
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


def _pool_units(pool: ManaCost | None) -> tuple[str, ...]:
    """Mana already in the pool, one type per unit (CR 106.4); a pool holds typed mana, never {1}."""
    if pool is None:
        return ()
    if pool.variables or pool.generic:
        raise InvalidChoiceError(
            f"a mana pool holds mana of a type (W U B R G C), not {pool} (CR 106.4)", field="mana_pool"
        )
    units: list[str] = []
    for s in pool.others:
        if s.kind is SymbolKind.COLORED:
            units.append(s.colors[0])
        elif s.kind is SymbolKind.COLORLESS:
            units.append("C")
        else:
            raise InvalidChoiceError(
                f"a mana pool holds mana of a type (W U B R G C), not {s.text} (CR 106.4)", field="mana_pool"
            )
    return tuple(units)


def _validate_source(src: ManaSource) -> None:
    if not src.outputs or any(not o for o in src.outputs):
        raise InvalidChoiceError(f"source {src.permanent}#{src.ability} adds no mana", field="sources")
    for o in src.outputs:
        for t in o:
            if t not in _BIT:
                raise InvalidChoiceError(
                    f"source {src.permanent}#{src.ability} adds {t!r}, not a mana type", field="sources"
                )
    if src.life_cost < 0:
        raise InvalidChoiceError(
            f"source {src.permanent}#{src.ability} has a negative life cost", field="sources"
        )
    if src.activation_cost is not None and src.activation_cost.variables:
        raise IllegalError(
            f"source {src.permanent}#{src.ability}: an activation cost with X needs a value (CR 107.3a)",
            rule="107.3a",
        )
