"""Golden cases of abilities stopped, lost and limited (``tests/golden/payments/abilities_and_limits.yaml``),
end to end over HTTP on the bundled catalogue: ``boards/analyze``, ``payments/plan`` (with ``short``) and,
where a case asks, ``spells/cost``.

Each case names its ``rule`` and quotes (``quote``, by card) the sentences that decide it; the quotes are
checked against the cards' Oracle text in the shared data (reminder text removed). Expectations are worked
out by hand from those sentences and the rule, never copied from an answer.

A case: ``board`` (permanents as the API takes them), optional ``board_fields`` (``active_player``,
``step``, ``players``...); ``abilities``: per permanent, the expected ``can_activate`` of abilities by
index, with ``by`` (the id of the permanent a reason must name); ``lost``: per permanent, the texts of the
abilities it lost and to whom (``abilities_lost``); ``no_abilities``: permanents with no ability left;
``cost`` or ``spell`` for ``payments/plan`` with ``payable``, ``short``, ``paid_by`` (ids a step must
name), ``not_paid_by`` (ids no step may name), ``steps`` (the number of plan steps); ``warns``: per
permanent id, a piece of text one warning about it must hold; ``total_cost`` (with ``spell``): the
``spells/cost`` answer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.rules.mana.test_golden_mana import _card

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "payments" / "abilities_and_limits.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["cases"]
_REMINDER = re.compile(r"\s*\([^()]*\)")


def _printed(name: str) -> str:
    card = _card(name)
    return "\n".join(_REMINDER.sub("", f"{f.mana_cost}\n{f.type_line}\n{f.oracle_text}") for f in card.faces)


def test_at_least_thirty_real_cards() -> None:
    names = {p["card"] for c in CASES for p in c["board"] if isinstance(p["card"], str)}
    names |= {c["spell"] for c in CASES if "spell" in c}
    assert len(names) >= 30, sorted(names)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_each_case_quotes_its_cards(case: dict[str, Any]) -> None:
    assert case.get("rule") and case.get("quote"), "every case names its rule and quotes its sentences"
    in_case = {p["card"] for p in case["board"] if isinstance(p["card"], str)} | {case.get("spell")}
    for name, sentences in case["quote"].items():
        assert name in in_case, f"{name} is quoted but not in the case"
        printed = _printed(name)
        for sentence in sentences:
            assert _REMINDER.sub("", sentence) in printed, f"{sentence!r} is not in {name}'s text"


def _board(case: dict[str, Any]) -> dict[str, Any]:
    return {"permanents": case["board"], **case.get("board_fields", {})}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_abilities(client: TestClient, case: dict[str, Any]) -> None:
    board = _board(case)
    r = client.post("/v1/boards/analyze", json={"board": board})
    assert r.status_code == 200, r.text
    body = r.json()
    by_id = {p["id"]: p for p in body["permanents"]}
    for pid, expected in (case.get("abilities") or {}).items():
        abilities = {a["index"]: a for a in by_id[pid]["abilities"]}
        for want in expected:
            got = abilities[want["index"]]
            assert got["can_activate"] is want["can_activate"], got
            if "by" in want:
                assert any(f"({want['by']})" in x["text"] for x in got["reasons"]), got["reasons"]
            if not want["can_activate"]:
                assert case["rule"] in {x["rule"] for x in got["reasons"]} or "by" in want, got["reasons"]
    for pid, expected in (case.get("lost") or {}).items():
        got = [(x["text"], x["lost_to"]) for x in by_id[pid]["abilities_lost"]]
        assert got == [(x["text"], x["lost_to"]) for x in expected]
    for pid in case.get("no_abilities", ()):
        assert by_id[pid]["abilities"] == [], by_id[pid]["abilities"]
    warnings = list(body["warnings"])
    if "cost" in case or "spell" in case:
        request: dict[str, Any] = {"board": board}
        if "spell" in case:
            request["spell"] = {"card": case["spell"]}
        else:
            request["cost"] = case["cost"]
        r = client.post("/v1/payments/plan", json=request)
        assert r.status_code == 200, r.text
        plan = r.json()
        warnings += plan["warnings"]
        assert plan["payable"] is case["payable"], plan
        if not case["payable"]:
            assert plan["short"] == case["short"], plan
        used = {s.get("permanent") for s in plan["plan"]}
        for pid in case.get("paid_by", ()):
            assert pid in used, plan["plan"]
        for pid in case.get("not_paid_by", ()):
            assert pid not in used, plan["plan"]
        if "steps" in case:
            assert len(plan["plan"]) == case["steps"], plan["plan"]
    if "total_cost" in case:
        r = client.post("/v1/spells/cost", json={"board": board, "spell": {"card": case["spell"]}})
        assert r.status_code == 200, r.text
        assert r.json()["total_cost"] == case["total_cost"], r.json()
    for pid, piece in (case.get("warns") or {}).items():
        assert any(w["permanent"] == pid and piece in w["reason"] + w["text"] for w in warnings), warnings
    for pid in case.get("silent", ()):
        assert not any(w["permanent"] == pid for w in warnings), warnings
