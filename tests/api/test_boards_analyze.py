"""``POST /v1/boards/analyze`` (API.md): abilities with activation reasons, could-produce, parties."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def _analyze(client: TestClient, permanents: list[dict[str, Any]], **board: Any) -> dict[str, Any]:
    r = client.post("/v1/boards/analyze", json={"board": {"permanents": permanents, **board}})
    assert r.status_code == 200, r.text
    return r.json()


def _by_id(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in body["permanents"]}


def test_exotic_orchard_example_and_answer_shape(client: TestClient) -> None:
    body = _analyze(
        client,
        [
            {"id": "forest", "card": "Forest"},
            {"id": "orchard", "card": "Exotic Orchard"},
            {"id": "orchard-2", "card": "Exotic Orchard", "controller": "opponent"},
        ],
    )
    perms = _by_id(body)
    assert perms["orchard"]["could_produce"] == ["G"]
    assert perms["orchard-2"]["could_produce"] == ["G"]
    assert perms["forest"]["abilities"] == [
        {
            "index": 0,
            "cost": "{T}",
            "text": "Add {G}.",
            "is_mana_ability": True,
            "can_activate": True,
            "reasons": [],
            "produces": "{G}",
            "amount": 1,
            "restriction": None,
            "alternatives": ["{G}"],
            "origin": "land_type",
            "rule": "305.6",
            "granted_by": None,
        }
    ]
    assert perms["forest"]["name"] == "Forest"
    assert body["rules_edition"] and body["data_version"]
    assert set(body["players"]) == {"you", "opponent"}
    assert body["warnings"] == []


def test_pool_loop_and_colorless_type(client: TestClient) -> None:
    pools = [{"id": "p1", "card": "Reflecting Pool"}, {"id": "p2", "card": "Reflecting Pool"}]
    assert [p["could_produce"] for p in _analyze(client, pools)["permanents"]] == [[], []]
    homebrew = {
        "id": "hb",
        "card": {"name": "My Homebrew Land", "type_line": "Land", "oracle_text": "{T}: Add {C}."},
    }
    body = _analyze(client, [*pools, {"id": "s", "card": "Savannah"}, homebrew])
    assert _by_id(body)["p1"]["could_produce"] == ["W", "G", "C"]


def test_activation_reasons(client: TestClient) -> None:
    body = _analyze(
        client,
        [
            {"id": "elves", "card": "Llanowar Elves", "controlled_since_turn_began": False},
            {"id": "arbor", "card": "Dryad Arbor", "tapped": True, "controlled_since_turn_began": False},
            {"id": "forest", "card": "Forest", "controlled_since_turn_began": False},
        ],
    )
    perms = _by_id(body)
    elves = perms["elves"]["abilities"][0]
    assert (elves["can_activate"], [r["rule"] for r in elves["reasons"]]) == (False, ["302.6"])
    arbor = perms["arbor"]["abilities"][0]
    assert [r["rule"] for r in arbor["reasons"]] == ["107.5", "302.6"]
    assert perms["forest"]["abilities"][0]["can_activate"] is True


def test_mana_reflection_shows_in_produces_and_party(client: TestClient) -> None:
    body = _analyze(
        client,
        [
            {"id": "mr", "card": "Mana Reflection"},
            {"id": "s", "card": "Savannah"},
            {"id": "cleric", "card": {"name": "Test Cleric", "type_line": "Creature — Human Cleric"}},
        ],
    )
    perms = _by_id(body)
    assert [a["produces"] for a in perms["s"]["abilities"]] == ["{W}{W}", "{G}{G}"]
    assert [a["amount"] for a in perms["s"]["abilities"]] == [2, 2]
    assert body["players"]["you"]["party"] == {
        "size": 1,
        "members": {"Cleric": "cleric", "Rogue": None, "Warrior": None, "Wizard": None},
    }


def test_forest_and_28_mana_reflections_answer_fast_and_small(client: TestClient) -> None:
    """Issue 15: mana as counts. 2^28 mana is an exact amount, not a list of 2^28 symbols."""
    reflections = [{"id": f"mr{i}", "card": "Mana Reflection"} for i in range(28)]
    r = client.post(
        "/v1/boards/analyze", json={"board": {"permanents": [{"id": "f", "card": "Forest"}, *reflections]}}
    )
    assert r.status_code == 200 and len(r.content) < 50_000
    forest = _by_id(r.json())["f"]
    ability = forest["abilities"][0]
    assert ability["amount"] == 2**28
    assert ability["produces"] is None and ability["alternatives"] is None  # above 100 mana
    assert forest["could_produce"] == ["G"]
    assert r.json()["warnings"] == []  # multiplying effects commute: no order to choose (CR 616.1)


def test_unknown_text_is_a_warning(client: TestClient) -> None:
    odd = {
        "name": "Odd Land",
        "type_line": "Land",
        "oracle_text": "{T}: Add X mana of any one color, where X is 2.",
    }
    body = _analyze(client, [{"id": "odd", "card": odd}])
    ability = body["permanents"][0]["abilities"][0]
    assert ability["is_mana_ability"] is None and ability["produces"] is None
    assert [w["permanent"] for w in body["warnings"]] == ["odd"]


def test_typo_is_rejected(client: TestClient) -> None:
    r = client.post(
        "/v1/boards/analyze", json={"board": {"permanents": [{"id": "f", "card": "Forest", "taped": True}]}}
    )
    assert r.status_code == 422
