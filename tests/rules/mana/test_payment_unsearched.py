"""``plan_unsearched``: a board with nothing to search (no batch: every activation has its one way, as a
board of lands whose only cost is {T}) is planned with one assignment, without the search. Held here to the
plan the search and ``build_plan`` give, value for value, and to the same unpayable answers, on random
boards (hypothesis): plain ones (every source adds fixed mana for {T}, some of them several mana, snow or
restricted to the spell) and the solver's usual random boards, where the shortcut applies when it may."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_graph import slots_only
from app.rules.mana.payment_render import build_plan, plan_unsearched
from app.rules.mana.payment_values import ManaSource, check_cost
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import COLORS
from tests.rules.mana.payment_bruteforce import check_plan
from tests.rules.mana.test_payment_properties import SYMBOLS, boards
from tests.rules.mana.test_payment_render import wide_boards

Case = tuple[ManaCost, tuple[ManaSource, ...], ManaCost, int]
color = st.sampled_from(COLORS)


@st.composite
def plain_permanent(draw: st.DrawFn, pid: str) -> ManaSource:
    """One permanent with one mana ability whose only cost is {T}: a basic, a dual, a five-color land,
    Wastes, a snow land, Sol Ring, a Workshop's restricted {C}{C}{C}."""
    types = draw(st.lists(st.sampled_from([*COLORS, "C"]), min_size=1, max_size=5, unique=True))
    kind = draw(st.sampled_from(["one", "one", "one", "snow", "two", "three_only"]))
    if kind == "two":
        return ManaSource(pid, 0, ((types[0], types[0]),))
    if kind == "three_only":
        return ManaSource(pid, 0, (("C", "C", "C"),), spell_only=True)
    return ManaSource(pid, 0, tuple((t,) for t in types), snow=kind == "snow")


@st.composite
def plain_boards(draw: st.DrawFn) -> Case:
    n = draw(st.integers(0, 12))
    sources = tuple(draw(plain_permanent(f"p{i}")) for i in range(n))
    cost = ManaCost.parse("".join(draw(st.lists(st.sampled_from(SYMBOLS), max_size=8))))
    pool = ManaCost.parse("".join(draw(st.lists(st.sampled_from(["{W}", "{G}", "{C}"]), max_size=2))))
    return cost, sources, pool, draw(st.integers(0, 8))


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(plain_boards(), boards(), wide_boards()))
def test_unsearched_plan_is_the_searched_plan(case: Case) -> None:
    cost, sources, pool, life = case
    prepared = PaymentSources(sources, pool=pool, life=life)._prepared
    if not (prepared.unsearched and slots_only(cost)):
        event("searched")
        return
    found = prepared.solve(check_cost(cost), best_life=True)
    fast = plan_unsearched(prepared, cost)
    if found is None:
        event("unpayable")
        assert fast is None, case
        return
    event("payable")
    assert fast == build_plan(prepared, cost, found), case
    check_plan(fast, cost, sources, pool=pool, life=life)


def test_the_load_board_is_unsearched() -> None:
    """bench/load.sh's board as sources (Forests, Elves, Sol Ring, Reflecting Pool, Exotic Orchard)."""
    sources = tuple(
        ManaSource(pid, 0, ((t,),) if len(t) == 1 else (tuple(t),))
        for pid, t in (
            ("elves", "G"),
            ("f1", "G"),
            ("f2", "G"),
            ("pool", "G"),
            ("sol", "CC"),
            ("orchard", "U"),
        )
    )
    payer = PaymentSources(sources)
    prepared, cost = payer._prepared, ManaCost.parse("{2}{G}{G}")
    assert prepared.unsearched
    found = prepared.solve(cost, best_life=True)
    assert found is not None
    plan = payer.plan(cost)
    assert plan == build_plan(prepared, cost, found)
    assert len(plan.steps) == 3
