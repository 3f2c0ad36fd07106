"""The payment solver on hand-made boards: each kind of symbol, each kind of source, life, tie-breaks."""

from __future__ import annotations

import pytest

from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.mana.payment import can_pay, plan_payment, shortfall, verify_payment
from app.rules.mana.payment_values import ManaSource, PaymentPlan, UnpayableError
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import COLORS
from tests.rules.mana.payment_bruteforce import brute_min_life, check_plan


def src(pid: str, *alts: str, ability: int = 0, **kw: object) -> ManaSource:
    return ManaSource(pid, ability, tuple(tuple(a) for a in alts), **kw)  # type: ignore[arg-type]


def basic(pid: str, color: str) -> ManaSource:
    return src(pid, color)


def filter_land(pid: str, a: str, b: str) -> list[ManaSource]:
    """``{T}: Add {C}.`` and ``{a/b}, {T}: Add {a}{a}, {a}{b}, or {b}{b}.``"""
    hybrid = ManaCost.parse(f"{{{a}/{b}}}")
    return [src(pid, "C"), src(pid, a + a, a + b, b + b, ability=1, activation_cost=hybrid)]


def plan(cost: str, sources: list[ManaSource], **kw: object) -> PaymentPlan:
    """Plan, then replay the plan independently of the solver."""
    c = ManaCost.parse(cost)
    p = plan_payment(c, sources, **kw)  # type: ignore[arg-type]
    check_plan(p, c, tuple(sources), **kw)  # type: ignore[arg-type]
    return p


def tapped(p: PaymentPlan) -> list[str]:
    return [s.permanent for s in p.steps]


def test_basics_pay_colored_and_generic() -> None:
    sources = [basic("forest-1", "G"), basic("forest-2", "G"), basic("mountain", "R"), basic("plains", "W")]
    p = plan("{2}{G}{G}", sources)
    assert sorted(tapped(p)) == ["forest-1", "forest-2", "mountain", "plains"]
    assert p.life_paid == 0 and p.from_pool == ()
    assert not can_pay(ManaCost.parse("{G}{G}{G}"), sources)
    assert shortfall(ManaCost.parse("{G}{G}{G}"), sources) == ManaCost.parse("{G}")
    assert shortfall(ManaCost.parse("{4}{G}"), sources) == ManaCost.parse("{1}")


def test_greedy_trap_is_avoided() -> None:
    """A greedy payer spends the dual on {W} first and then cannot pay {U}; the flow reassigns."""
    sources = [src("dual", "W", "U"), basic("plains", "W")]
    p = plan("{U}{W}", sources)
    adds = {s.permanent: s.adds for s in p.steps}
    assert adds == {"dual": ("U",), "plains": ("W",)}


def test_colorless_symbol_needs_colorless_mana() -> None:
    """CR 107.4c: {C} is paid only with colorless mana; generic takes any."""
    sources = [basic("forest", "G"), src("wastes", "C")]
    assert can_pay(ManaCost.parse("{C}{1}"), sources)
    assert not can_pay(ManaCost.parse("{C}{C}"), sources)
    assert shortfall(ManaCost.parse("{C}{C}"), sources) == ManaCost.parse("{C}")


def test_snow_symbol_needs_mana_from_a_snow_source() -> None:
    """CR 107.4h: {S} is paid with mana from a snow source; pool mana is not."""
    sources = [basic("forest", "G"), src("snow-forest", "G", snow=True)]
    p = plan("{S}{G}", sources)
    pays = {pay.symbol: p.steps[pay.step].permanent for pay in p.payments if pay.step is not None}
    assert pays == {"{S}": "snow-forest", "{G}": "forest"}
    assert not can_pay(ManaCost.parse("{S}{S}"), sources)
    assert not can_pay(ManaCost.parse("{S}"), [], pool=ManaCost.parse("{G}"))


def test_hybrid_and_monocolored_hybrid() -> None:
    """CR 107.4e: {W/U} one of its colors; {2/W} one white mana or two of any type."""
    assert can_pay(ManaCost.parse("{W/U}"), [basic("island", "U")])
    assert not can_pay(ManaCost.parse("{W/U}"), [basic("swamp", "B")])
    two = [basic("swamp", "B"), basic("forest", "G")]
    p = plan("{2/W}", two)
    assert {pay.symbol for pay in p.payments} == {"{2/W}"} and len(p.payments) == 2
    assert len(plan("{2/W}", [basic("plains", "W"), *two]).steps) == 1
    assert not can_pay(ManaCost.parse("{2/W}"), [basic("swamp", "B")])
    assert can_pay(ManaCost.parse("{C/W}{C/W}"), [src("wastes", "C"), basic("plains", "W")])


def test_phyrexian_pays_mana_before_life() -> None:
    sources = [basic("swamp", "B")]
    assert plan("{B/P}", sources).life_paid == 0
    p = plan("{B/P}{B/P}", sources)
    assert p.life_paid == 2 and sum(1 for pay in p.payments if pay.mana is None) == 1
    assert plan("{G/U/P}", [], life=20).life_paid == 2


def test_life_payment_needs_enough_life() -> None:
    """CR 119.4: paying 2 life at 2 life is allowed, at 1 it is not; payments add up."""
    assert plan("{W/P}", [], life=2).life_paid == 2
    assert not can_pay(ManaCost.parse("{W/P}"), [], life=1)
    assert not can_pay(ManaCost.parse("{W/P}{W/P}"), [], life=3)
    with pytest.raises(UnpayableError) as err:
        verify_payment(ManaCost.parse("{W/P}"), [], life=1)
    # API 1.1 ``short`` is mana, never the Phyrexian symbol: one {W} added to the pool pays it.
    assert err.value.short == ManaCost.parse("{W}")
    assert err.value.rule == "601.2h"
    # A source's life cost comes out of the same total.
    pain = [src("pain", "C"), src("pain", "W", "B", ability=1, life_cost=1)]
    assert plan("{W}", pain, life=1).life_paid == 1
    assert not can_pay(ManaCost.parse("{W}{G/P}"), pain, life=2)
    assert plan("{W}{G/P}", pain, life=3).life_paid == 3


def test_pool_mana_is_spent_first() -> None:
    p = plan("{1}{G}", [basic("forest", "G"), basic("mountain", "R")], pool=ManaCost.parse("{G}"))
    assert p.from_pool == ("G",) and len(p.steps) == 1
    with pytest.raises(InvalidChoiceError):
        can_pay(ManaCost.parse("{1}"), [], pool=ManaCost.parse("{2}"))


def test_several_mana_at_once() -> None:
    sol = src("sol-ring", "CC")
    lotus = src("lotus", *(c * 3 for c in COLORS))
    p = plan("{3}{U}", [sol, lotus, basic("forest", "G")])
    adds = {s.permanent: s.adds for s in p.steps}
    assert adds["lotus"] == ("U", "U", "U")
    assert not can_pay(ManaCost.parse("{W}{U}"), [lotus])
    assert can_pay(ManaCost.parse("{W}{W}{W}{C}{C}"), [lotus, sol])
    # A source of two mana is tapped for both before a second land is tapped.
    assert tapped(plan("{2}", [basic("mountain", "R"), sol])) == ["sol-ring"]


def test_filter_lands_need_mana_made_before_them() -> None:
    """CR 605.3a / 602.2b: a filter's {W/U} comes from mana already made, never its own."""
    lone = filter_land("filter", "W", "U")
    assert not can_pay(ManaCost.parse("{U}"), lone)
    assert can_pay(ManaCost.parse("{C}"), lone)
    two = filter_land("f1", "W", "U") + filter_land("f2", "W", "U")
    assert not can_pay(ManaCost.parse("{U}"), two)  # each needs the other's mana first: a cycle
    board = [basic("plains", "W"), *two]
    p = plan("{U}{U}{U}", board)
    assert p.steps[0].permanent == "plains"
    assert not can_pay(ManaCost.parse("{U}{U}{U}{U}"), board)
    # A chain across colour pairs: Swamp → U/B filter → W/U filter.
    chain = [basic("swamp", "B"), *filter_land("ub", "U", "B"), *filter_land("wu", "W", "U")]
    assert can_pay(ManaCost.parse("{W}{W}{U}"), chain)
    assert brute_min_life(ManaCost.parse("{W}{W}{U}"), tuple(chain)) == 0


def test_mana_costing_abilities_paid_from_same_board() -> None:
    signet = src("signet", "WU", activation_cost=ManaCost.parse("{1}"))
    p = plan("{W}{U}", [basic("mountain", "R"), signet])
    assert tapped(p) == ["mountain", "signet"]
    assert p.steps[1].activation_cost == ManaCost.parse("{1}")
    assert not can_pay(ManaCost.parse("{W}{U}"), [signet])
    assert can_pay(ManaCost.parse("{W}{U}"), [signet], pool=ManaCost.parse("{C}"))


def test_one_tap_ability_per_permanent() -> None:
    """CR 602.5b: a permanent tapped for one ability cannot pay {T} for another."""
    pain = [src("pain", "C"), src("pain", "W", ability=1, life_cost=1)]
    assert not can_pay(ManaCost.parse("{C}{W}"), pain)
    converter = src("converter", *COLORS, activation_cost=ManaCost.parse("{1}"), uses_permanent=False)
    assert can_pay(ManaCost.parse("{G}"), [src("wastes", "C"), converter])


def test_variables_must_be_chosen_and_infinity_is_never_payable() -> None:
    with pytest.raises(IllegalError) as err:
        can_pay(ManaCost.parse("{X}{G}"), [basic("forest", "G")])
    assert err.value.rule == "107.3a"
    assert can_pay(ManaCost.parse("{X}{G}").with_variables(x=1), [basic("f1", "G"), basic("f2", "G")])
    assert not can_pay(ManaCost.parse("{∞}"), [src("sol", "CC")])
    assert shortfall(ManaCost.parse("{∞}{G}"), [basic("forest", "G")]) == ManaCost.parse("{∞}")


def test_half_mana_takes_a_whole_mana_of_its_color() -> None:
    assert can_pay(ManaCost.parse("{HW}"), [basic("plains", "W")])
    assert not can_pay(ManaCost.parse("{HW}"), [basic("forest", "G")])
    assert can_pay(ManaCost.parse("{½}"), [basic("forest", "G")])
    # no half mana is ever added (CR 107.4 half symbols are Un-cards'): a whole {W} pays {HW}
    assert shortfall(ManaCost.parse("{HW}{G}"), [basic("forest", "G")]) == ManaCost.parse("{W}")


def test_zero_cost_needs_nothing() -> None:
    p = plan("{0}", [basic("forest", "G")])
    assert p.steps == () and p.payments == ()


def test_shortfall_prefers_generic_and_is_least() -> None:
    sources = [basic("forest", "G"), basic("swamp", "B")]
    # {1}{G} and {G}{G} would both leave a payable rest; {1} is the less demanding answer.
    assert shortfall(ManaCost.parse("{1}{G}{G}{B}"), sources) == ManaCost.parse("{1}{G}")
    assert shortfall(ManaCost.parse("{2}{G}"), sources) == ManaCost.parse("{1}")
    assert shortfall(ManaCost.parse("{U}{U}"), sources) == ManaCost.parse("{U}{U}")
    assert shortfall(ManaCost.parse("{1000000}"), sources) == ManaCost.parse("{999998}")
    assert shortfall(ManaCost.parse("{G}"), sources) == ManaCost.zero()


def test_short_is_mana_never_hybrid_nor_phyrexian() -> None:
    """API 1.1: the fewest mana added to the pool that pays, then the fewest of a particular type."""
    forest = [basic("forest", "G")]
    # {2/W} with a Forest: one more mana of any type makes two for the {2} half (CR 107.4e).
    assert shortfall(ManaCost.parse("{2/W}"), forest) == ManaCost.parse("{1}")
    assert shortfall(ManaCost.parse("{2/W}"), []) == ManaCost.parse("{W}")
    # {B/P} at 1 life (CR 119.4: 2 life can't be paid): one {B}.
    assert shortfall(ManaCost.parse("{B/P}"), [], life=1) == ManaCost.parse("{B}")
    assert shortfall(ManaCost.parse("{R/P}{1}"), forest, life=0) == ManaCost.parse("{R}")
    # a hybrid needs one of its colors: written as its first color, never {W/U}
    assert shortfall(ManaCost.parse("{W/U}"), forest) == ManaCost.parse("{W}")
    # {C} needs colorless mana in particular
    assert shortfall(ManaCost.parse("{C}{1}"), forest) == ManaCost.parse("{C}")


def test_most_flexible_sources_stay_untapped() -> None:
    sources = [src("any", *COLORS), src("dual", "G", "W"), basic("forest", "G")]
    assert tapped(plan("{G}", sources)) == ["forest"]
    assert sorted(tapped(plan("{1}{G}", sources))) == ["dual", "forest"]


def test_deterministic() -> None:
    sources = [src("a", "W", "U"), src("b", "U", "B"), src("c", *COLORS), *filter_land("f", "B", "R")]
    cost = ManaCost.parse("{1}{U}{B}")
    assert plan_payment(cost, sources) == plan_payment(cost, sources)


def test_large_board_large_cost() -> None:
    sources = [basic(f"l{i}", COLORS[i % 5]) for i in range(60)] + [src(f"s{i}", "CC") for i in range(10)]
    cost = ManaCost.parse("{14}{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}")
    p = plan(str(cost), sources)
    assert len(p.payments) == 24
    big = ManaCost.parse("{W}" * 13)
    assert not can_pay(big, sources)
    assert shortfall(big, sources) == ManaCost.parse("{W}")


HOSTILE = "{2/W}{2/U}{2/B}{2/R}{2/G}"  # issue 15: a search over {2/X} splits took a minute for six of these


def test_monocolored_hybrid_is_decided_in_the_flow_not_searched() -> None:
    wastes = [src(f"w{i}", "C") for i in range(60)]
    p = plan(HOSTILE * 6, wastes)
    assert len(p.steps) == 60 and all(pay.mana == "C" for pay in p.payments)
    assert not can_pay(ManaCost.parse(HOSTILE * 6), wastes[:45])
    assert not can_pay(ManaCost.parse(HOSTILE * 40), wastes)
    # Each {2/X} takes one mana of X where there is one, two of any type where not.
    mixed = [basic(f"c{i}", c) for i, c in enumerate(COLORS * 4)] + wastes[:40]
    p = plan(HOSTILE * 8, mixed)
    assert len(p.steps) == 60 and sum(1 for pay in p.payments if pay.mana == "C") == 40
    assert not can_pay(ManaCost.parse(HOSTILE * 8 + "{W}"), mixed)


def test_monocolored_hybrid_with_phyrexian_life_and_pool() -> None:
    # {2/G}{G/P}: a Forest pays {2/G}, 2 life the Phyrexian symbol; a second Forest spares the life.
    assert plan("{2/G}{G/P}", [basic("f1", "G")], life=2).life_paid == 2
    assert plan("{2/G}{G/P}", [basic("f1", "G"), basic("f2", "G")], life=2).life_paid == 0
    assert plan("{2/G}{G/P}", [src("sol", "CC")], pool=ManaCost.parse("{G}"), life=1).life_paid == 0
    assert not can_pay(ManaCost.parse("{2/G}{G/P}"), [src("sol", "CC")], life=1)


@pytest.mark.parametrize("life", [0, -1, -7])
def test_no_life_can_be_paid_at_zero_or_less(life: int) -> None:
    """CR 119.4: a player can pay 0 life at any total, more only with at least that much life."""
    assert plan("{0}", [], life=life).steps == ()
    assert plan("{B/P}", [basic("swamp", "B")], life=life).life_paid == 0
    with pytest.raises(UnpayableError):
        verify_payment(ManaCost.parse("{B/P}{G}"), [basic("forest", "G")], life=life)
    assert not can_pay(ManaCost.parse("{G}"), [src("pain", "G", life_cost=1)], life=life)
