"""API 1.3 "Abilities, spending, limits": the request fields (`attached_to`, `activated_this_turn`, `token`)
validated and read, and what the answers show of abilities stopped or lost (CR 602.5, 613.1f)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

ROOTS = {
    "name": "Root Grant",
    "type_line": "Enchantment",
    "oracle_text": 'Creature tokens you control have "{T}: Add {G}."',
}


def analyze(client: TestClient, permanents: list[dict[str, Any]], **board: Any) -> Any:
    r = client.post("/v1/boards/analyze", json={"board": {"permanents": permanents, **board}})
    assert r.status_code == 200, r.text
    return r.json()


def test_attached_to_an_unknown_permanent_is_a_422_naming_the_path(client: TestClient) -> None:
    board = {"permanents": [{"id": "arrest", "card": "Arrest", "attached_to": "nobody"}]}
    r = client.post("/v1/boards/analyze", json={"board": board})
    assert r.status_code == 422, r.text
    assert ["body", "board", "permanents", 0, "attached_to"] in [e["loc"] for e in r.json()["errors"]]


def test_activated_this_turn_is_bounded(client: TestClient) -> None:
    for bad in ([-1], [1000], list(range(101)), ["x"]):
        board = {"permanents": [{"id": "t", "card": "Kozilek's Translator", "activated_this_turn": bad}]}
        r = client.post("/v1/boards/analyze", json={"board": board})
        assert r.status_code == 422, (bad, r.text)
        assert any(
            e["loc"][:5] == ["body", "board", "permanents", 0, "activated_this_turn"]
            for e in r.json()["errors"]
        )


def test_activated_this_turn_stops_a_once_each_turn_ability(client: TestClient) -> None:
    """Kozilek's Translator: "Pay 1 life: Add {C}. Activate only once each turn." (CR 602.5b)."""
    fresh = analyze(client, [{"id": "t", "card": "Kozilek's Translator", "activated_this_turn": []}])
    assert fresh["permanents"][0]["abilities"][0]["can_activate"] is True
    assert not [w for w in fresh["warnings"] if w["permanent"] == "t"]
    used = analyze(client, [{"id": "t", "card": "Kozilek's Translator", "activated_this_turn": [0]}])
    ability = used["permanents"][0]["abilities"][0]
    assert ability["can_activate"] is False
    assert [r["rule"] for r in ability["reasons"]] == ["602.5b"]


def test_a_lost_ability_is_listed_apart_with_who_took_it(client: TestClient) -> None:
    """Frogify: "Enchanted creature loses all abilities ..." (CR 613.1f)."""
    body = analyze(
        client,
        [{"id": "elf", "card": "Llanowar Elves"}, {"id": "frog", "card": "Frogify", "attached_to": "elf"}],
    )
    elf = body["permanents"][0]
    assert elf["abilities"] == [] and elf["could_produce"] == []
    assert elf["abilities_lost"] == [
        {"cost": "{T}", "text": "Add {G}.", "lost_to": "frog", "card": "Frogify", "rule": "613.1f"}
    ]


def test_a_grant_to_tokens_reaches_tokens_only(client: TestClient) -> None:
    """ "Creature tokens you control have ..." (CR 111.1, 613.1f): a token Bear gets the ability; a card
    Bear does not; a Bear whose `token` is not stated is taken as a card, and said."""
    board = [
        {"id": "grant", "card": ROOTS, "token": False},
        {"id": "token", "card": "Grizzly Bears", "token": True},
        {"id": "card", "card": "Grizzly Bears", "token": False},
        {"id": "unsaid", "card": "Grizzly Bears"},
    ]
    body = analyze(client, board)
    by_id = {p["id"]: p for p in body["permanents"]}
    assert [a["text"] for a in by_id["token"]["abilities"]] == ["Add {G}."]
    assert by_id["card"]["abilities"] == [] and by_id["unsaid"]["abilities"] == []
    assert any("'unsaid'" in w["reason"] and w["permanent"] == "grant" for w in body["warnings"])
    r = client.post("/v1/payments/plan", json={"board": {"permanents": board}, "cost": "{G}"})
    assert r.json()["payable"] is True and [s["permanent"] for s in r.json()["plan"]] == ["token"]
