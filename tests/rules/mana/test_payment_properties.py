"""The payment solver against the brute-force reference on small random boards (hypothesis).

On every board: the solver finds a plan exactly when brute force does; every plan replays legally and pays
no more life than the least brute force finds; when nothing pays, ``shortfall`` is the fewest mana (then
fewest typed) that brute force finds added to the pool pays.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.mana.payment import can_pay, plan_payment, shortfall, verify_payment
from app.rules.mana.payment_values import Consumed, ManaSource, UnpayableError
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import COLORS, ManaSymbol, SymbolKind
from tests.rules.mana.payment_bruteforce import (
    brute_can_pay,
    brute_min_life,
    brute_short_size,
    check_plan,
)

color = st.sampled_from(COLORS)
pair = st.lists(color, min_size=2, max_size=2, unique=True)


def _alts(*alts: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(a) for a in alts)


@st.composite
def permanent(draw: st.DrawFn, pid: str) -> list[ManaSource]:
    """One permanent's mana abilities, drawn from the kinds real boards hold."""
    kind = draw(
        st.sampled_from(
            [
                "basic",
                "wastes",
                "dual",
                "any",
                "snow",
                "sol",
                "lotus",
                "filter",
                "signet",
                "pain",
                "converter",
                "cavern",
                "workshop",
            ]
        )
    )
    c = draw(color)
    a, b = draw(pair)
    if kind == "basic":
        return [ManaSource(pid, 0, _alts(c))]
    if kind == "wastes":
        return [ManaSource(pid, 0, _alts("C"))]
    if kind == "dual":
        return [ManaSource(pid, 0, _alts(a, b))]
    if kind == "any":
        return [ManaSource(pid, 0, _alts(*COLORS))]
    if kind == "snow":
        return [ManaSource(pid, 0, _alts(c), snow=True)]
    if kind == "sol":
        return [ManaSource(pid, 0, _alts("CC"))]
    if kind == "lotus":
        return [ManaSource(pid, 0, _alts(*(x * 3 for x in COLORS)))]
    if kind == "filter":
        hybrid = ManaCost.parse(f"{{{a}/{b}}}")
        return [
            ManaSource(pid, 0, _alts("C")),
            ManaSource(pid, 1, _alts(a + a, a + b, b + b), activation_cost=hybrid),
        ]
    if kind == "signet":
        return [ManaSource(pid, 0, _alts(a + b), activation_cost=ManaCost.parse("{1}"))]
    if kind == "pain":
        return [ManaSource(pid, 0, _alts("C")), ManaSource(pid, 1, _alts(a, b), life_cost=1)]
    if kind == "cavern":  # {T}: Add {C}. {T}: Add one mana of any color (restricted, the spell meets it).
        return [ManaSource(pid, 0, _alts("C")), ManaSource(pid, 1, _alts(*COLORS), spell_only=True)]
    if kind == "workshop":  # {T}: Add {C}{C}{C} (restricted, the spell meets it).
        return [ManaSource(pid, 0, _alts("CCC"), spell_only=True)]
    # A repeatable converter with no {T}: "{1}: Add one mana of any color", listed once.
    return [ManaSource(pid, 0, _alts(*COLORS), activation_cost=ManaCost.parse("{1}"), uses_permanent=False)]


SYMBOLS = [
    "{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{S}", "{W/U}", "{B/G}", "{2/W}", "{2/R}",
    "{C/G}", "{W/P}", "{B/P}", "{G/U/P}", "{HW}", "{½}",
]  # fmt: skip


@st.composite
def boards(draw: st.DrawFn) -> tuple[ManaCost, tuple[ManaSource, ...], ManaCost, int]:
    n = draw(st.integers(0, 4))
    sources: list[ManaSource] = []
    for i in range(n):
        sources.extend(draw(permanent(f"p{i}")))
    cost = ManaCost.parse("".join(draw(st.lists(st.sampled_from(SYMBOLS), max_size=4))))
    pool = ManaCost.parse("".join(draw(st.lists(st.sampled_from(["{W}", "{G}", "{C}"]), max_size=2))))
    life = draw(st.integers(0, 5))
    # Costs that use other permanents (CR 118.3), listed as sources/sources.py lists them: an Altar
    # sacrificing each permanent (no {T}: one activation per permanent), a Drum tapping one ({T} and the
    # other's tap), a Petal sacrificing itself after tapping, a Prism removing counters (one listing per
    # counter, no {T}).
    # (two on boards of up to two other permanents, one with three: the brute force is exponential)
    for k in range(draw(st.integers(0, 2 if n <= 2 else 1 if n <= 3 else 0))):
        kind = draw(st.sampled_from(["altar", "drum", "petal", "prism", "rangers"]))
        pid = f"x{k}"
        others = [f"p{i}" for i in range(n)]
        c = draw(color)
        if kind == "altar":
            sources.extend(
                ManaSource(pid, 0, _alts("CC"), uses_permanent=False, tokens=frozenset({"leaves:" + o}),
                           activation=j, consumes=Consumed(sacrifices=(o,)))
                for j, o in enumerate(others)
            )  # fmt: skip
        elif kind == "drum":
            sources.extend(
                ManaSource(pid, 0, _alts(*COLORS), tokens=frozenset({"tap:" + o}), activation=j,
                           consumes=Consumed(taps=(o,)))
                for j, o in enumerate(others)
            )  # fmt: skip
        elif kind == "petal":
            sources.append(ManaSource(pid, 0, _alts(*COLORS), tokens=frozenset({"leaves:" + pid})))
            # and an Altar may want it too: one activation of the one Altar per Petal, each numbered as the
            # board's sources number them (consuming_sources: a source is one activation)
            if others:
                altars = sum(1 for s in sources if s.permanent == "x-altar")
                sources.append(
                    ManaSource("x-altar", 0, _alts("CC"), uses_permanent=False, activation=altars,
                               tokens=frozenset({"leaves:" + pid}), consumes=Consumed(sacrifices=(pid,)))
                )  # fmt: skip
        elif kind == "prism":
            sources.extend(
                ManaSource(pid, 0, _alts(*COLORS), uses_permanent=False, activation=j,
                           consumes=Consumed(removes=(("charge", 1),)))
                for j in range(draw(st.integers(1, 2)))
            )  # fmt: skip
        elif len(others) >= 2:  # "Tap two untapped Elves you control": one pair
            pair_ = others[:2]
            sources.append(
                ManaSource(pid, 0, _alts(c), uses_permanent=False,
                           tokens=frozenset("tap:" + o for o in pair_), consumes=Consumed(taps=tuple(pair_)))
            )  # fmt: skip
    return cost, tuple(sources), pool, life


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_solver_agrees_with_brute_force(case: tuple[ManaCost, tuple[ManaSource, ...], ManaCost, int]) -> None:
    try:
        _agrees(case)
    except AssertionError:
        print(case)
        raise


def _agrees(case: tuple[ManaCost, tuple[ManaSource, ...], ManaCost, int]) -> None:
    cost, sources, pool, life = case
    expected = brute_min_life(cost, sources, pool=pool, life=life)
    assert can_pay(cost, sources, pool=pool, life=life) is (expected is not None)
    if expected is not None:
        plan = plan_payment(cost, sources, pool=pool, life=life)
        check_plan(plan, cost, sources, pool=pool, life=life)
        assert plan.life_paid == expected
        verify_payment(cost, sources, pool=pool, life=life)
        assert shortfall(cost, sources, pool=pool, life=life).is_zero
        return
    short = shortfall(cost, sources, pool=pool, life=life)
    # API 1.1: mana only (generic, then W U B R G C, {S} for snow), the fewest, then fewest typed
    assert all(
        s.kind in (SymbolKind.COLORED, SymbolKind.COLORLESS, SymbolKind.SNOW, SymbolKind.INFINITY)
        for s in short.others
    )
    finite = [s for s in short.others if s.kind is not SymbolKind.INFINITY]
    assert (short.generic + len(finite), len(finite)) == brute_short_size(cost, sources, pool=pool, life=life)
    if not short.is_infinite and all(s.kind is not SymbolKind.SNOW for s in finite):
        # and it really pays: the generic part added as {C} (any type would do)
        added = (*pool.others, *[ManaSymbol.parse("{C}")] * short.generic, *finite)
        more = ManaCost((), 0, tuple(added))
        assert brute_can_pay(cost, sources, pool=more, life=life)
    try:
        verify_payment(cost, sources, pool=pool, life=life)
    except UnpayableError as err:
        assert err.short == short
    else:
        raise AssertionError("verify_payment accepted an unpayable cost")
