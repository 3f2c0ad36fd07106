"""POST /v1/spells/cost and /v1/spells/cost/batch over HTTP, on the bundled catalogue."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

HORN_CLERIC = {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cleric"}}


def post(client: TestClient, body: dict[str, Any], path: str = "/v1/spells/cost") -> Any:
    return client.post(path, json=body)


def test_api_md_example(client: TestClient) -> None:
    r = post(client, {"board": {"permanents": [HORN_CLERIC]}, "spell": {"card": "Avacynian Priest"}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mana_cost"] == "{1}{W}"
    assert (body["mana_value"], body["mana_value_on_stack"], body["x_for_etb"]) == (2, 2, 0)
    assert body["total_cost"] == "{W}"
    assert body["warnings"] == []
    assert body["card"]["name"] == "Avacynian Priest" and body["card"]["oracle_id"]
    assert body["rules_edition"] and body["data_version"]
    base, red, total = body["steps"]
    assert base == {**base, "kind": "base", "result": "{1}{W}", "rule": "601.2f"}
    assert red == {
        **red,
        "kind": "reduction",
        "source": "horn",
        "card": "Herald's Horn",
        "amount": "{1}",
        "result": "{W}",
        "rule": "118.7a",
        "applied": True,
    }
    assert total["kind"] == "total" and total["result"] == "{W}"


def test_vorthos_and_printing(client: TestClient) -> None:
    board = {
        "permanents": [{"id": "v", "card": "Vorthos, Steward of Myth", "chosen": {"character": "Niv-Mizzet"}}]
    }
    r = post(client, {"board": board, "spell": {"card": "Izzet Charm"}})
    assert r.status_code == 200, r.text
    assert r.json()["total_cost"] == "{0}"
    art = {"card": "Savannah Lions", "printing": {"art_characters": ["Niv-Mizzet"]}}
    assert post(client, {"board": board, "spell": art}).json()["total_cost"] == "{0}"
    assert post(client, {"board": board, "spell": {"card": "Savannah Lions"}}).json()["total_cost"] == "{W}"


def test_x_alternative_additional_tax_and_inline_effects(client: TestClient) -> None:
    homebrew = {
        "name": "Homebrew Anvil",
        "type_line": "Artifact",
        "mana_cost": "{2}",
        "oracle_text": "Instant spells you cast cost {1} less to cast.",
    }
    spell = {
        "card": {"name": "X Burn", "mana_cost": "{X}{R}", "type_line": "Instant"},
        "x": 3,
        "additional_costs": ["{1}"],
        "cast_from": "command",
        "commander_casts": 1,
    }
    r = post(client, {"board": {"permanents": [{"id": "hb", "card": homebrew}]}, "spell": spell})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total_cost"] == "{5}{R}"
    assert (body["mana_value"], body["mana_value_on_stack"], body["x_for_etb"]) == (1, 4, 3)
    assert [s["kind"] for s in body["steps"]] == ["base", "additional", "increase", "reduction", "total"]
    free = post(
        client, {"spell": {**spell, "alternative_cost": "{0}", "additional_costs": [], "commander_casts": 0}}
    ).json()
    assert free["total_cost"] == "{0}" and free["x_for_etb"] == 0


def test_unknown_text_is_a_warning(client: TestClient) -> None:
    odd = {
        "name": "Odd Helper",
        "type_line": "Artifact",
        "mana_cost": "{2}",
        "oracle_text": "Spells you cast cost {2} less to cast for each electrical socket you can see.",
    }
    body = post(
        client,
        {"board": {"permanents": [{"id": "odd", "card": odd}]}, "spell": {"card": "Swords to Plowshares"}},
    ).json()
    assert body["total_cost"] == "{W}"
    assert [w["source"] for w in body["warnings"]] == ["odd"]


def test_mental_magic_cast_as(client: TestClient) -> None:
    board = {
        "players": {"you": {}, "opp": {}},
        "permanents": [
            {"id": "richard-1", "card": "Richard Garfield, Ph.D."},
            {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opp"},
        ],
    }
    ok = post(
        client,
        {
            "board": board,
            "spell": {
                "card": "Savannah Lions",
                "cast_as": {"card": "Swords to Plowshares", "via": "richard-1"},
            },
        },
    )
    assert ok.status_code == 200, ok.text
    assert ok.json()["total_cost"] == "{1}{W}"
    assert ok.json()["cast_as"]["name"] == "Swords to Plowshares"
    bad = post(
        client,
        {
            "board": board,
            "spell": {
                "card": "Llanowar Elves",
                "cast_as": {"card": "Swords to Plowshares", "via": "richard-1"},
            },
        },
    )
    assert bad.status_code == 422
    problem = bad.json()
    assert problem["type"].endswith("/problems/rules-violation")
    assert "mana costs differ" in problem["detail"]
    again = {
        "board": {
            "permanents": [
                {"id": "r", "card": "Richard Garfield, Ph.D.", "played_as": ["Swords to Plowshares"]}
            ]
        },
        "spell": {"card": "Savannah Lions", "cast_as": {"card": "Swords to Plowshares", "via": "r"}},
    }
    r = post(client, again)
    assert r.status_code == 422 and "already chosen" in r.json()["detail"]
    not_richard = post(
        client,
        {
            "board": board,
            "spell": {"card": "Savannah Lions", "cast_as": {"card": "Swords to Plowshares", "via": "thalia"}},
        },
    )
    assert not_richard.status_code == 422 and "not Richard" in not_richard.json()["detail"]


def test_bad_input_gives_clear_422s(client: TestClient) -> None:
    unknown = post(client, {"spell": {"card": "No Such Card Anywhere"}})
    assert unknown.status_code == 422 and unknown.json()["type"].endswith("/unknown-card")
    cat_warrior = post(
        client,
        {
            "board": {
                "permanents": [
                    {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cat Warrior"}}
                ]
            },
            "spell": {"card": "Savannah Lions"},
        },
    )
    assert cat_warrior.status_code == 422 and cat_warrior.json()["type"].endswith("/invalid-choice")
    malformed = post(client, {"spell": {"card": "Savannah Lions", "alternative_cost": "{1}{Q}"}})
    assert malformed.status_code == 422
    problem = malformed.json()
    assert problem["type"].endswith("/malformed-cost")
    assert problem["errors"][0]["symbol"] == "{Q}" and problem["errors"][0]["position"] == 3
    typo = post(client, {"spell": {"card": "Savannah Lions", "taped": True}})
    assert typo.status_code == 422
    too_big = post(client, {"spell": {"card": "Savannah Lions", "x": 1_000_001}})
    assert too_big.status_code == 422
    many = post(client, {"spell": {"card": "Savannah Lions", "additional_costs": ["{1}"] * 21}})
    assert many.status_code == 422
    split = post(client, {"spell": {"card": "Fire // Ice"}})
    assert split.status_code == 422 and split.json()["type"].endswith("/invalid-choice")
    assert post(client, {"spell": {"card": "Fire // Ice", "face": "Ice"}}).json()["total_cost"] == "{1}{U}"


def test_batch_one_bad_spell_does_not_fail_the_others(client: TestClient) -> None:
    spells = [
        {"card": "Avacynian Priest"},
        {"card": "No Such Card Anywhere"},
        {"card": "Fire // Ice"},
        {"card": "Llanowar Elves"},
    ]
    r = post(client, {"board": {"permanents": [HORN_CLERIC]}, "spells": spells}, "/v1/spells/cost/batch")
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert [d["index"] for d in data] == [0, 1, 2, 3]
    assert data[0]["result"]["total_cost"] == "{W}" and data[0].get("problem") is None
    assert data[1]["problem"]["type"].endswith("/unknown-card") and data[1].get("result") is None
    assert data[2]["problem"]["type"].endswith("/invalid-choice")
    assert data[3]["result"]["total_cost"] == "{G}"
    too_many = post(client, {"spells": [{"card": "Llanowar Elves"}] * 251}, "/v1/spells/cost/batch")
    assert too_many.status_code == 422


def test_command_zone_alias_and_commander_tax(client) -> None:
    for zone in ("command", "command_zone"):
        body = {
            "board": {"permanents": []},
            "spell": {"card": "Sol Ring", "cast_from": zone, "commander_casts": 2},
        }
        r = client.post("/v1/spells/cost", json=body)
        assert r.status_code == 200, r.text
        assert r.json()["total_cost"] == "{5}"  # {1} + {2} for each of two previous casts (CR 903.8)
        assert not any(w["text"] == "commander_casts" for w in r.json()["warnings"])


def test_commander_casts_not_given_from_the_command_zone_is_warned(client) -> None:
    """CR 903.8: "it costs an additional {2} for each previous time the player casting it has cast it from
    the command zone this game". Not stated: the first cast is assumed, and said (nothing silent); stated as
    0, or cast from the hand, nothing is assumed."""

    def cost(spell: dict[str, Any]) -> dict[str, Any]:
        r = client.post("/v1/spells/cost", json={"board": {"permanents": []}, "spell": spell})
        assert r.status_code == 200, r.text
        return r.json()

    unstated = cost({"card": "Sol Ring", "cast_from": "command"})
    assert unstated["total_cost"] == "{1}"
    assert [w["text"] for w in unstated["warnings"]] == ["commander_casts"]
    assert "taken as 0" in unstated["warnings"][0]["message"]
    assert cost({"card": "Sol Ring", "cast_from": "command", "commander_casts": 0})["warnings"] == []
    assert cost({"card": "Sol Ring"})["warnings"] == []


# --- board facts of API.md 1.1 ----

FACTS_BOARD: dict[str, Any] = {
    "permanents": [
        {
            "id": "key",
            "card": "Cloud Key",
            "counters": {"+1/+1": 1},
            "class_level": 3,
            "level": 2,
            "chosen": {"card_type": "Artifact", "colors": ["W", "U"], "imprinted": "Lightning Bolt"},
        }
    ],
    "players": {
        "you": {
            "commander": ["Animar, Soul of Elements"],
            "graveyard": ["Lightning Bolt"],
            "exile": [],
            "hand": ["Llanowar Elves"],
            "this_turn": {"spells_cast": 1, "kicked_spells_cast": 0},
        },
        "opponent": {"hand_size": 7},
    },
}


def test_board_facts_are_accepted(client: TestClient) -> None:
    """Every fact of the board is read, and the facts that matter act: Cloud Key with "Artifact" chosen
    ("Spells you cast of the chosen type cost {1} less to cast.") takes {1} off Juggernaut ({4}, an
    artifact spell with a generic cost to reduce) and nothing off Lightning Bolt, an instant (CR 601.2f)."""
    r = post(client, {"board": FACTS_BOARD, "spell": {"card": "Juggernaut"}})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["total_cost"] == "{3}"
    reductions = [s for s in answer["steps"] if s["kind"] == "reduction"]
    assert [(s["source"], s["amount"]) for s in reductions] == [("key", "{1}")], answer["steps"]
    spell = {"card": "Lightning Bolt", "targets": ["key", "opponent"]}
    r = post(client, {"board": FACTS_BOARD, "spell": spell})
    assert r.status_code == 200, r.text
    assert r.json()["total_cost"] == "{R}"
    assert not [s for s in r.json()["steps"] if s["kind"] == "reduction"]


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"counters": {"+1/+1": -1}}, ["permanents", 0, "counters", "+1/+1"]),
        ({"counters": {"Charge": 1}}, ["permanents", 0, "counters", "Charge", "[key]"]),
        ({"counters": {"charge": 1_000_001}}, ["permanents", 0, "counters", "charge"]),
        ({"class_level": 4}, ["permanents", 0, "class_level"]),
        ({"level": -1}, ["permanents", 0, "level"]),
        ({"chosen": {"card_type": "Elf"}}, ["permanents", 0, "chosen", "card_type"]),
        ({"chosen": {"colors": ["W", "W"]}}, ["permanents", 0, "chosen", "colors"]),
        ({"chosen": {"colors": ["P"]}}, ["permanents", 0, "chosen", "colors", 0]),
    ],
)
def test_bad_permanent_facts_are_422_naming_the_field(
    client: TestClient, change: dict[str, Any], loc: list[Any]
) -> None:
    board = {"permanents": [{"id": "key", "card": "Cloud Key", **change}]}
    r = post(client, {"board": board, "spell": {"card": "Lightning Bolt"}})
    assert r.status_code == 422, r.text
    locs = [e["loc"] for e in r.json()["errors"]]
    assert ["body", "board", *loc] in locs, locs


@pytest.mark.parametrize(
    ("player", "loc"),
    [
        ({"graveyard": ["Lightning Bolt"] * 1001}, ["graveyard"]),
        ({"hand_size": 1001}, ["hand_size"]),
        ({"this_turn": {"spells_cast": -1}}, ["this_turn", "spells_cast"]),
        ({"this_turn": {"dragons_cast": 1}}, ["this_turn", "dragons_cast"]),
        ({"commander": ["Lightning Bolt"] * 5}, ["commander"]),
    ],
)
def test_bad_player_facts_are_422_naming_the_field(
    client: TestClient, player: dict[str, Any], loc: list[Any]
) -> None:
    r = post(client, {"board": {"players": {"you": player}}, "spell": {"card": "Lightning Bolt"}})
    assert r.status_code == 422, r.text
    assert ["body", "board", "players", "you", *loc] in [e["loc"] for e in r.json()["errors"]]


def test_unknown_zone_card_is_unknown_card_at_its_path(client: TestClient) -> None:
    board = {"players": {"you": {"graveyard": ["Lightning Bolt", "Lightening Bolt"]}}}
    r = post(client, {"board": board, "spell": {"card": "Lightning Bolt"}})
    assert r.status_code == 404 or r.status_code == 422, r.text
    assert r.json()["type"].endswith("unknown-card")
    assert r.json()["errors"][0]["loc"] == ["body", "board", "players", "you", "graveyard", 1]


def test_a_target_not_on_the_board_is_422_at_its_index(client: TestClient) -> None:
    spell = {"card": "Lightning Bolt", "targets": ["key", "nobody"]}
    r = post(client, {"board": FACTS_BOARD, "spell": spell})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"] == ["body", "spell", "targets", 1]
    assert "601.2c" in r.json()["detail"]
    too_many = {"card": "Lightning Bolt", "targets": ["key"] * 101}
    r = post(client, {"board": FACTS_BOARD, "spell": too_many})
    assert r.status_code == 422 and r.json()["errors"][0]["loc"] == ["body", "spell", "targets"]


# --- ways to cast and optional costs (API.md 1.1) ----

DEEP_ANALYSIS = {
    "name": "Deep Analysis",
    "mana_cost": "{3}{U}",
    "type_line": "Sorcery",
    "oracle_text": "Target player draws two cards.\nFlashback—{1}{U}, Pay 3 life. (You may cast this card "
    "from your graveyard for its flashback cost. Then exile it.)",
}
RITE = {
    "name": "Rite of Replication",
    "mana_cost": "{2}{U}{U}",
    "type_line": "Sorcery",
    "oracle_text": "Kicker {5} (You may pay an additional {5} as you cast this spell.)\nCreate a token "
    "that's a copy of target creature. If this spell was kicked, create five of those tokens instead.",
}


def test_flashback_from_the_graveyard_is_its_only_cost(client: TestClient) -> None:
    r = post(client, {"spell": {"card": DEEP_ANALYSIS, "cast_from": "graveyard"}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total_cost"] == "{1}{U}" and body["method"] == "flashback"
    assert body["other_costs"] == [{"text": "Pay 3 life", "life": 3}]
    assert body["ways"] == [
        {
            "method": "flashback",
            "rule": "702.34a",
            "optional_costs": [],
            "total_cost": "{1}{U}",
            "other_costs": [{"text": "Pay 3 life", "life": 3}],
            "available": True,
        }
    ]
    assert body["steps"][0]["kind"] == "alternative" and body["steps"][0]["rule"] == "702.34a"
    from_hand = post(client, {"spell": {"card": DEEP_ANALYSIS}}).json()
    assert from_hand["total_cost"] == "{3}{U}" and from_hand["other_costs"] == []
    assert [w["method"] for w in from_hand["ways"]] == ["normal"]


def test_kicker_and_the_ways_it_offers(client: TestClient) -> None:
    kicked = {"card": RITE, "optional_costs": [{"keyword": "kicker"}]}
    r = post(client, {"spell": kicked})
    assert r.status_code == 200, r.text
    assert r.json()["total_cost"] == "{7}{U}{U}"
    assert r.json()["ways"] == [
        {
            "method": "normal",
            "rule": "601.2f",
            "optional_costs": [],
            "total_cost": "{2}{U}{U}",
            "other_costs": [],
            "available": True,
        },
        {
            "method": "normal",
            "rule": "601.2f",
            "optional_costs": [{"keyword": "kicker"}],
            "total_cost": "{7}{U}{U}",
            "other_costs": [],
            "available": True,
        },
    ]


def test_increases_apply_to_alternative_costs(client: TestClient) -> None:
    board = {"permanents": [{"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opp"}]}
    r = post(client, {"board": board, "spell": {"card": DEEP_ANALYSIS, "cast_from": "graveyard"}})
    assert r.status_code == 200, r.text
    assert r.json()["total_cost"] == "{2}{U}"


@pytest.mark.parametrize(
    ("spell", "rule"),
    [
        ({"card": DEEP_ANALYSIS, "method": "flashback"}, "702.34a"),  # not from the hand
        ({"card": RITE, "method": "flashback"}, "702.34a"),  # the card has none
        ({"card": RITE, "method": "overload"}, "702.96a"),
        ({"card": RITE, "optional_costs": [{"keyword": "buyback"}]}, "702.27a"),
        ({"card": RITE, "optional_costs": [{"keyword": "kicker", "times": 2}]}, "702.33a"),
        ({"card": DEEP_ANALYSIS, "cast_from": "graveyard", "method": "normal"}, "702.34a"),
        ({"card": DEEP_ANALYSIS, "cast_from": "graveyard", "alternative_cost": "{0}"}, "118.9a"),
    ],
)
def test_a_way_the_card_lacks_or_from_the_wrong_zone_is_a_rules_violation(
    client: TestClient, spell: dict[str, Any], rule: str
) -> None:
    r = post(client, {"spell": spell})
    assert r.status_code == 422, r.text
    assert r.json()["type"].endswith("rules-violation") and r.json()["rule"] == rule


def test_bad_method_and_optional_cost_shapes_are_422(client: TestClient) -> None:
    for spell, loc in [
        ({"card": RITE, "method": "Flash Back!"}, ["body", "spell", "method"]),
        ({"card": RITE, "optional_costs": [{"keyword": "kicker", "times": 101}]}, None),
        ({"card": RITE, "optional_costs": [{"keyword": "kicker"}] * 21}, ["body", "spell", "optional_costs"]),
    ]:
        r = post(client, {"spell": spell})
        assert r.status_code == 422, r.text
        if loc is not None:
            assert r.json()["errors"][0]["loc"] == loc


# --- ways from the card's text and from the board (API.md 1.2) ----


def test_an_alternative_cost_written_in_the_text_is_a_way(client: TestClient) -> None:
    # Force of Will: "You may pay 1 life and exile a blue card from your hand rather than pay this spell's
    # mana cost." (CR 118.9)
    r = post(client, {"spell": {"card": "Force of Will"}})
    assert r.status_code == 200, r.text
    ways = r.json()["ways"]
    assert ways[1] == {
        "method": "alternative",
        "which": 1,
        "rule": "118.9",
        "optional_costs": [],
        "total_cost": "{0}",
        "other_costs": [{"text": "Pay 1 life", "life": 1}, {"text": "Exile a blue card from your hand"}],
        "available": True,
    }
    chosen = post(client, {"spell": {"card": "Force of Will", "method": "alternative", "which": 1}}).json()
    assert (chosen["total_cost"], chosen["method"], chosen["which"]) == ("{0}", "alternative", 1)
    assert chosen["steps"][0]["kind"] == "alternative" and chosen["steps"][0]["rule"] == "118.9"


def test_a_way_a_permanent_grants_names_it(client: TestClient) -> None:
    board = {"permanents": [{"id": "omni", "card": "Omniscience"}]}
    r = post(client, {"board": board, "spell": {"card": "Emrakul, the Aeons Torn"}})
    assert r.status_code == 200, r.text
    assert {
        "method": "alternative",
        "granted_by": "omni",
        "rule": "118.9",
        "total_cost": "{0}",
    }.items() <= r.json()["ways"][1].items()
    chosen = {"card": "Emrakul, the Aeons Torn", "method": "alternative", "granted_by": "omni"}
    body = post(client, {"board": board, "spell": chosen}).json()
    assert (body["total_cost"], body["granted_by"]) == ("{0}", "omni")


def test_escape_granted_by_the_board_is_not_refused_as_not_in_its_text(client: TestClient) -> None:
    # Underworld Breach: "Each nonland card in your graveyard has escape. The escape cost is equal to the
    # card's mana cost plus exile three other cards from your graveyard." (CR 702.138a)
    board = {"permanents": [{"id": "breach", "card": "Underworld Breach"}]}
    spell = {"card": "Brainstorm", "cast_from": "graveyard", "method": "escape"}
    r = post(client, {"board": board, "spell": spell})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["total_cost"], body["method"], body["granted_by"]) == ("{U}", "escape", "breach")
    assert body["other_costs"] == [{"text": "Exile three other cards from your graveyard"}]
    refused = post(client, {"spell": spell})
    assert refused.status_code == 422 and refused.json()["rule"] == "702.138a"
    assert "no permanent or effect on this board grants it" in refused.json()["detail"]


def test_a_lasting_effect_on_the_board_grants_flashback_to_its_target(client: TestClient) -> None:
    board = {
        "effects": [{"id": "snap", "card": "Snapcaster Mage", "chosen": {"card_name": "Lightning Bolt"}}]
    }
    bolt = post(
        client, {"board": board, "spell": {"card": "Lightning Bolt", "cast_from": "graveyard"}}
    ).json()
    assert (bolt["total_cost"], bolt["method"], bolt["granted_by"]) == ("{R}", "flashback", "snap")
    other = post(client, {"board": board, "spell": {"card": "Counterspell", "cast_from": "graveyard"}})
    assert other.status_code == 422 and other.json()["rule"] == "601.3"


def test_casting_from_the_library_needs_a_permission(client: TestClient) -> None:
    spell = {"card": "Tarmogoyf", "cast_from": "library"}
    assert post(client, {"spell": spell}).json()["rule"] == "601.3"
    board = {"permanents": [{"id": "citadel", "card": "Bolas's Citadel"}]}
    body = post(client, {"board": board, "spell": spell}).json()
    assert (body["total_cost"], body["granted_by"]) == ("{0}", "citadel")
    assert body["other_costs"] == [{"text": "Pay 2 life", "life": 2}]


@pytest.mark.parametrize(
    ("body", "status", "loc"),
    [
        (
            {"spell": {"card": "Force of Will", "method": "alternative", "which": 2}},
            422,
            ["body", "spell", "which"],
        ),
        ({"spell": {"card": "Force of Will", "which": 11}}, 422, ["body", "spell", "which"]),
        (
            {
                "board": {"effects": [{"id": "x", "card": "Past in Flames"}] * 2},
                "spell": {"card": "Counterspell"},
            },
            422,
            ["body", "board", "effects", 1, "id"],
        ),
        (
            {
                "board": {"effects": [{"id": "x", "card": "No Such Card At All"}]},
                "spell": {"card": "Counterspell"},
            },
            422,
            ["body", "board", "effects", 0, "card"],
        ),
    ],
)
def test_bad_ways_input_is_a_clear_422(
    client: TestClient, body: dict[str, Any], status: int, loc: list[Any]
) -> None:
    r = post(client, body)
    assert r.status_code == status, r.text
    assert r.json()["errors"][0]["loc"] == loc


def test_granted_ways_reach_payments_and_batches(client: TestClient) -> None:
    board = {"permanents": [{"id": "citadel", "card": "Bolas's Citadel"}, {"id": "forest", "card": "Forest"}]}
    spell = {"card": "Tarmogoyf", "cast_from": "library"}
    plan = client.post("/v1/payments/plan", json={"board": board, "player": "you", "spell": spell})
    assert plan.status_code == 200, plan.text
    assert plan.json()["payable"] is True and plan.json()["cost"] == "{0}"
    batch = post(
        client,
        {"board": board, "spells": [spell, {"card": "Lightning Bolt", "cast_from": "graveyard"}]},
        "/v1/spells/cost/batch",
    ).json()["data"]
    assert batch[0]["result"]["granted_by"] == "citadel"
    assert batch[1]["problem"]["rule"] == "601.3"


def test_an_emblem_is_stated_as_an_effect_with_its_text(client: TestClient) -> None:
    # Tamiyo, Field Researcher's emblem: "You may cast spells from your hand without paying their mana costs."
    emblem = {
        "name": "Tamiyo's emblem",
        "type_line": "Emblem",
        "oracle_text": "You may cast spells from your hand without paying their mana costs.",
    }
    board = {"effects": [{"id": "emblem", "card": emblem}]}
    body = post(
        client, {"board": board, "spell": {"card": "Emrakul, the Aeons Torn", "method": "alternative"}}
    )
    assert body.status_code == 200, body.text
    assert (body.json()["total_cost"], body.json()["granted_by"]) == ("{0}", "emblem")


def test_seal_of_the_guildpact_without_chosen_colors_is_warned(client) -> None:
    """Seal of the Guildpact: "Each spell you cast costs {1} less to cast for each of the chosen colors it
    is." Sphinx of the Steel Wind {5}{W}{U}{B} with white and blue chosen is both: {2} less (CR 601.2f).
    With no colors chosen, nothing is taken off, and a warning says so (nothing silent)."""

    def cost(chosen: dict[str, Any]) -> dict[str, Any]:
        seal = {"id": "seal", "card": "Seal of the Guildpact", "chosen": chosen}
        body = {"board": {"permanents": [seal]}, "spell": {"card": "Sphinx of the Steel Wind"}}
        r = client.post("/v1/spells/cost", json=body)
        assert r.status_code == 200, r.text
        return r.json()

    chosen = cost({"colors": ["W", "U"]})
    assert chosen["total_cost"] == "{3}{W}{U}{B}" and chosen["warnings"] == []
    unchosen = cost({})
    assert unchosen["total_cost"] == "{5}{W}{U}{B}"
    assert [(w["source"], w["text"]) for w in unchosen["warnings"]] == [("seal", "chosen.colors")]
