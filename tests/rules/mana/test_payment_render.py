"""``build_plan``'s shortcut (issue 30): when every activation the first assignment left unused is a free
one, the records are re-indexed instead of assigned again, but only where that provably gives the same
plan. Held here to the plan the assignment again gives (``always_reassign``), value for value, on random
boards (hypothesis), and on boards built to hit each case where the shortcut must step aside."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.rules.mana import payment_render
from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_render import build_plan
from app.rules.mana.payment_values import ManaSource, PaymentPlan, check_cost
from app.rules.values.costs import ManaCost
from tests.rules.mana.payment_bruteforce import check_plan
from tests.rules.mana.test_payment_properties import SYMBOLS, boards, permanent

Case = tuple[ManaCost, tuple[ManaSource, ...], ManaCost, int]


@contextmanager
def _counting_assignments() -> Iterator[list[int]]:
    """Counts ``_assign`` calls (one: the shortcut was taken, or nothing was unused)."""
    calls = [0]
    original = payment_render._assign

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return original(*args, **kwargs)

    payment_render._assign = counted  # type: ignore[assignment]
    try:
        yield calls
    finally:
        payment_render._assign = original  # type: ignore[assignment]


def _both(case: Case) -> tuple[PaymentPlan, PaymentPlan, int] | None:
    """The plan with the shortcut, the plan assigning again every time, and the shortcut's assignments."""
    cost, sources, pool, life = case
    prepared = PaymentSources(sources, pool=pool, life=life)._prepared
    found = prepared.solve(check_cost(cost), best_life=True)
    if found is None:
        return None
    with _counting_assignments() as calls:
        fast = build_plan(prepared, cost, found)
    slow = build_plan(prepared, cost, found, always_reassign=True)
    return fast, slow, calls[0]


@st.composite
def wide_boards(draw: st.DrawFn) -> Case:
    """Boards of up to 9 permanents (no brute force here, so wider than ``boards``) and costs of up to 7
    symbols, so a first assignment often leaves several sources unused and slots compete for units."""
    sources: list[ManaSource] = []
    for i in range(draw(st.integers(0, 9))):
        sources.extend(draw(permanent(f"p{i}")))
    cost = ManaCost.parse("".join(draw(st.lists(st.sampled_from(SYMBOLS), max_size=7))))
    pool = ManaCost.parse("".join(draw(st.lists(st.sampled_from(["{W}", "{G}", "{C}"]), max_size=2))))
    return cost, tuple(sources), pool, draw(st.integers(0, 8))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(boards(), wide_boards()))
def test_shortcut_gives_the_plan_assigning_again_gives(case: Case) -> None:
    both = _both(case)
    if both is None:
        event("unpayable")
        return
    fast, slow, calls = both
    event("one assignment" if calls == 1 else "assigned again")
    assert fast == slow, case
    cost, sources, pool, life = case
    check_plan(fast, cost, sources, pool=pool, life=life)


def _src(pid: str, *alts: str, **kw: object) -> ManaSource:
    return ManaSource(pid, 0, tuple(tuple(a) for a in alts), **kw)  # type: ignore[arg-type]


def test_load_board_is_assigned_once() -> None:
    """bench/load.sh's board: Llanowar Elves, two Forests, Sol Ring, Reflecting Pool and Exotic Orchard
    (as sources, the opponent's Island giving the Orchard {U}), {2}{G}{G}: Forests and Sol Ring pay,
    the rest is unused and free, and is dropped without a second assignment."""
    sources = (
        _src("elves", "G"),
        _src("f1", "G"),
        _src("f2", "G"),
        _src("pool", "G"),  # Reflecting Pool: what the Forests could produce
        _src("sol", "CC"),
        _src("orchard", "U"),
    )
    both = _both((ManaCost.parse("{2}{G}{G}"), sources, ManaCost.parse(""), 20))
    assert both is not None
    fast, slow, calls = both
    assert (fast, calls) == (slow, 1)
    assert len(fast.steps) == 3


def test_a_dropped_unit_that_reorders_the_slots_is_assigned_again() -> None:
    """{G}{U/R}: the first assignment's greedy start serves the less supplied slot first. With the
    unused, consuming {G} source counted, {U/R} (2 units) goes before {G} (3): the Orchard-like G/U
    land pays {U/R}. Without it they tie and {G} (the earlier slot) goes first, taking that land: the
    plan differs, so the shortcut must not be taken (``flow.same_flow_with_less``)."""
    sources = (
        _src("gu", "G", "U"),
        _src("pool", *"WUBRG"),
        # a consuming {G} source (it sacrifices itself: assigned last, CR 118.3), unused
        _src("petal", "G", tokens=frozenset({"leaves:petal"})),
    )
    case = (ManaCost.parse("{G}{U/R}"), sources, ManaCost.parse(""), 20)
    both = _both(case)
    assert both is not None
    fast, slow, calls = both
    assert fast == slow
    assert calls == 2
    # and the shortcut, forced, would have answered otherwise
    prepared = PaymentSources(sources)._prepared
    found = prepared.solve(check_cost(case[0]), best_life=True)
    assert found is not None
    forced = pytest.MonkeyPatch()
    forced.setattr(payment_render, "same_flow_with_less", lambda *a, **k: True)
    try:
        assert build_plan(prepared, case[0], found) != slow
    finally:
        forced.undo()


def test_a_dropped_life_cost_raises_the_life_left_and_changes_nothing() -> None:
    """A source that costs 1 life and cannot pay (its {C}) is counted, life cost and all, in the first
    assignment: 4 life less 1 leaves one Phyrexian symbol payable by life (CR 107.4f, 119.4), and the
    Forest pays the other. Dropped, it gives that life back: the budget grows to two symbols, but life is
    spent only after every mana, so the same records come out, re-indexed, without a second assignment."""
    sources = (_src("forest", "G"), _src("painful", "C", life_cost=1))
    both = _both((ManaCost.parse("{G/P}{G/P}"), sources, ManaCost.parse(""), 4))
    assert both is not None
    fast, slow, calls = both
    assert (fast, calls) == (slow, 1)
    assert fast.life_paid == 2
    assert [s.permanent for s in fast.steps] == ["forest"]
