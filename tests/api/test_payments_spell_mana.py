"""payments/plan with mana only a spell can use (CR 106.6), convoke, improvise and delve; warnings.

Cards the bundled catalogue lacks are given inline with their printed text. Expectations are worked out
from that text and the rules cited."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PATH = "/v1/payments/plan"

CAVERN = {
    "name": "Cavern of Souls",
    "type_line": "Land",
    "oracle_text": "As Cavern of Souls enters the battlefield, choose a creature type.\n{T}: Add {C}.\n"
    "{T}: Add one mana of any color. Spend this mana only to cast a creature spell of the chosen type, "
    "and that spell can't be countered.",
}
TEMPLE = {
    "name": "Eldrazi Temple",
    "type_line": "Land",
    "oracle_text": "{T}: Add {C}.\n{T}: Add {C}{C}. Spend this mana only to cast colorless Eldrazi spells or "
    "activate abilities of colorless Eldrazi.",
}
TKS = {"name": "Thought-Knot Seer", "mana_cost": "{3}{C}", "type_line": "Creature — Eldrazi"}
STOKE = {
    "name": "Stoke the Flames",
    "mana_cost": "{2}{R}{R}",
    "type_line": "Instant",
    "oracle_text": "Convoke\nStoke the Flames deals 4 damage to any target.",
    "keywords": ["Convoke"],
}
GOBLIN = {"name": "Raging Goblin", "mana_cost": "{R}", "type_line": "Creature — Goblin Berserker"}
ORNITHOPTER = {"name": "Ornithopter", "mana_cost": "{0}", "type_line": "Artifact Creature — Thopter"}
REVERSE = {
    "name": "Reverse Engineer",
    "mana_cost": "{3}{U}{U}",
    "type_line": "Sorcery",
    "oracle_text": "Improvise\nDraw three cards.",
    "keywords": ["Improvise"],
}
CRUISE = {
    "name": "Treasure Cruise",
    "mana_cost": "{7}{U}",
    "type_line": "Sorcery",
    "oracle_text": "Delve\nDraw three cards.",
    "keywords": ["Delve"],
}


def perm(pid: str, card: str | dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"id": pid, "card": card, **kw}


def post(client: TestClient, body: dict[str, Any]) -> Any:
    r = client.post(PATH, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_cavern_of_souls_pays_for_a_creature_of_the_chosen_type(client: TestClient) -> None:
    board = {"permanents": [perm("cavern", CAVERN, chosen={"creature_type": "Elf"})]}
    body = post(client, {"board": board, "spell": {"card": "Llanowar Elves"}})
    assert body["payable"] is True, body
    assert [(s["permanent"], s["ability"], s["adds"]) for s in body["plan"]] == [("cavern", 1, "{G}")]
    # Lightning Bolt is no Elf creature spell: only {C} is left (CR 106.6).
    bolt = post(client, {"board": board, "spell": {"card": "Lightning Bolt"}})
    assert (bolt["payable"], bolt["short"]) == (False, "{R}")
    # A bare cost: the restricted mana is not used, and the answer says so.
    bare = post(client, {"board": board, "cost": "{G}"})
    assert (bare["payable"], bare["short"]) == (False, "{G}")
    assert any(w["source"] == "cavern" and "spell" in w["message"] for w in bare["warnings"])


def test_cavern_without_a_chosen_type_warns(client: TestClient) -> None:
    board = {"permanents": [perm("cavern", CAVERN)]}
    body = post(client, {"board": board, "spell": {"card": "Llanowar Elves"}})
    assert body["payable"] is False and body["short"] == "{G}"
    assert any(w["source"] == "cavern" for w in body["warnings"])


def test_mishras_workshop_pays_artifacts_but_never_a_signet(client: TestClient) -> None:
    # Workshop {C}{C}{C} only for artifact spells; Izzet Signet's {1} must come from other mana.
    board = {"permanents": [perm("shop", "Mishra's Workshop"), perm("signet", "Izzet Signet")]}
    body = post(client, {"board": board, "spell": {"card": "Solemn Simulacrum"}})
    assert (body["payable"], body["short"]) == (False, "{1}")
    board["permanents"].append(perm("island", "Island"))
    body = post(client, {"board": board, "spell": {"card": "Solemn Simulacrum"}})
    assert body["payable"] is True, body
    # {4}: the Workshop's three and the Island's one; the Signet, fed the Island, is not needed.
    assert sorted(s["permanent"] for s in body["plan"]) == ["island", "shop"]
    # Batterskull {5}: the Island pays the Signet's {1}, and the Signet's {U}{R} the rest.
    body = post(client, {"board": board, "spell": {"card": "Batterskull"}})
    assert body["payable"] is True, body
    steps = {s["permanent"]: s for s in body["plan"]}
    assert steps["shop"]["adds"] == "{C}{C}{C}" and steps["signet"]["adds"] == "{U}{R}"
    signet_index = [s["permanent"] for s in body["plan"]].index("signet")
    payers = [p["source"] for p in body["payments"] if p["pays"] == signet_index]
    assert payers == ["island"]
    # Not an artifact: Grizzly Bears ({1}{G}) cannot use the Workshop's mana.
    bears = post(client, {"board": board, "spell": {"card": "Grizzly Bears"}})
    assert bears["payable"] is False


def test_eldrazi_temple_pays_thought_knot_seer(client: TestClient) -> None:
    board = {"permanents": [perm("temple", TEMPLE), perm("w1", "Wastes"), perm("w2", "Wastes")]}
    body = post(client, {"board": board, "spell": {"card": TKS}})
    assert body["payable"] is True and body["cost"] == "{3}{C}", body
    assert {s["permanent"]: s["adds"] for s in body["plan"]}["temple"] == "{C}{C}"
    bare = post(client, {"board": board, "cost": "{3}{C}"})
    assert (bare["payable"], bare["short"]) == (False, "{1}")


def test_convoke_taps_creatures_even_new_ones(client: TestClient) -> None:
    board = {
        "permanents": [
            perm("g1", GOBLIN, controlled_since_turn_began=False),
            perm("g2", GOBLIN),
            perm("bear", "Grizzly Bears"),
            perm("forest", "Forest"),
            perm("tapped", "Grizzly Bears", tapped=True),
        ]
    }
    body = post(client, {"board": board, "spell": {"card": STOKE}})
    assert body["payable"] is True, body
    convoked = sorted((s["permanent"], s["convoke"]) for s in body["plan"] if s["convoke"])
    assert convoked == [("bear", "{1}"), ("g1", "{R}"), ("g2", "{R}")]
    assert [s["permanent"] for s in body["plan"] if s["adds"]] == ["forest"]
    board["permanents"].pop(3)  # no Forest: three untapped creatures for four mana
    short = post(client, {"board": board, "spell": {"card": STOKE}})
    assert (short["payable"], short["short"]) == (False, "{1}")


def test_improvise_taps_artifacts_for_generic_only(client: TestClient) -> None:
    board = {
        "permanents": [perm("i1", "Island"), perm("i2", "Island")]
        + [perm(f"o{i}", ORNITHOPTER) for i in range(3)]
    }
    body = post(client, {"board": board, "spell": {"card": REVERSE}})
    assert body["payable"] is True, body
    assert sorted(s["improvise"] for s in body["plan"] if s["improvise"]) == ["{1}", "{1}", "{1}"]
    # Improvise never pays {U} (CR 702.126a): one Island and four artifacts leave {U} missing.
    board = {"permanents": [perm("i1", "Island")] + [perm(f"o{i}", ORNITHOPTER) for i in range(4)]}
    body = post(client, {"board": board, "spell": {"card": REVERSE}})
    assert (body["payable"], body["short"]) == (False, "{U}")


def test_delve_exiles_graveyard_cards(client: TestClient) -> None:
    grave = ["Lightning Bolt"] * 7
    board = {"permanents": [perm("i1", "Island")], "players": {"you": {"graveyard": grave}}}
    body = post(client, {"board": board, "spell": {"card": CRUISE}})
    assert body["payable"] is True, body
    assert [s["delve"] for s in body["plan"] if s["delve"]] == ["Lightning Bolt"] * 7
    board["players"]["you"]["graveyard"] = grave[:5]
    body = post(client, {"board": board, "spell": {"card": CRUISE}})
    assert (body["payable"], body["short"]) == (False, "{2}")
