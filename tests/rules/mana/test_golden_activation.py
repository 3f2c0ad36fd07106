"""Golden activation-cost cases (``tests/golden/payments/activation_costs.yaml``): real cards whose mana
abilities cost more than {T} and mana, and prohibitions (CR 602.2b, 118.3, 602.5); and
(``spending_and_conditions.yaml``) restricted mana paid for a spell (CR 106.6) and "Activate only if"
conditions (CR 602.5b). Each case quotes its deciding sentence and names its rule; expectations are worked
out by hand from them. A case with ``spell`` pays ``cost`` for casting that card (its restrictions apply).

Every plan found is replayed by ``payment_bruteforce.check_plan`` (each source used as listed, resources
once, nothing acting after it left, every symbol paid with mana of the right type that was there), so a
golden "payable" proves the plan, not only the answer.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.rules.mana.activation_checks import check_activation
from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_values import UnpayableError
from app.rules.mana.production import analyze_board
from app.rules.mana.restrictions import Casting
from app.rules.mana.sources import bare_payment_inputs, payment_inputs
from app.rules.values.board import Board, Choices, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine
from tests.golden_cards import card as bundled_card
from tests.golden_cards import check_quote
from tests.rules.mana.payment_bruteforce import check_plan

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "payments" / "activation_costs.yaml"
SPENDING = GOLDEN.with_name("spending_and_conditions.yaml")
CASES = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["cases"]
SPENDING_CASES = yaml.safe_load(SPENDING.read_text(encoding="utf-8"))["cases"]


def _named(name: str) -> Card:
    return bundled_card(name)


def _inline(spec: dict[str, Any]) -> Card:
    face = Face(spec["name"], None, TypeLine.parse(spec["type_line"]), spec.get("oracle_text", ""))
    return Card(spec["name"], (face,))


def _perm(spec: dict[str, Any]) -> Permanent:
    card = _inline(spec["card"]) if isinstance(spec["card"], dict) else _named(spec["card"])
    counters = tuple((str(k), int(v)) for k, v in (spec.get("counters") or {}).items())
    return Permanent(
        spec["id"],
        card,
        spec.get("controller", "you"),
        tapped=spec.get("tapped", False),
        controlled_since_turn_began=spec.get("since_turn_began", True),
        chosen=Choices(**(spec.get("chosen") or {})),
        counters=counters,
        given=frozenset({"counters"}) if "counters" in spec else frozenset(),
    )


def _board(case: dict[str, Any]) -> Board:
    given = {zone for zone in ("hand", "graveyard") if zone in case}
    you = Player(
        "you",
        life=case.get("life", 20),
        hand=tuple(_named(n) for n in case.get("hand", ())),
        graveyard=tuple(_named(n) for n in case.get("graveyard", ())),
        given=frozenset(given),
    )
    players = (you, Player("opp"))
    return Board(
        tuple(_perm(s) for s in case["board"]), players, active_player=case.get("active_player", "you")
    )


def test_at_least_sixty_real_cards() -> None:
    names = {p["card"] for c in CASES for p in c["board"] if isinstance(p["card"], str)}
    assert len(CASES) >= 60 and len(names) >= 50


def test_spending_cases_cover_both_directions() -> None:
    """Restricted mana (CR 106.6): each restriction is shown paying a spell that meets it and refusing one
    that does not."""
    spent = [c for c in SPENDING_CASES if "spell" in c]
    for card in {p["card"] for c in spent for p in c["board"]}:
        answers = {c["payable"] for c in spent if any(p["card"] == card for p in c["board"])}
        assert answers == {True, False}, card


def _case_cards(case: dict[str, Any]) -> set[str]:
    names = {p["card"] for p in case["board"] if isinstance(p["card"], str)}
    names |= set(case.get("hand", ())) | set(case.get("graveyard", ()))
    return names | ({case["spell"]} if "spell" in case else set())


@pytest.mark.parametrize(
    "case", CASES + SPENDING_CASES, ids=[c["id"] for c in CASES] + [c["id"] for c in SPENDING_CASES]
)
def test_each_case_quotes_its_cards(case: dict[str, Any]) -> None:
    """Provenance: the sentences the expectation is worked out from, each verbatim in a card of the case."""
    check_quote(case.get("quote") or {}, _case_cards(case))


@pytest.mark.parametrize(
    "case", CASES + SPENDING_CASES, ids=[c["id"] for c in CASES] + [c["id"] for c in SPENDING_CASES]
)
def test_golden_activation(case: dict[str, Any]) -> None:
    assert case.get("rule") and case.get("quote"), "every case quotes its sentence and names its rule"
    board = _board(case)
    analysis = analyze_board(board)
    if "check" in case:
        check = case["check"]
        state = analysis.state.state(check["permanent"])
        ability = state.abilities[check["ability"]]
        reasons = check_activation(analysis.state, state, ability)
        assert (not reasons) is check["can_activate"], reasons
        if not check["can_activate"]:
            assert case["rule"] in {r.rule for r in reasons}, reasons
    if case.get("warns"):
        assert any(w.permanent == case["check"]["permanent"] for w in analysis.warnings)
    if "cost" not in case:
        return
    cost = ManaCost.parse(case["cost"])
    if "spell" in case:
        casting = Casting(**case["casting"]) if "casting" in case else None  # how the spell is cast
        inputs = payment_inputs(board, "you", cost, _named(case["spell"]).front, analysis, casting=casting)
        warned = any(w.permanent in {p["id"] for p in case["board"]} for w in inputs.warnings)
        assert warned is bool(case.get("warned")), inputs.warnings
    else:
        inputs = bare_payment_inputs(board, "you", analysis)
    payer = PaymentSources(inputs.sources, life=board.player("you").life)
    if not case["payable"]:
        with pytest.raises(UnpayableError) as err:
            payer.plan(cost)
        assert str(err.value.short) == case["short"]
        return
    plan = payer.plan(cost)
    check_plan(plan, cost, inputs.sources, life=board.player("you").life)
    if "paid_by" in case:
        assert case["paid_by"] in {s.permanent for s in plan.steps}, plan.steps
    if "steps" in case:  # every step's permanent, in order: nothing else is used
        assert [s.permanent for s in plan.steps] == case["steps"], plan.steps
    if "order" in case:
        order = [s.permanent for s in plan.steps if s.permanent in case["order"]]
        assert order == case["order"], plan.steps
    for kind, want in (case.get("uses") or {}).items():
        if kind == "removes":
            got: Any = Counter()
            for s in plan.steps:
                got.update(dict(s.consumes.removes))
            assert dict(got) == {str(k): v for k, v in want.items()}
        else:
            got = sorted(x for s in plan.steps for x in getattr(s.consumes, kind))
            assert got == sorted(want), plan.steps
