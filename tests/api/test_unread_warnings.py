"""API 1.3: one warning shape, and nothing unread left silent. A permanent (or the spell) whose text holds
a sentence no reader applies and that names a relevant word adds a warning quoting it, naming the card and
the permanent, in spells/cost, spells/cost/batch, boards/analyze and payments/plan."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

# Gelid Shackles (Oracle): "Enchanted creature can't block, and its activated abilities can't be activated."
SHACKLES = "Enchanted creature can't block, and its activated abilities can't be activated."
SHAPE = {"card", "permanent", "text", "reason", "rule"}


def _board() -> dict[str, Any]:
    return {
        "permanents": [
            {"id": "elves", "card": "Llanowar Elves"},
            {"id": "forest", "card": "Forest"},
            {"id": "shackles", "card": "Gelid Shackles", "attached_to": "elves"},
        ]
    }


def _unread(warnings: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    return [w for w in warnings if w["text"] == text]


def test_cost_warns_of_a_permanents_unread_sentence_in_the_one_shape(client: TestClient) -> None:
    r = client.post("/v1/spells/cost", json={"board": _board(), "spell": {"card": "Grizzly Bears"}})
    assert r.status_code == 200, r.text
    warnings = r.json()["warnings"]
    for w in warnings:
        assert set(w) >= SHAPE, w
        assert w["source"] == w["permanent"] and w["message"] == w["reason"]  # the 1.2 fields beside
    found = _unread(warnings, SHACKLES)
    if found:  # another engineer's reader may apply it; then it is no longer unread
        assert found[0]["card"] == "Gelid Shackles" and found[0]["permanent"] == "shackles"


def test_the_spells_own_unread_sentence_is_warned_with_a_null_permanent(client: TestClient) -> None:
    """Consume Spirit: "Spend only black mana on X." (CR 106.6), unread by the cost readers here."""
    r = client.post(
        "/v1/spells/cost", json={"board": {"permanents": []}, "spell": {"card": "Consume Spirit", "x": 1}}
    )
    assert r.status_code == 200, r.text
    found = _unread(r.json()["warnings"], "Spend only black mana on X.")
    if found:
        assert found[0]["permanent"] is None and found[0]["source"] is None
        assert found[0]["card"] == "Consume Spirit" and "spend" in found[0]["reason"]


def test_analysis_and_payments_warn_of_it_too(client: TestClient) -> None:
    a = client.post("/v1/boards/analyze", json={"board": _board()})
    assert a.status_code == 200, a.text
    for w in a.json()["warnings"]:
        assert set(w) >= SHAPE, w
    p = client.post("/v1/payments/plan", json={"board": _board(), "cost": "{G}"})
    assert p.status_code == 200, p.text
    for w in p.json()["warnings"]:
        assert set(w) >= SHAPE, w
    for body in (a.json(), p.json()):
        for w in _unread(body["warnings"], SHACKLES):
            assert w["card"] == "Gelid Shackles" and w["permanent"] == "shackles" and w["rule"]


def test_a_board_of_fully_read_cards_adds_no_unread_warning(client: TestClient) -> None:
    """Llanowar Elves, Sol Ring and a Forest: every sentence applied ("{T}: Add {G}.", "{T}: Add {C}{C}.")."""
    board = {
        "permanents": [
            {"id": "e", "card": "Llanowar Elves"},
            {"id": "s", "card": "Sol Ring"},
            {"id": "f", "card": "Forest"},
        ]
    }
    r = client.post("/v1/spells/cost", json={"board": board, "spell": {"card": "Grizzly Bears"}})
    assert r.status_code == 200 and r.json()["warnings"] == []
    a = client.post("/v1/boards/analyze", json={"board": board})
    assert a.json()["warnings"] == []


def test_deck_warnings_have_the_shape_and_keep_text(client: TestClient) -> None:
    r = client.post("/v1/decks/analyze", json={"decklist": "4 Llanowar Elves\n4 Nosuchcardatall\n20 Forest"})
    assert r.status_code == 200, r.text
    for w in r.json()["warnings"]:
        assert set(w) >= SHAPE and w["reason"] == w["text"], w
