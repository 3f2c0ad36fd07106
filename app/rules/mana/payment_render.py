"""The payment solver's plan (CR 601.2g-h): a configuration ``payment_search`` found paying, turned into
activations in an order that can be carried out and a record of what paid each symbol."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain, product
from typing import Final

from app.rules import deadline
from app.rules.mana.flow import same_flow_with_less
from app.rules.mana.payment_graph import (
    ANY,
    BIT,
    LIFE_PER_SYMBOL,
    SPELL_POS,
    Key,
    Matching,
    Paid,
    match,
    slot_mask,
    types_of,
)
from app.rules.mana.payment_options import Option
from app.rules.mana.payment_search import Found, Prepared
from app.rules.mana.payment_values import (
    LEAVES,
    TAP,
    ManaSource,
    PaymentPlan,
    PlanStep,
    SymbolPayment,
)
from app.rules.values.costs import ManaCost

_Act = tuple[int, Option]
CONSUMING_RANK: Final = 1 << 12
"""Above any flexibility rank (16 x 5 types + 15 units): consuming sources are assigned last."""
_Units = dict[tuple[int, bool, int, int], list[tuple[int, int]]]
_Slots = dict[Key, list[tuple[str, int | None]]]
_Mono = tuple[str, int | None, int, int]


def build_plan(
    prepared: Prepared, cost: ManaCost, found: Found, *, always_reassign: bool = False
) -> PaymentPlan:
    """The plan of a paying configuration: every symbol assigned a unit (CR 601.2h), then any activation
    whose mana nobody spends dropped with its own cost and the rest assigned again, until every one left
    is spent from (a plan never activates a source for nothing).

    The search's configuration has the fewest activations with a mana cost (``Prepared.solve``), so the
    first assignment spends from every one of them: what it leaves unused is free activations, and the
    assignment again is skipped when it provably gives the same one (``_same_without``): the records are
    re-indexed instead. ``always_reassign`` keeps the assignment again every time (the reference the tests
    hold the shortcut to)."""
    free = [(g, prepared.groups[g][0]) for g in prepared.base] + found.free
    free.sort(key=lambda c: c[0])
    ordered = list(found.ordered)
    first = _first_assignment(prepared, cost, free, ordered, found.monos)
    if first is None:
        raise AssertionError("a configuration found paying must assign")  # pragma: no cover
    done, settled = first
    return _finish(prepared, cost, free, ordered, found.monos, done, always_reassign, settled)


def plan_unsearched(prepared: Prepared, cost: ManaCost) -> PaymentPlan | None:
    """``build_plan(prepared, cost, prepared.solve(cost, best_life=True))`` when the search has nothing to
    decide (``Prepared.unsearched``), without the search; None when the cost cannot be paid.

    With no batch, the search's one configuration is the base (every activation that has no choice), and
    its answer is one flow over the base's units and the cost's slots (no {2/X} symbol, so no mono choice
    to hint: CR 107.4e). The assignment's first ``match`` is that very flow, its units only split further by
    the tie-break rank (which changes the flow's value nowhere): it pays exactly when the search finds, and
    then it is the assignment ``build_plan`` starts from. So the symbols are assigned once, not searched for
    and then assigned."""
    deadline.check()  # the safe point the search's one node had, before its flow
    free = [(g, prepared.groups[g][0]) for g in prepared.base]
    first = _first_assignment(prepared, cost, free, [], ())
    if first is None:
        return None
    done, settled = first
    return _finish(prepared, cost, free, [], (), done, False, settled)


def _first_assignment(
    prepared: Prepared, cost: ManaCost, free: list[_Act], ordered: list[_Act], monos: tuple[int, ...]
) -> tuple[_Assigned, frozenset[int]] | None:
    """The first assignment, and the activations taking a resource besides their own tap that it spends
    from (``settled``, by ``id`` of their option); None when it does not pay.

    A consuming activation's units are ranked last (``_units``: a land's mana before a sacrificed
    permanent's), but once the assignment spends from one, the resource is taken whatever else of its mana
    is spent: Irrigation Ditch sacrificed for {G}{U} to pay a {U} has its {G} too, and a Timberland Ruins
    tapped for the {G} beside it is one permanent used for nothing. So the units of those activations lose
    that last rank, and the symbols are assigned again (only then: most plans consume nothing)."""
    done = _assign(prepared, cost, free, ordered, monos)
    if done is None:
        return None
    acts = free + ordered
    spent = {p.step for p in done.matching.paid if p.step is not None and p.step >= 0}
    settled = frozenset(
        id(acts[step][1])
        for step in spent
        if len(acts[step][1].units) > 1 and _consumes(prepared, acts[step][1])
    )
    if not settled:
        return done, settled
    again = _assign(prepared, cost, free, ordered, monos, settled)
    return (done if again is None else again), settled


def _finish(
    prepared: Prepared,
    cost: ManaCost,
    free: list[_Act],
    ordered: list[_Act],
    monos: tuple[int, ...],
    done: _Assigned,
    always_reassign: bool,
    settled: frozenset[int] = frozenset(),
) -> PaymentPlan:
    """``build_plan`` from its first assignment ``done``: drop the unused activations, assign again where
    that can change the records, render."""
    while True:
        result = done.matching.paid
        used_steps = {u.step for u in result if u.step is not None}
        acts = free + ordered
        unused = [i for i in range(len(acts)) if i not in used_steps]
        if not unused:
            break
        only_free = unused[-1] < len(free)  # ordered ones' costs are slots: their drop can free others
        if not always_reassign and only_free and _same_without(prepared, free, ordered, done, unused):
            result = _reindexed(result, unused, len(acts))
            gone = set(unused)
            free = [a for i, a in enumerate(free) if i not in gone]
            break
        # An activation whose mana nobody spends is dropped (its own cost with it), then re-solve.
        keep = set(range(len(acts))) - set(unused)
        free = [a for i, a in enumerate(acts[: len(free)]) if i in keep]
        ordered = [a for i, a in enumerate(ordered) if i + len(acts) - len(ordered) in keep]
        again = _assign(prepared, cost, free, ordered, monos, settled)
        if again is None:
            raise AssertionError("dropping unspent activations keeps a plan")  # pragma: no cover
        done = again
    return _render(prepared, cost, free + ordered, result)


def _same_without(
    prepared: Prepared, free: list[_Act], ordered: list[_Act], done: _Assigned, unused: list[int]
) -> bool:
    """Whether assigning again without the unused activations ``unused``, all free ones (no activation cost
    of theirs is among the slots, CR 602.2b), would give the same records as ``done``, re-indexed.

    The slots do not change (only ordered activations' costs are slots, and their positions ``k + 1``
    stay). The units lose exactly the dropped activations' ones, and none of those was used: in ``match``
    each unit key's queue hands out its first units in order, as many as that supply sends, so a dropped
    unit sat behind every unit handed out, and the queues without them hand out the same units. What is
    left is whether the flow is the same with each supply lowered to what is not dropped (never below what
    it sends), and the life supply raised by the dropped activations' life costs (CR 119.4: spent only
    after every mana): ``flow.same_flow_with_less`` argues it step by step, and checks the one condition
    that can fail, the greedy start's order of slots (a dropped unit can tip which of two slots is the
    less supplied, and the two then take a shared unit the other way round). Last, the {2/X} choices
    (CR 107.4e) tried before the one that paid failed with more units, so they fail with fewer; but with
    more life one of them could now pay, so a dropped life cost needs the paying choice to be the first
    tried."""
    gone = set(unused)
    if not done.first_choice and any(free[i][1].life for i in unused):
        return False
    matching = done.matching
    life = prepared.life - sum(opt.life for i, (_g, opt) in enumerate(free + ordered) if i not in gone)
    less = [sum(1 for step, _ui in done.units[k] if step not in gone) for k in matching.unit_keys]
    less.append(life // LIFE_PER_SYMBOL)
    late = len(matching.unit_keys)
    return same_flow_with_less(matching.supply, less, matching.demand, matching.adj, late=late)


def _reindexed(paid: list[Paid], unused: list[int], n_acts: int) -> list[Paid]:
    """The records with the free activations ``unused`` gone: a step (an index into free + ordered, CR 605.3a
    order kept) moves down by the dropped ones before it, and a target (``n_free + k``, the k-th ordered
    activation's cost) by all of them, since every dropped one is free."""
    gone = set(unused)
    at: list[int] = []
    kept = 0
    for i in range(n_acts):
        at.append(kept)
        if i not in gone:
            kept += 1
    shift = len(unused)
    return [
        Paid(
            p.symbol,
            None if p.target is None else p.target - shift,
            p.mana,
            p.step if p.step is None or p.step < 0 else at[p.step],
            p.unit,
        )
        for p in paid
    ]


def _units(
    prepared: Prepared, free: list[_Act], ordered: list[_Act], settled: frozenset[int] = frozenset()
) -> _Units:
    """The units of the pool and of the activations: (mask, snow, pos, rank) -> (step, unit index); step
    -1 is the pool (CR 106.4), position 0 the free ones, k the k-th ordered one (CR 605.3a). A consuming
    activation in ``settled`` (its resource taken anyway, ``_first_assignment``) is ranked as any other."""
    units: _Units = {}
    for i, t in enumerate(prepared.pool_units):
        units.setdefault((BIT[t], False, 0, -1), []).append((-1, i))
    for step, (g, opt) in enumerate(free + ordered):
        pos = 0 if step < len(free) else step - len(free) + 1
        # Tie-break rank: fewest producible types first; among equals, mana of a source adding several
        # (it is tapped for all of them) before a source adding one. Last of all, mana whose activation
        # takes something besides the permanent's own tap (a creature sacrificed to an Altar, a Lotus Petal,
        # a Vivid land's counter, a creature tapped for convoke): a plan spends a land's mana before it
        # sacrifices or taps what a player would rather keep, and an activation nobody then spends from is
        # dropped (``build_plan``).
        rank = (
            16 * prepared.flex[g]
            - min(len(opt.units), 15)
            + (CONSUMING_RANK if id(opt) not in settled and _consumes(prepared, opt) else 0)
        )
        for ui, u in enumerate(opt.units):
            units.setdefault((u, opt.unit_snow(ui), pos, rank), []).append((step, ui))
    return units


def _consumes(prepared: Prepared, opt: Option) -> bool:
    """Whether the activation takes a resource besides its own permanent's tap (CR 118.3): another
    permanent tapped or sacrificed, itself sacrificed, a counter, a card; a cluster's parts each count."""
    if opt.parts:
        return any(_consumes(prepared, part) for part in opt.parts)
    source = prepared.sources[opt.source]
    tokens = opt.tokens
    # A token besides the permanent's own tap (written out: this runs once per activation of every plan).
    if len(tokens) > 1 or (tokens and TAP + source.permanent not in tokens):
        return True
    used = source.consumes
    return bool(used.sacrifices or used.taps or used.returns or used.removes or used.exiles or used.discards)


def _slots(cost: ManaCost, n_free: int, ordered: list[_Act]) -> tuple[_Slots, list[_Mono]]:
    """The symbols to pay, each with the step whose activation cost it belongs to (None: the spell), and
    apart the {2/X} symbols (CR 107.4e), whose way of paying is chosen by the caller."""
    slots: _Slots = {}
    monos: list[_Mono] = []
    payers = [(cost, None, SPELL_POS)] + [
        (opt.cost, n_free + k, k + 1) for k, (_g, opt) in enumerate(ordered) if opt.cost is not None
    ]
    for c, target, pos in payers:
        for _ in range(c.generic):
            slots.setdefault((ANY, False, pos), []).append(("{1}", target))
        for s in c.others:
            slot = slot_mask(s)
            if slot is not None:
                slots.setdefault((slot[0], slot[1], pos), []).append((s.text, target))
            else:
                monos.append((s.text, target, BIT[s.colors[0]], pos))
    return slots, monos


@dataclass(slots=True)
class _Assigned:
    """An assignment (one record per slot), the units it was made from, and whether the {2/X} choice that
    paid was the first tried."""

    matching: Matching
    units: _Units
    first_choice: bool


def _assign(
    prepared: Prepared,
    cost: ManaCost,
    free: list[_Act],
    ordered: list[_Act],
    monos_hint: tuple[int, ...],
    settled: frozenset[int] = frozenset(),
) -> _Assigned | None:
    """Assign every slot a unit, least flexible units first. A {2/X} symbol is one slot of X or two of any
    type (CR 107.4e): the search's choice is tried first. None when no choice pays."""
    units = _units(prepared, free, ordered, settled)
    life = prepared.life - sum(opt.life for _g, opt in free + ordered)
    slots, monos = _slots(cost, len(free), ordered)
    relax = len(ordered) + 1
    if not monos:  # no {2/X}: one way to lay out the slots, so one match (another would repeat it)
        result = match(units, slots, life // LIFE_PER_SYMBOL, ordered_relax=relax)
        return None if result is None else _Assigned(result, units, True)
    mono_classes = sorted({(m[2], m[3]) for m in monos})
    count = Counter((m[2], m[3]) for m in monos)
    hint = [monos_hint] if len(monos_hint) == len(mono_classes) else []
    choices = chain(hint, product(*(range(count[k], -1, -1) for k in mono_classes)))
    for tried, choice in enumerate(choices):
        s2 = {k: list(v) for k, v in slots.items()}
        colored_left = dict(zip(mono_classes, choice, strict=True))
        for text, target, cmask, pos in monos:
            if colored_left[(cmask, pos)] > 0:
                colored_left[(cmask, pos)] -= 1
                s2.setdefault((cmask, False, pos), []).append((text, target))
            else:
                s2.setdefault((ANY, False, pos), []).extend([(text, target), (text, target)])
        result = match(units, s2, life // LIFE_PER_SYMBOL, ordered_relax=relax)
        if result is not None:
            return _Assigned(result, units, tried == 0)
    return None


@dataclass(slots=True)
class _Steps:
    """The plan's steps in the solver's order, with their sources, the step adding each (activation,
    unit), and the step whose activation cost each costed activation's payments pay."""

    steps: list[PlanStep]
    sources: list[ManaSource]
    where: dict[tuple[int, int], int]
    cost_step: dict[int, int]


def _steps(prepared: Prepared, acts: list[_Act], paid: list[Paid]) -> _Steps:
    """One step per activation (CR 605.3a), a combined option's parts each its own, a part whose mana
    nobody spends (and which costs nothing) left out; each step adds the alternative of its source that
    holds the types its units were spent as (CR 106.4: the player chooses the type as it is added)."""
    chosen_types: dict[tuple[int, int], str] = {}
    for p in paid:
        if p.step is not None and p.step >= 0 and p.mana is not None:
            chosen_types[(p.step, p.unit)] = p.mana
    out = _Steps([], [], {}, {})
    for act, (_g, opt) in enumerate(acts):
        parts = opt.parts or (opt,)
        first = 0
        for part in parts:
            span = range(first, first + len(part.units))
            first += len(part.units)
            if len(parts) > 1 and part.free and not any((act, ui) in chosen_types for ui in span):
                continue  # a combined activation whose mana nobody spends is left out
            types = [chosen_types.get((act, ui)) or types_of(opt.units[ui])[0] for ui in span]
            src_idx = part.source
            if part.by_type and len(part.units) == 1:
                src_idx = dict(part.by_type)[types[0]]
            src = prepared.sources[src_idx]
            # The alternative adding these types in any order (equal as multisets: sorted, equal lists;
            # a Counter per alternative was a tenth of a plan's time).
            want = sorted(types)
            adds = next(o for o in src.outputs if len(o) == len(want) and sorted(o) == want)
            for ui in span:
                out.where[(act, ui)] = len(out.steps)
            if part.costed and act not in out.cost_step:
                out.cost_step[act] = len(out.steps)
            out.sources.append(src)
            cost = src.activation_cost if part.costed else None
            out.steps.append(PlanStep(src.permanent, src.ability, adds, cost, src.life_cost, src.consumes))
    return out


def _render(prepared: Prepared, cost: ManaCost, acts: list[_Act], paid: list[Paid]) -> PaymentPlan:
    """The plan: the steps in an order that can be carried out (``carry_out_order``), the payments of the
    spell's cost first, then of each activation cost, and the life paid (CR 119.4, 107.4f)."""
    made = _steps(prepared, acts, paid)
    records = [
        SymbolPayment(
            p.symbol,
            None if p.target is None else made.cost_step[p.target],
            p.mana,
            made.where[(p.step, p.unit)] if p.step is not None and p.step >= 0 else None,
        )
        for p in paid
    ]
    order = carry_out_order(made.steps, made.sources, records)
    at = {old: new for new, old in enumerate(order)}
    steps = [made.steps[i] for i in order]
    moved = (
        SymbolPayment(
            r.symbol,
            None if r.target is None else at[r.target],
            r.mana,
            None if r.step is None else at[r.step],
        )
        for r in records
    )
    payments = tuple(sorted(moved, key=lambda p: (p.target is not None, p.target or 0)))
    life_paid = sum(s.life_paid for s in steps) + LIFE_PER_SYMBOL * sum(1 for p in paid if p.mana is None)
    from_pool = tuple(p.mana for p in paid if p.step == -1 and p.mana is not None)
    return PaymentPlan(cost, tuple(steps), payments, life_paid, from_pool)


def carry_out_order(steps: list[PlanStep], sources: list[ManaSource], paid: list[SymbolPayment]) -> list[int]:
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
        if gone:  # most steps make nothing leave: no pass over every step for them
            for i, other in enumerate(steps):
                if i != j and other.permanent in gone:
                    after[j].add(i)
        if src.ability < 0:  # CR 601.2h: while paying, after every mana ability
            after[j].update(i for i, s in enumerate(steps) if s.ability >= 0)
    if not any(after):  # nothing waits for anything (a board of lands): the solver's order as it is
        return list(range(n))
    order: list[int] = []
    placed: set[int] = set()
    while len(order) < n:
        ready = next((j for j in range(n) if j not in placed and after[j] <= placed), None)
        if ready is None:  # a cycle (never for sources the board lists): keep the solver's order
            return list(range(n))
        order.append(ready)
        placed.add(ready)
    return order
