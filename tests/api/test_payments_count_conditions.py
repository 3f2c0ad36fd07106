"""Count conditions of "Activate only if ..." (CR 602.5b) over HTTP: threshold and hellbent (cards in the
controller's graveyard or hand, CR 402.1, 404.1), "exactly seven cards in hand", counters on the permanent
(CR 122.1). API 1.1: a count the request does not state is taken as 0 and said in ``warnings``; a stated
count is read as given and warns about nothing. Bundled catalogue."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def analyze(client: TestClient, card: str, **you: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The permanent's abilities and the answer's warnings about it, its player ``you`` as given."""
    board: dict[str, Any] = {"permanents": [{"id": "p", "card": card}]}
    if you:
        board["players"] = {"you": you}
    r = client.post("/v1/boards/analyze", json={"board": board})
    assert r.status_code == 200, r.text
    body = r.json()
    abilities = next(p for p in body["permanents"] if p["id"] == "p")["abilities"]
    return abilities, [w for w in body["warnings"] if w["permanent"] == "p"]


def only_if(warnings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [w for w in warnings if w["text"].startswith("Activate only") and "not stated" in w["reason"]]


def test_threshold_with_no_graveyard_stated_is_not_met_and_says_so(client: TestClient) -> None:
    """Barbarian Ring: "Activate only if seven or more cards are in your graveyard." Unstated: 0 cards."""
    abilities, warnings = analyze(client, "Barbarian Ring")
    assert abilities[1]["can_activate"] is False
    assert any("not stated" in r["text"] for r in abilities[1]["reasons"] if r["rule"] == "602.5b")
    [warning] = only_if(warnings)
    assert "graveyard" in warning["reason"] and "is not met" in warning["reason"]


def test_threshold_stated_is_read_without_a_warning(client: TestClient) -> None:
    seven, warnings = analyze(client, "Barbarian Ring", graveyard=["Opt"] * 7)
    assert seven[1]["can_activate"] is True and only_if(warnings) == []
    six, warnings = analyze(client, "Barbarian Ring", graveyard=["Opt"] * 6)
    assert six[1]["can_activate"] is False and only_if(warnings) == []
    assert all("not stated" not in r["text"] for r in six[1]["reasons"])


def test_hellbent_with_no_hand_stated_takes_an_empty_hand_and_says_so(client: TestClient) -> None:
    """Keldon Megaliths: "Activate only if you have no cards in hand." Unstated: 0 cards, so it is met."""
    abilities, warnings = analyze(client, "Keldon Megaliths")
    assert abilities[1]["can_activate"] is True
    [warning] = only_if(warnings)
    assert "hand" in warning["reason"] and "is met" in warning["reason"]


def test_hellbent_stated_is_read_without_a_warning(client: TestClient) -> None:
    empty, warnings = analyze(client, "Keldon Megaliths", hand=[])
    assert empty[1]["can_activate"] is True and only_if(warnings) == []
    one, warnings = analyze(client, "Keldon Megaliths", hand_size=1)
    assert one[1]["can_activate"] is False and only_if(warnings) == []


def test_exactly_seven_cards_in_hand(client: TestClient) -> None:
    """Library of Alexandria: "Activate only if you have exactly seven cards in hand." """
    unstated, warnings = analyze(client, "Library of Alexandria")
    assert unstated[1]["can_activate"] is False
    [warning] = only_if(warnings)
    assert "hand" in warning["reason"] and "is not met" in warning["reason"]
    seven, warnings = analyze(client, "Library of Alexandria", hand_size=7)
    assert seven[1]["can_activate"] is True and only_if(warnings) == []
    eight, warnings = analyze(client, "Library of Alexandria", hand=["Opt"] * 8)
    assert eight[1]["can_activate"] is False and only_if(warnings) == []


def pay(client: TestClient, permanent: dict[str, Any], cost: str) -> dict[str, Any]:
    r = client.post("/v1/payments/plan", json={"board": {"permanents": [permanent]}, "cost": cost})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_counters_on_it_unstated_are_zero_in_payments_and_said(client: TestClient) -> None:
    """Pyramid of the Pantheon: "{T}: Add three mana of any one color. Activate only if there are three or
    more brick counters on ~." Unstated counters: 0, not met, warned; stated: read, no warning."""
    unstated = pay(client, {"id": "pyr", "card": "Pyramid of the Pantheon"}, "{G}{G}{G}")
    assert unstated["payable"] is False
    assert any("counters" in w["message"] and "not stated" in w["message"] for w in unstated["warnings"])
    three = pay(
        client, {"id": "pyr", "card": "Pyramid of the Pantheon", "counters": {"brick": 3}}, "{G}{G}{G}"
    )
    assert three["payable"] is True and [s["permanent"] for s in three["plan"]] == ["pyr"]
    assert not any("not stated" in w["message"] for w in three["warnings"])
    two = pay(client, {"id": "pyr", "card": "Pyramid of the Pantheon", "counters": {"brick": 2}}, "{G}{G}{G}")
    assert two["payable"] is False
    assert not any("not stated" in w["message"] for w in two["warnings"])
    abilities, warnings = analyze(client, "Pyramid of the Pantheon")
    assert abilities[1]["can_activate"] is False and len(only_if(warnings)) == 1


def test_corrupted_reads_the_opponents_poison_counters(client: TestClient) -> None:
    """Glistening Sphere: "Corrupted — {T}: Add three mana of any one color. Activate only if an opponent
    has three or more poison counters." (CR 122.1) Unstated: 0, not met, warned; stated: read."""

    def sphere(**players: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        board: dict[str, Any] = {"permanents": [{"id": "p", "card": "Glistening Sphere"}], "players": players}
        r = client.post("/v1/boards/analyze", json={"board": board})
        assert r.status_code == 200, r.text
        body = r.json()
        abilities = next(p for p in body["permanents"] if p["id"] == "p")["abilities"]
        return abilities[1], only_if([w for w in body["warnings"] if w["permanent"] == "p"])

    unstated, warnings = sphere(you={}, opp={})
    assert unstated["can_activate"] is False
    [warning] = warnings
    assert "poison counters of player 'opp'" in warning["reason"]
    three, warnings = sphere(you={}, opp={"counters": {"poison": 3}})
    assert three["can_activate"] is True and warnings == []
    two, warnings = sphere(you={}, opp={"counters": {"poison": 2}})
    assert two["can_activate"] is False and warnings == []
