"""Properties on random valid boards of real cards (``tests/strategies.py``), checked by code independent of
the solver and of the engine's arithmetic:

- every plan the solver gives for a payable cost replays legally and pays the cost exactly, each permanent
  and each mana used once (``payment_bruteforce.check_plan``, written from the rules alone);
- adding a permanent whose only effect is a reduction never raises a spell's total (CR 601.2f: reductions
  only subtract, 118.7);
- Trinisphere floors (its text: "each spell that would cost less than three mana to cast costs three mana
  to cast"): with it untapped, every total's mana value is at least 3, and it never raises a total beyond
  the larger of 3 and what it was.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.casting.engine import total_cost
from app.rules.errors import RulesError
from app.rules.mana.payment import plan_payment
from app.rules.mana.payment_values import UnpayableError
from app.rules.mana.sources import payment_inputs
from app.rules.values.board import Permanent
from app.rules.values.costs import ManaCost
from tests.rules.mana.payment_bruteforce import check_plan
from tests.strategies import REDUCERS, board_bodies, card, costs, rules_board, rules_spell, spell_bodies

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _value(cost: ManaCost) -> float:
    value = cost.mana_value
    assert value is not None  # no {∞} among these cards
    return value


@SETTINGS
@given(board_bodies(), costs)
def test_every_payable_plan_replays(body: dict[str, Any], text: str) -> None:
    board, cost = rules_board(body), ManaCost.parse(text)
    sources = payment_inputs(board, "you", cost, None).sources
    try:
        plan = plan_payment(cost, sources)
    except UnpayableError:
        return
    check_plan(plan, cost, sources)


def _total(board_body: dict[str, Any], spell_body: dict[str, Any], *more: Permanent) -> ManaCost | None:
    try:
        return total_cost(rules_board(board_body, *more), "you", rules_spell(spell_body)).total_cost
    except RulesError:  # a spell the board makes uncastable is no total to compare
        return None


@SETTINGS
@given(board_bodies(), spell_bodies(), st.sampled_from(REDUCERS), st.booleans())
def test_a_reducer_never_raises_a_total(
    board_body: dict[str, Any], spell_body: dict[str, Any], reducer: str, tapped: bool
) -> None:
    before = _total(board_body, spell_body)
    after = _total(board_body, spell_body, Permanent("reducer", card(reducer), "you", tapped=tapped))
    if before is not None and after is not None:
        assert _value(after) <= _value(before), f"{reducer} raised {before} to {after}"


@SETTINGS
@given(board_bodies(), spell_bodies())
def test_trinisphere_floors_at_three(board_body: dict[str, Any], spell_body: dict[str, Any]) -> None:
    before = _total(board_body, spell_body)
    after = _total(board_body, spell_body, Permanent("trinisphere", card("Trinisphere"), "opp"))
    if before is None or after is None:
        return
    assert _value(after) >= 3
    assert _value(after) <= max(3, _value(before))
