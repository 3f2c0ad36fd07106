"""Cost reductions (CR 118.7) applied in the order and with the hybrid halves (118.7e, 601.2b) that give the
cheapest total: generic reductions reduce only generic mana (118.7a), colored ones spill onto generic
(118.7b-d), {S} reductions (118.7g), never below {0}. The search is bounded for hostile boards.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from app.rules import deadline
from app.rules.casting.spell_cost import CostStep, StepKind
from app.rules.effects.cost_effects import (
    CostEffect,
)
from app.rules.values.board import Permanent
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import COLORS, ManaSymbol, SymbolKind

_MAX_ORDER_SEARCH: Final = 6


_MAX_VARIANTS: Final = 720


# Reduction applications tried in all by the search for the cheapest plan: bounds hostile boards with
# thousands of hybrid reductions (720 plans of 5,000 steps took a minute); real boards stay far below.
_MAX_SEARCH_STEPS: Final = 50_000


_State = tuple[int, tuple[ManaSymbol, ...]]


def _payable_by(sym: ManaSymbol, color: str) -> int:
    """Preference (lower first) for letting a {color} reduction remove ``sym``; -1 when it cannot."""
    kind = sym.kind
    if color == "C":
        if kind is SymbolKind.COLORLESS:
            return 0
        return 3 if kind is SymbolKind.COLORLESS_HYBRID else -1
    if color not in sym.colors:
        return -1
    return {
        SymbolKind.COLORED: 0,
        SymbolKind.PHYREXIAN: 1,
        SymbolKind.HYBRID: 2,
        SymbolKind.HYBRID_PHYREXIAN: 2,
        SymbolKind.COLORLESS_HYBRID: 3,
        SymbolKind.MONO_HYBRID: 4,
    }.get(kind, -1)


def _unit(
    state: _State, color: str, colored_only: bool, pending: frozenset[str], notes: list[str]
) -> tuple[_State, bool]:
    """Reduce by one mana of ``color`` (W U B R G or C): CR 118.7b-d, 118.7f; returns (state, changed)."""
    generic, others = state
    best = -1
    best_rank: tuple[int, int] = (99, 99)
    for i, sym in enumerate(others):
        pref = _payable_by(sym, color)
        if pref < 0:
            continue
        # Keep hybrid symbols that later reductions of another color could also remove.
        clash = sum(1 for c in sym.colors if c != color and c in pending)
        rank = (pref, clash)
        if rank < best_rank:
            best, best_rank = i, rank
    if best >= 0:
        sym = others[best]
        if sym.kind not in (SymbolKind.COLORED, SymbolKind.COLORLESS):
            notes.append(f"{sym} is paid as {{{color}}} (CR 601.2b), so the {{{color}}} reduction removes it")
        return (generic, others[:best] + others[best + 1 :]), True
    if colored_only or color == "" or generic == 0:
        return state, False
    return (generic - 1, others), True  # 118.7b-d: spill onto generic


def _apply(
    state: _State, amount: ManaCost, colored_only: bool, pending: frozenset[str], notes: list[str]
) -> tuple[_State, int]:
    """Apply one concrete reduction (hybrid halves already chosen). Returns (state, unused generic)."""
    generic, others = state
    unused = 0
    if amount.generic and not colored_only:
        r = min(generic, amount.generic)
        generic -= r
        unused = amount.generic - r
    state = (generic, others)
    for sym in amount.others:
        kind = sym.kind
        if kind in (SymbolKind.COLORED, SymbolKind.PHYREXIAN):
            state, _ = _unit(state, sym.colors[0], colored_only, pending, notes)
        elif kind is SymbolKind.COLORLESS:
            state, _ = _unit(state, "C", colored_only, pending, notes)
        elif kind is SymbolKind.SNOW:  # 118.7g
            if not colored_only and state[0] > 0:
                state = (state[0] - 1, state[1])
            elif not colored_only:
                unused += 1
        elif kind is SymbolKind.HALF and sym in state[1]:
            rest = list(state[1])
            rest.remove(sym)
            state = (state[0], tuple(rest))
    return state, unused


def _variants(amount: ManaCost) -> list[tuple[ManaCost, tuple[str, ...]]]:
    """Concrete amounts for a reduction with hybrid symbols: each choice of halves (CR 118.7e)."""
    options: list[list[tuple[ManaSymbol | int, str | None]]] = []
    for sym in amount.others:
        k = sym.kind
        if k in (SymbolKind.HYBRID, SymbolKind.HYBRID_PHYREXIAN):
            options.append([(_COLORED[c], f"{sym} as {{{c}}}") for c in sym.colors])
        elif k is SymbolKind.MONO_HYBRID:
            options.append(
                [(_COLORED[sym.colors[0]], f"{sym} as {{{sym.colors[0]}}}"), (2, f"{sym} as {{2}}")]
            )
        elif k is SymbolKind.COLORLESS_HYBRID:
            options.append(
                [(_COLORED[sym.colors[0]], f"{sym} as {{{sym.colors[0]}}}"), (_COLORLESS, f"{sym} as {{C}}")]
            )
        else:
            options.append([(sym, None)])
    out: list[tuple[ManaCost, tuple[str, ...]]] = []
    for combo in itertools.islice(itertools.product(*options), _MAX_VARIANTS):
        generic = amount.generic
        syms: list[ManaSymbol] = []
        notes: list[str] = []
        for part, note in combo:
            if isinstance(part, int):
                generic += part
            else:
                syms.append(part)
            if note:
                notes.append(note)
        out.append((ManaCost((), generic, tuple(syms)), tuple(notes)))
    return out


_COLORED: Final = {c: ManaSymbol.parse(f"{{{c}}}") for c in COLORS}


_COLORLESS: Final = ManaSymbol.parse("{C}")


def pay_units(state: _State) -> int:
    """Least mana (in half-units) that pays the cost, each symbol paid its cheapest way with mana."""
    generic, others = state
    total = 2 * generic
    for s in others:
        total += 1 if s.kind is SymbolKind.HALF else 2
    return total


def _metric(state: _State) -> tuple[int, int, str]:
    return (pay_units(state), len(state[1]), str(ManaCost((), state[0], state[1])))


@dataclass(frozen=True, slots=True)
class Reduction:
    """A reduction ready to apply: its concrete variants, its source and the note of its amount."""

    index: int
    effect: CostEffect
    source: Permanent | None
    amount: ManaCost
    amount_note: str | None

    def __init__(
        self,
        index: int,
        effect: CostEffect,
        source: Permanent | None,
        amount: ManaCost,
        amount_note: str | None,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "effect", effect)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "amount_note", amount_note)


def _run(
    start: _State, order: Sequence[Reduction], picks: Sequence[int]
) -> tuple[_State, list[tuple[_State, list[str], ManaCost]]]:
    state = start
    trail: list[tuple[_State, list[str], ManaCost]] = []
    # Colors of the reductions after each position, built once (per-step rescans were quadratic).
    after: list[frozenset[str]] = [frozenset()] * (len(order) + 1)
    for pos in range(len(order) - 1, -1, -1):
        after[pos] = after[pos + 1] | {c for s in order[pos].amount.others for c in s.colors}
    for pos, (red, pick) in enumerate(zip(order, picks, strict=True)):
        concrete, choice_notes = _variants(red.amount)[pick]
        later = after[pos + 1]
        notes = list(choice_notes)
        state, unused = _apply(state, concrete, red.effect.colored_only, later, notes)
        if unused and not red.effect.colored_only:
            state = _convert_mono_hybrid(state, unused, notes)
        trail.append((state, notes, concrete))
    return state, trail


def _convert_mono_hybrid(state: _State, unused: int, notes: list[str]) -> _State:
    """Generic reduction left over: announce {2/C} symbols as {2} (CR 601.2b) so it can reduce them."""
    generic, others = state
    rest = list(others)
    for sym in others:
        if unused <= 0:
            break
        if sym.kind is SymbolKind.MONO_HYBRID:
            rest.remove(sym)
            take = min(unused, sym.amount)
            generic += sym.amount - take
            unused -= take
            notes.append(f"{sym} is paid as {{{sym.amount}}} (CR 601.2b), so generic reduction applies to it")
    return (generic, tuple(rest))


def _best_plan(start: _State, reds: list[Reduction]) -> tuple[list[Reduction], list[int]]:
    """The order and hybrid halves giving the cheapest total (CR 601.2f: any order; 118.7e: either half)."""
    generic_only = [r for r in reds if not r.amount.others and not r.effect.colored_only]
    sensitive = [r for r in reds if r.amount.others or r.effect.colored_only]
    # Colored-only riders first (they never spill), then colored, then generic (CR 118.7a-d).
    sensitive.sort(key=lambda r: (not r.effect.colored_only, r.index))
    best: tuple[tuple[int, int, str], list[Reduction], list[int]] | None = None
    orders: list[tuple[Reduction, ...]]
    if len(sensitive) <= _MAX_ORDER_SEARCH and len(sensitive) > 1:
        orders = list(itertools.permutations(sensitive))
    else:
        orders = [tuple(sensitive)]
    tried = 0
    for order_t in orders:
        full = [*order_t, *generic_only]
        pick_ranges = [range(len(_variants(r.amount))) for r in full]
        for picks in itertools.product(*pick_ranges):
            deadline.check()  # one order of the cost reductions (CR 601.2f)
            tried += 1
            end, _ = _run(start, full, picks)
            m = _metric(end)
            if best is None or m < best[0]:
                best = (m, full, list(picks))
            if tried >= _MAX_VARIANTS or tried * len(full) >= _MAX_SEARCH_STEPS:
                break
        if tried >= _MAX_VARIANTS or tried * len(reds) >= _MAX_SEARCH_STEPS:
            break
    assert best is not None
    return best[1], best[2]


def reduce_cost(
    current: ManaCost, reds: list[Reduction], steps: list[CostStep], choices: list[str]
) -> ManaCost:
    start: _State = (current.generic, current.others)
    order, picks = _best_plan(start, reds)
    _, trail = _run(start, order, picks)
    if [r.index for r in order] != sorted(r.index for r in order) and len(order) > 1:
        choices.append(
            "reductions applied in the order listed in steps, which gives the cheapest total (CR 601.2f)"
        )
    prev = start
    for red, (state, notes, concrete) in zip(order, trail, strict=True):
        result = ManaCost((), state[0], state[1])
        changed = state != prev
        note_parts = [n for n in (red.amount_note, *notes) if n]
        if not changed:
            note_parts.append(_why_nothing(red, prev))
        for n in notes:
            choices.append(n)
        src = red.source
        steps.append(
            CostStep(
                StepKind.REDUCTION,
                result,
                _step_rule(red, concrete),
                src.id if src else None,
                src.card.name if src else None,
                red.amount,
                changed,
                "; ".join(note_parts) or None,
            )
        )
        prev = state
    return ManaCost((), prev[0], prev[1])


def _step_rule(red: Reduction, concrete: ManaCost) -> str:
    rule = red.effect.rule
    if rule.startswith("118.7") and concrete != red.amount:
        return "118.7e"
    return rule


def _why_nothing(red: Reduction, state: _State) -> str:
    if red.effect.colored_only:
        return "this effect reduces only colored mana, and the cost has none of those colors left"
    if not red.amount.others:
        return "reduces only generic mana (CR 118.7a), and the cost has no generic mana left"
    return "nothing left in the cost that this reduction can reduce"
