"""API 1.3: each way in `ways` says whether it is available on the stated board (spells/cost, the batch),
over HTTP with the bundled catalogue. Mindbreak Trap {2}{U}{U}: "If an opponent cast three or more spells
this turn, you may pay {0} rather than pay this spell's mana cost." (CR 118.9)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def cost(client: TestClient, players: dict[str, Any] | None, spell: dict[str, Any]) -> Any:
    board: dict[str, Any] = {"permanents": []}
    if players is not None:
        board["players"] = players
    return client.post("/v1/spells/cost", json={"board": board, "spell": spell})


def alternative(body: Any) -> Any:
    return next(w for w in body["ways"] if w["method"] == "alternative")


def test_stated_count_decides(client: TestClient) -> None:
    three = cost(client, {"opponent": {"this_turn": {"spells_cast": 3}}}, {"card": "Mindbreak Trap"}).json()
    assert alternative(three)["available"] is True and "reason" not in alternative(three)
    two = cost(client, {"opponent": {"this_turn": {"spells_cast": 2}}}, {"card": "Mindbreak Trap"}).json()
    way = alternative(two)
    assert way["available"] is False and way["rule"] == "118.9" and "three or more spells" in way["reason"]
    assert way["total_cost"] == "{0}"


def test_asking_for_a_way_not_available_is_a_rules_violation(client: TestClient) -> None:
    players = {"opponent": {"this_turn": {"spells_cast": 2}}}
    r = cost(client, players, {"card": "Mindbreak Trap", "method": "alternative"})
    assert r.status_code == 422 and r.json()["type"].endswith("rules-violation")
    assert "three or more spells" in r.json()["detail"]


def test_unstated_count_is_unknown_with_what_decides_it_and_warned(client: TestClient) -> None:
    body = cost(client, None, {"card": "Mindbreak Trap"}).json()
    way = alternative(body)
    assert way["available"] == "unknown" and way["needs"] == ["players.opponent.this_turn.spells_cast"]
    assert any("players.opponent.this_turn.spells_cast" in w["message"] for w in body["warnings"])
    asked = cost(client, None, {"card": "Mindbreak Trap", "method": "alternative"})
    assert asked.status_code == 200 and asked.json()["total_cost"] == "{0}"
    messages = [w["message"] for w in asked.json()["warnings"]]
    assert sum("players.opponent.this_turn.spells_cast" in m for m in messages) == 1  # said once


def test_the_batch_says_it_too(client: TestClient) -> None:
    board = {"permanents": [], "players": {"opponent": {"this_turn": {"spells_cast": 0}}}}
    r = client.post("/v1/spells/cost/batch", json={"board": board, "spells": [{"card": "Mindbreak Trap"}]})
    assert r.status_code == 200, r.text
    assert alternative(r.json()["data"][0]["result"])["available"] is False
