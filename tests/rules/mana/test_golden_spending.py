"""Golden spending cases (``tests/golden/payments/spending_rules.yaml``): the spell's own spending rules
(CR 106.6, 601.2h) and "as though" effects (CR 609.4b) applied to a payment, as ``payments/plan`` applies
them (``spending.spending_for``, ``spending.only_produced_by``). Each case quotes its deciding sentence and
names its rule; expectations are worked out by hand from them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_values import UnpayableError
from app.rules.mana.production import analyze_board
from app.rules.mana.restrictions import Casting
from app.rules.mana.sources import payment_inputs
from app.rules.mana.spending import only_produced_by, spending_for
from app.rules.values.costs import ManaCost
from tests.rules.mana.test_golden_activation import _board, _named

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "payments" / "spending_rules.yaml"
CASES = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["cases"]


def test_at_least_twenty_real_cards() -> None:
    names = {c["spell"] for c in CASES} | {p["card"] for c in CASES for p in c["board"]}
    assert len(names) >= 20, sorted(names)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_spending(case: dict[str, Any]) -> None:
    assert case.get("rule") and case.get("quote"), "every case quotes its sentence and names its rule"
    board = _board(case)
    analysis = analyze_board(board)
    face = _named(case["spell"]).front
    for card, sentences in case["quote"].items():
        text = _named(card).front.oracle_text
        assert all(s in text for s in sentences), (card, sentences)
    cost = ManaCost.parse(case["cost"])
    x = case.get("x", 0)
    x_spent = x * (face.mana_cost.variables.count("X") if face.mana_cost is not None else 0)
    alternative = case.get("method") == "alternative"
    casting = Casting(cast_from=case["cast_from"]) if "cast_from" in case else None
    spending = spending_for(cost, analysis.state.states, "you", face, casting, x_spent, alternative)
    inputs = payment_inputs(board, "you", cost, face, analysis)
    sources = inputs.sources
    if spending.produced_by is not None:
        sources = only_produced_by(sources, analysis.state.states, spending.produced_by)
    assert bool(spending.warnings) is bool(case.get("warned")), spending.warnings
    payer = PaymentSources(sources, life=board.player("you").life)
    if not case["payable"]:
        with pytest.raises(UnpayableError) as err:
            payer.plan(spending.paid)
        assert str(err.value.short) == case["short"]
        assert str(payer.shortfall(spending.paid)) == case["short"]
        return
    plan = payer.plan(spending.paid)
    assert len(plan.payments) == cost.mana_value  # one payment per mana of the cost (no hybrid here)
    if "spent" in case:
        assert dict(Counter(p.mana for p in plan.payments)) == case["spent"], plan.payments
    for pid in case.get("paid_by", ()):
        assert pid in {s.permanent for s in plan.steps}, plan.steps
