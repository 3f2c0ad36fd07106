"""A plan makes no activation with a mana cost that it can do without (issue 41: the search returns a
minimal configuration, so the plan is rendered in one pass).

Activating a mana ability is the player's choice (CR 601.2g), and a plan that taps a Plains to pay an
Azorius Signet's {1} only to spend the Signet's {W} on a {1} taps two permanents where one pays. Held here
against the brute-force reference, which knows nothing of the search: for every activation with a mana
cost in a plan, the plan's other activations cannot pay the cost with the life the plan pays. And the
render's first assignment spends from every such activation, so it is never assigned again for one.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.rules.mana import payment_render
from app.rules.mana.payment import PaymentSources, plan_payment
from app.rules.mana.payment_values import Consumed, ManaSource, PaymentPlan, UnpayableError, check_cost
from app.rules.values.costs import ManaCost
from tests.rules.mana.payment_bruteforce import brute_min_life, check_plan
from tests.rules.mana.test_payment_properties import SYMBOLS, boards, color, pair
from tests.rules.mana.test_payment_render import wide_boards

Case = tuple[ManaCost, tuple[ManaSource, ...], ManaCost, int]


def _plan_sources(plan: PaymentPlan, sources: tuple[ManaSource, ...]) -> list[ManaSource]:
    """The listed source each step of ``plan`` activates (a source used once: the first one left with the
    step's permanent and ability that can add what the step adds)."""
    taken: set[int] = set()
    out: list[ManaSource] = []
    for step in plan.steps:
        want = Counter(step.adds)
        i = next(
            i
            for i, s in enumerate(sources)
            if i not in taken
            and (s.permanent, s.ability) == (step.permanent, step.ability)
            and any(Counter(o) == want for o in s.outputs)
        )
        taken.add(i)
        out.append(sources[i])
    return out


@st.composite
def costed_boards(draw: st.DrawFn) -> Case:
    """Boards of up to 4 permanents, most with an activation that costs mana (Signets, filter lands, a
    converter with no {T}) beside lands and a Sol Ring, so that plans often could use one they need not."""
    sources: list[ManaSource] = []
    for i in range(draw(st.integers(1, 4))):
        pid = f"p{i}"
        kind = draw(st.sampled_from(["basic", "dual", "sol", "signet", "signet", "filter", "converter"]))
        c = draw(color)
        a, b = draw(pair)
        if kind == "basic":
            sources.append(ManaSource(pid, 0, ((c,),)))
        elif kind == "dual":
            sources.append(ManaSource(pid, 0, ((a,), (b,))))
        elif kind == "sol":
            sources.append(ManaSource(pid, 0, (("C", "C"),)))
        elif kind == "signet":
            sources.append(ManaSource(pid, 0, ((a, b),), activation_cost=ManaCost.parse("{1}")))
        elif kind == "filter":
            sources.append(ManaSource(pid, 0, (("C",),)))
            alts = ((a, a), (a, b), (b, b))
            sources.append(ManaSource(pid, 1, alts, activation_cost=ManaCost.parse(f"{{{a}/{b}}}")))
        else:
            sources.append(
                ManaSource(pid, 0, tuple((t,) for t in "WUBRG"), activation_cost=ManaCost.parse("{1}"),
                           uses_permanent=False)
            )  # fmt: skip
    cost = ManaCost.parse("".join(draw(st.lists(st.sampled_from(SYMBOLS), max_size=4))))
    return cost, tuple(sources), ManaCost.parse("{0}"), draw(st.integers(0, 5))


def _costed(step_cost: ManaCost | None) -> bool:
    return step_cost is not None and not step_cost.is_zero


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(boards(), costed_boards()))
def test_no_costed_activation_of_a_plan_can_be_left_out(case: Case) -> None:
    cost, sources, pool, life = case
    try:
        plan = plan_payment(cost, sources, pool=pool, life=life)
    except UnpayableError:
        event("unpayable")
        return
    check_plan(plan, cost, sources, pool=pool, life=life)
    used = _plan_sources(plan, sources)
    costed = [k for k, step in enumerate(plan.steps) if _costed(step.activation_cost)]
    event(f"{len(costed)} costed activations in the plan")
    for k in costed:
        others = tuple(s for j, s in enumerate(used) if j != k)
        least = brute_min_life(cost, others, pool=pool, life=life)
        assert least is None or least > plan.life_paid, (case, plan.steps[k])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(boards(), wide_boards(), costed_boards()))
def test_the_first_assignment_spends_from_every_costed_activation(case: Case) -> None:
    """``build_plan``'s first assignment over the search's configuration: every activation with a mana cost
    is spent from (only free ones may be left unused, which the render drops by re-indexing)."""
    cost, sources, pool, life = case
    prepared = PaymentSources(sources, pool=pool, life=life)._prepared
    found = prepared.solve(check_cost(cost), best_life=True)
    if found is None:
        return
    # The configuration's life and {2/X} choices are its own (a minimal one's, not the search's first).
    chosen = found.free + found.ordered
    check = prepared._node(cost, chosen, len(found.ordered), len(prepared.batches))
    assert check == (found.life, found.monos)
    free = sorted([(g, prepared.groups[g][0]) for g in prepared.base] + found.free, key=lambda c: c[0])
    done = payment_render._assign(prepared, cost, free, list(found.ordered), found.monos)
    assert done is not None
    used = {p.step for p in done.matching.paid if p.step is not None}
    event(f"{len(found.ordered)} costed activations")
    assert all(len(free) + k in used for k in range(len(found.ordered))), case


def _signet_board() -> tuple[ManaSource, ...]:
    """A Plains ({T}: Add {W}) and an Azorius Signet ({1}, {T}: Add {W}{U}), as the sources list them."""
    return (
        ManaSource("plains", 0, (("W",),)),
        ManaSource("signet", 0, (("W", "U"),), activation_cost=ManaCost.parse("{1}")),
    )


def test_the_signet_stays_untapped_when_the_plains_pays() -> None:
    plan = plan_payment(ManaCost.parse("{1}"), _signet_board())
    assert [(s.permanent, s.adds) for s in plan.steps] == [("plains", ("W",))]


def test_the_signet_is_activated_when_its_mana_is_needed() -> None:
    """{W}{U}: the Plains' {W} pays the Signet's {1} (CR 605.3a: mana from an earlier activation), the
    Signet's {W}{U} pays the spell."""
    plan = plan_payment(ManaCost.parse("{W}{U}"), _signet_board())
    assert [(s.permanent, s.adds) for s in plan.steps] == [("plains", ("W",)), ("signet", ("W", "U"))]
    assert [(p.symbol, p.target, p.step) for p in plan.payments] == [
        ("{W}", None, 1),
        ("{U}", None, 1),
        ("{1}", 1, 0),
    ]


def test_an_activation_kept_for_another_goes_once_that_one_is_gone() -> None:
    """{G} with a Forest, an Azorius Signet and a converter ({1}: Add one mana of any color). With the
    Signet activated, the converter is needed (the Signet's {W}{U} pays no {G}); with the converter, the
    Signet is not; and once the Signet is gone, the Forest alone pays: the plan taps the Forest only."""
    sources = (
        ManaSource("forest", 0, (("G",),)),
        ManaSource("signet", 0, (("W", "U"),), activation_cost=ManaCost.parse("{1}")),
        ManaSource(
            "converter", 0, tuple((t,) for t in "WUBRG"), activation_cost=ManaCost.parse("{1}"),
            uses_permanent=False,
        ),
    )  # fmt: skip
    plan = plan_payment(ManaCost.parse("{G}"), sources)
    assert [(s.permanent, s.adds) for s in plan.steps] == [("forest", ("G",))]


def test_one_costed_activation_is_preferred_to_two() -> None:
    """{W}{U} with two Wastes, an Azorius Signet, and two rocks "{1}, {T}: Add {W}" and "{1}, {T}: Add {U}":
    a Wastes into the Signet pays it with one activation that costs mana; the two rocks, each fed a Wastes,
    pay it with two. The search tries leaving each such source unused first, so the first paying leaf it
    meets is the two rocks'; it must go on to the Signet's."""
    sources = (
        ManaSource("wastes-1", 0, (("C",),)),
        ManaSource("wastes-2", 0, (("C",),)),
        ManaSource("signet", 0, (("W", "U"),), activation_cost=ManaCost.parse("{1}")),
        ManaSource("white-rock", 0, (("W",),), activation_cost=ManaCost.parse("{1}")),
        ManaSource("blue-rock", 0, (("U",),), activation_cost=ManaCost.parse("{1}")),
    )
    plan = plan_payment(ManaCost.parse("{W}{U}"), sources)
    assert sorted(s.permanent for s in plan.steps if _costed(s.activation_cost)) == ["signet"]
    assert len(plan.steps) == 2


def test_a_source_another_could_tap_is_still_left_unused_when_not_needed() -> None:
    """A Signet that a Springleaf Drum could tap ({T}, Tap an untapped creature you control: Add one mana of
    any color; here the Signet stands for the tapped permanent) is branched on with its activation first
    (its {T} is contested, CR 118.3), so the search's first path activates it. {1} with a Plains: the
    Plains pays alone, and the plan must not feed the Signet."""
    sources = (
        ManaSource("plains", 0, (("W",),)),
        ManaSource("signet", 0, (("W", "U"),), activation_cost=ManaCost.parse("{1}")),
        ManaSource(
            "drum", 0, tuple((t,) for t in "WUBRG"), tokens=frozenset({"tap:signet"}),
            consumes=Consumed(taps=("signet",)),
        ),
    )  # fmt: skip
    plan = plan_payment(ManaCost.parse("{1}"), sources)
    assert not [s for s in plan.steps if _costed(s.activation_cost)], plan.steps
    assert len(plan.steps) == 1
