"""POST /v1/payments/plan over HTTP, on the bundled catalogue."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PATH = "/v1/payments/plan"


def post(client: TestClient, body: dict[str, Any]) -> Any:
    return client.post(PATH, json=body)


def perm(pid: str, card: str | dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"id": pid, "card": card, **kw}


def test_api_md_example(client: TestClient) -> None:
    board = {"permanents": [perm("forest-1", "Forest"), perm("forest-2", "Forest"), perm("sol", "Sol Ring")]}
    r = post(client, {"board": board, "player": "you", "cost": "{2}{G}{G}"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["payable"] is True and body["cost"] == "{2}{G}{G}"
    assert body["life_paid"] == 0 and body["short"] is None
    assert body["rules_edition"] and body["data_version"]
    plan = {(s["permanent"], s["adds"]) for s in body["plan"]}
    assert plan == {("forest-1", "{G}"), ("forest-2", "{G}"), ("sol", "{C}{C}")}
    assert all(s["ability"] == 0 for s in body["plan"])
    assert sorted(p["symbol"] for p in body["payments"]) == ["{1}", "{1}", "{G}", "{G}"]


def test_not_payable_names_what_is_missing(client: TestClient) -> None:
    board = {"permanents": [perm("forest-1", "Forest"), perm("island", "Island")]}
    body = post(client, {"board": board, "cost": "{G}{G}"}).json()
    assert body["payable"] is False and body["short"] == "{G}" and body["plan"] == []


def test_tapped_and_summoning_sick_sources_are_not_used(client: TestClient) -> None:
    board = {
        "permanents": [
            perm("forest", "Forest", tapped=True),
            perm("elves", "Llanowar Elves", controlled_since_turn_began=False),
            perm("birds", "Birds of Paradise"),
        ]
    }
    body = post(client, {"board": board, "cost": "{G}{G}"}).json()
    assert body["payable"] is False and body["short"] == "{G}"
    assert post(client, {"board": board, "cost": "{U}"}).json()["plan"] == [
        {
            "permanent": "birds",
            "ability": 0,
            "adds": "{U}",
            "activation_cost": None,
            "life_paid": 0,
            "convoke": None,
            "improvise": None,
            "delve": None,
            # API 1.2: what the activation consumed beside its {T}: nothing here
            "life": None,
            "sacrifices": None,
            "taps": None,
            "returns": None,
            "removes": None,
            "exiles": None,
            "discards": None,
        }
    ]


def test_filter_land_pays_from_the_same_board(client: TestClient) -> None:
    board = {"permanents": [perm("plains", "Plains"), perm("gate", "Mystic Gate")]}
    body = post(client, {"board": board, "cost": "{U}{U}"}).json()
    assert body["payable"] is True, body
    assert [s["permanent"] for s in body["plan"]] == ["plains", "gate"]
    assert body["plan"][1]["activation_cost"] == "{W/U}"
    assert {"symbol": "{W/U}", "pays": 1, "mana": "W", "source": "plains"} in body["payments"]


def test_phyrexian_life_and_pool(client: TestClient) -> None:
    board = {"players": {"you": {"life": 2}}, "mana_pool": {"you": "{G}"}}
    body = post(client, {"board": board, "cost": "{G}{B/P}"}).json()
    assert body["payable"] is True and body["life_paid"] == 2 and body["from_pool"] == "{G}"
    low = post(client, {"board": {"players": {"you": {"life": 1}}}, "cost": "{B/P}"}).json()
    # API 1.1/1.2: `short` is mana, never a Phyrexian symbol: one {B} added would pay it (CR 119.4: no 2 life)
    assert (low["payable"], low["short"], low["life_paid"]) == (False, "{B}", 0)


def test_spell_total_cost_is_paid(client: TestClient) -> None:
    board = {
        "permanents": [
            perm("horn", "Herald's Horn", chosen={"creature_type": "Cleric"}),
            perm("plains", "Plains"),
        ]
    }
    body = post(client, {"board": board, "spell": {"card": "Avacynian Priest"}}).json()
    assert body["payable"] is True and body["cost"] == "{W}"
    assert [(s["permanent"], s["ability"], s["adds"], s["convoke"]) for s in body["plan"]] == [
        ("plains", 0, "{W}", None)
    ]


def test_bad_requests(client: TestClient) -> None:
    r = post(client, {"cost": "{G}{Q}"})
    assert r.status_code == 422 and r.json()["type"].endswith("/malformed-cost")
    r = post(client, {"cost": "{X}{G}"})
    assert r.status_code == 422 and r.json()["type"].endswith("/rules-violation")
    assert r.json()["rule"] == "107.3a"
    assert post(client, {}).status_code == 422
    assert post(client, {"cost": "{G}", "spell": {"card": "Forest"}}).status_code == 422
    assert post(client, {"cost": "{G}", "plan": []}).status_code == 422
    r = post(client, {"board": {"mana_pool": {"you": "{2}"}}, "cost": "{1}"})
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-choice")


def test_negative_life_with_an_unpayable_cost_is_an_answer(client: TestClient) -> None:
    """Issue 15: this was an assertion failing, a 500. CR 119.4: no life can be paid below 0 life."""
    board = {"players": {"you": {"life": -3}}, "permanents": [perm("forest", "Forest")]}
    r = post(client, {"board": board, "cost": "{G}{B/P}"})
    assert r.status_code == 200, r.text
    assert (r.json()["payable"], r.json()["life_paid"]) == (False, 0)
