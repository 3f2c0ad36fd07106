"""Golden mana cases (``tests/golden/mana/*.yaml``): real mana-producing permanents, each alone or on a small
board, with what it could produce (CR 106.7), what each of its mana abilities produces (CR 106.12) and
whether it can be activated (CR 602.5b); and payments (CR 601.2g-h). Expectations are worked out by hand
from the card's printed text and the rules each case names: every case has its ``rule`` and a ``quote``,
the sentences (or type line) of the case's cards that decide it, checked here to be in those cards' text.

Cards come from the bundled catalogue, and quotes are checked by ``tests.golden_cards``.

A ``permanents`` case: ``card`` (or ``board``/``check`` for several), optional ``tapped``, ``counters``,
``chosen``, ``since_turn_began``, ``attached_to`` (what an Aura or Equipment is attached to); ``commander``
(the controller's commander's name); expected ``could`` (the types, in WUBRGC order), ``produces`` (per
mana ability in printed order, its alternatives, each a string of mana types, sorted WUBRGC; ``[]`` when
it adds nothing now) and ``can_activate`` (per mana ability).

A ``payment`` case: a ``board``, the ``cost`` (and the ``spell`` cast, for spending rules), whether it is
``payable`` and, when not, the ``short``; optionally ``activates``, the plan's steps in order, each the
permanent and the mana it adds (a plan makes no activation it can do without, CR 601.2g).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from app.rules.mana.activation_checks import check_activation
from app.rules.mana.payment import can_pay, plan_payment, shortfall
from app.rules.mana.production import analyze_board
from app.rules.mana.sources import payment_inputs
from app.rules.values.board import Board, Choices, Permanent, Player
from app.rules.values.cards import Card
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import MANA_TYPES
from tests.golden_cards import card as bundled_card
from tests.golden_cards import check_quote

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "mana"


def _card(name: str) -> Card:
    return bundled_card(name)


def _perm(spec: dict[str, Any], pid: str) -> Permanent:
    counters = tuple((k, int(v)) for k, v in (spec.get("counters") or {}).items())
    return Permanent(
        pid,
        _card(spec["card"]),
        spec.get("controller", "you"),
        tapped=spec.get("tapped", False),
        controlled_since_turn_began=spec.get("since_turn_began", True),
        chosen=Choices(**(spec.get("chosen") or {})),
        attached_to=spec.get("attached_to"),
        counters=counters,
        given=frozenset({"counters"}) if "counters" in spec else frozenset(),
    )


def _board(case: dict[str, Any]) -> Board:
    perms = tuple(_perm(s, s["id"]) for s in case["board"]) if "board" in case else (_perm(case, "p0"),)
    you = Player(
        "you",
        commander=tuple(_card(n) for n in case.get("commander", ())),
        given=frozenset({"commander"}) if "commander" in case else frozenset(),
    )
    return Board(perms, (you, Player("opp")))


def _quoted_cards(case: dict[str, Any]) -> set[str]:
    names = {case["card"]} if "card" in case else set()
    names |= {p["card"] for p in case.get("board", ())}
    return names | ({case["spell"]} if "spell" in case else set())


def _types(alt: tuple[str, ...]) -> str:
    return "".join(sorted(alt, key=MANA_TYPES.index))


def load() -> list[Any]:
    out = []
    for path in sorted(GOLDEN.glob("*.yaml")):
        for i, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]):
            name = case.get("id") or case.get("card") or str(i)
            out.append(pytest.param(case, id=f"{path.stem}:{name}"))
    return out


CASES = load()


def test_there_are_at_least_the_cases_the_issue_asks() -> None:
    cards = {c.values[0].get("card") for c in CASES if c.values[0].get("kind", "permanent") == "permanent"}
    assert len(cards - {None}) >= 200


@pytest.mark.parametrize("case", CASES)
def test_each_case_quotes_its_cards(case: dict[str, Any]) -> None:
    """Provenance: the sentences the expectation is worked out from, each really in a card of the case."""
    check_quote(case.get("quote") or {}, _quoted_cards(case))


@pytest.mark.parametrize("case", CASES)
def test_golden_mana(case: dict[str, Any]) -> None:
    assert case.get("rule"), "every case names its rule"
    b = _board(case)
    if case.get("kind") == "payment":
        cost = ManaCost.parse(case["cost"])
        face = _card(case["spell"]).front if "spell" in case else None
        sources = payment_inputs(b, "you", cost, face).sources
        assert can_pay(cost, sources) is case["payable"]
        if not case["payable"]:
            assert str(shortfall(cost, sources)) == case["short"]
        if "activates" in case:  # the plan's steps: each permanent activated and the mana it adds
            steps = plan_payment(cost, sources).steps
            assert [[s.permanent, "".join(s.adds)] for s in steps] == case["activates"]
        return
    analysis = analyze_board(b)
    pid = case.get("check", "p0")
    state = analysis.state.state(pid)
    assert "".join(analysis.could_produce[pid]) == case["could"]
    mana = [a for a in state.abilities if a.is_mana_ability]
    if "produces" in case:
        got = []
        for a in mana:
            alts = analysis.produces.get((pid, a.index))
            got.append(None if alts is None else sorted({_types(m.as_tuple()) for m in alts}))
        assert got == [sorted(x) if x is not None else None for x in case["produces"]]
    if "can_activate" in case:
        assert [not check_activation(analysis.state, state, a) for a in mana] == case["can_activate"]
