"""Issue 10: the conditions that cost effects read from the board (class level, counters, whose turn,
targets) and granted keywords, through spells/cost. Expected totals are worked out from the card texts."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

BARD_CLASS = {
    "name": "Bard Class",
    "mana_cost": "{R}{G}",
    "type_line": "Enchantment — Class",
    "oracle_text": "(Gain the next level as a sorcery to add its ability.)\nLegendary creatures you control "
    "enter the battlefield with an additional +1/+1 counter on them.\n{R}{G}: Level 2\nLegendary spells you "
    "cast cost {R}{G} less to cast. This effect reduces only the amount of colored mana you pay.\n{3}{R}{G}: "
    "Level 3\nWhenever you cast a legendary spell, exile the top two cards of your library. You may play "
    "them this turn.",
}
DEFENSE_GRID = {
    "name": "Defense Grid",
    "mana_cost": "{2}",
    "type_line": "Artifact",
    "oracle_text": "Each spell costs {3} more to cast except during its controller's turn.",
}
ICEFALL_REGENT = {
    "name": "Icefall Regent",
    "mana_cost": "{3}{U}{U}",
    "type_line": "Creature — Dragon",
    "oracle_text": "Flying\nWhen Icefall Regent enters the battlefield, tap target creature an opponent "
    "controls. That creature doesn't untap during its controller's untap step for as long as you control "
    "Icefall Regent.\nSpells your opponents cast that target Icefall Regent cost {2} more to cast.",
}
MYCOSYNTH_GOLEM = {
    "name": "Mycosynth Golem",
    "mana_cost": "{11}",
    "type_line": "Artifact Creature — Golem",
    "oracle_text": "Affinity for artifacts (This spell costs {1} less to cast for each artifact you "
    "control.)\nArtifact creature spells you cast have affinity for artifacts. (They cost {1} less to cast "
    "for each artifact you control.)",
}
TEZZERET = {
    "name": "Tezzeret, Master of the Bridge",
    "mana_cost": "{4}{U}{B}",
    "type_line": "Legendary Planeswalker — Tezzeret",
    "oracle_text": "Creature and planeswalker spells you cast have affinity for artifacts.\n+2: Tezzeret, "
    "Master of the Bridge deals X damage to each opponent, where X is the number of artifacts you control. "
    "You gain X life.",
}
CHIEF_ENGINEER = {
    "name": "Chief Engineer",
    "mana_cost": "{1}{U}",
    "type_line": "Creature — Vedalken Artificer",
    "oracle_text": "Artifact spells you cast have convoke.",
}
ORNITHOPTER = {"name": "Ornithopter", "mana_cost": "{0}", "type_line": "Artifact Creature — Thopter"}


def cost(client: TestClient, permanents: list[dict[str, Any]], spell: dict[str, Any], **board: Any) -> Any:
    body = {"board": {"permanents": permanents, **board}, "spell": spell}
    r = client.post("/v1/spells/cost", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_bard_class_reduction_needs_level_two(client: TestClient) -> None:
    # Bard Class level 2: "Legendary spells you cast cost {R}{G} less to cast" (colored only, CR 716.2a).
    # Jodah, Archmage Eternal is {1}{U}{R}{W}: at level 1 nothing; at level 2 the {R} goes ({G} has nothing).
    spell = {"card": "Jodah, Archmage Eternal"}
    one = cost(client, [{"id": "bard", "card": BARD_CLASS, "class_level": 1}], spell)
    assert one["total_cost"] == "{1}{U}{R}{W}"
    two = cost(client, [{"id": "bard", "card": BARD_CLASS, "class_level": 2}], spell)
    assert two["total_cost"] == "{1}{U}{W}"


def test_bard_class_level_not_given_is_level_one_with_a_warning(client: TestClient) -> None:
    r = cost(client, [{"id": "bard", "card": BARD_CLASS}], {"card": "Jodah, Archmage Eternal"})
    assert r["total_cost"] == "{1}{U}{R}{W}"
    assert any("class_level" in w["message"] for w in r["warnings"]), r["warnings"]


def test_animar_counts_its_counters(client: TestClient) -> None:
    # "Creature spells you cast cost {1} less to cast for each +1/+1 counter on Animar."
    animar = {"id": "animar", "card": "Animar, Soul of Elements", "counters": {"+1/+1": 3}}
    r = cost(client, [animar], {"card": "Craw Wurm"})  # {4}{G}{G}
    assert r["total_cost"] == "{1}{G}{G}"
    r = cost(client, [animar], {"card": "Lightning Bolt"})  # not a creature spell
    assert r["total_cost"] == "{R}"
    none = cost(client, [{"id": "animar", "card": "Animar, Soul of Elements"}], {"card": "Craw Wurm"})
    assert none["total_cost"] == "{4}{G}{G}"
    assert any("counters" in w["message"] for w in none["warnings"]), none["warnings"]


def test_defense_grid_only_outside_the_casters_turn(client: TestClient) -> None:
    # "Each spell costs {3} more to cast except during its controller's turn."
    grid = [{"id": "grid", "card": DEFENSE_GRID, "controller": "opp"}]
    players = {"you": {}, "opp": {}}
    mine = cost(client, grid, {"card": "Lightning Bolt"}, players=players, active_player="you")
    assert mine["total_cost"] == "{R}"
    theirs = cost(client, grid, {"card": "Lightning Bolt"}, players=players, active_player="opp")
    assert theirs["total_cost"] == "{3}{R}"


def test_icefall_regent_taxes_spells_that_target_it(client: TestClient) -> None:
    # "Spells your opponents cast that target Icefall Regent cost {2} more to cast."
    regent = [{"id": "regent", "card": ICEFALL_REGENT, "controller": "opp"}]
    players = {"you": {}, "opp": {}}
    aimed = cost(client, regent, {"card": "Lightning Bolt", "targets": ["regent"]}, players=players)
    assert aimed["total_cost"] == "{2}{R}"
    elsewhere = cost(client, regent, {"card": "Lightning Bolt", "targets": ["opp"]}, players=players)
    assert elsewhere["total_cost"] == "{R}"


def test_granted_affinity_counts_like_printed(client: TestClient) -> None:
    # Mycosynth Golem: "Artifact creature spells you cast have affinity for artifacts." With the Golem and
    # two Ornithopters (three artifacts), Myr Enforcer ({7}, its own affinity too) costs 7 - 3 - 3 = {1}.
    board = [
        {"id": "golem", "card": MYCOSYNTH_GOLEM},
        {"id": "o1", "card": ORNITHOPTER},
        {"id": "o2", "card": ORNITHOPTER},
    ]
    assert cost(client, board, {"card": "Myr Enforcer"})["total_cost"] == "{1}"
    # Frogmite ({4}, affinity): 4 - 3 - 3 is never below {0} (CR 601.2f)
    assert cost(client, board, {"card": "Frogmite"})["total_cost"] == "{0}"
    # Not an artifact creature spell: untouched
    assert cost(client, board, {"card": "Craw Wurm"})["total_cost"] == "{4}{G}{G}"


def test_granted_affinity_tezzeret(client: TestClient) -> None:
    # "Creature and planeswalker spells you cast have affinity for artifacts." One artifact: {1} less.
    board = [{"id": "tez", "card": TEZZERET}, {"id": "o1", "card": ORNITHOPTER}]
    assert cost(client, board, {"card": "Craw Wurm"})["total_cost"] == "{3}{G}{G}"
    assert cost(client, board, {"card": "Lightning Bolt"})["total_cost"] == "{R}"


def test_granted_convoke_pays_and_leaves_the_total(client: TestClient) -> None:
    # Chief Engineer: "Artifact spells you cast have convoke." (CR 613.1f, 702.51a) Convoke is a way to
    # pay: Myr Enforcer's total stays {7}, and the plan taps the Engineer and two Ornithopters (three
    # creatures, each for {1}) beside two Forests.
    board = [
        {"id": "chief", "card": CHIEF_ENGINEER},
        {"id": "o1", "card": ORNITHOPTER},
        {"id": "o2", "card": ORNITHOPTER},
        *({"id": f"f{i}", "card": "Forest"} for i in range(2)),
    ]
    r = cost(client, board[:1], {"card": "Myr Enforcer"})
    assert r["total_cost"] == "{7}" and not r["warnings"], r
    # Myr Enforcer has affinity for artifacts: two Ornithopters make it {5}.
    plan = client.post(
        "/v1/payments/plan", json={"board": {"permanents": board}, "spell": {"card": "Myr Enforcer"}}
    )
    body = plan.json()
    assert body["payable"] is True and body["cost"] == "{5}", body
    convoked = sorted(s["permanent"] for s in body["plan"] if s["convoke"])
    assert convoked == ["chief", "o1", "o2"], body["plan"]
    # Not an artifact spell: no convoke
    bears = client.post(
        "/v1/payments/plan", json={"board": {"permanents": board}, "spell": {"card": "Craw Wurm"}}
    )
    assert not [s for s in bears.json()["plan"] if s.get("convoke")]


GHOULTREE = {
    "name": "Ghoultree",
    "mana_cost": "{7}{G}",
    "type_line": "Creature — Zombie Treefolk",
    "oracle_text": "This spell costs {1} less to cast for each creature card in your graveyard.",
}
FIREBALL = {
    "name": "Fireball",
    "mana_cost": "{X}{R}",
    "type_line": "Sorcery",
    "oracle_text": "This spell costs {1} more to cast for each target beyond the first.\nFireball deals X "
    "damage divided evenly, rounded down, among any number of targets.",
}


def test_graveyard_count(client: TestClient) -> None:
    # Two creature cards (Llanowar Elves, Craw Wurm) and one instant: {7}{G} - 2 = {5}{G}.
    players = {"you": {"graveyard": ["Llanowar Elves", "Craw Wurm", "Lightning Bolt"]}}
    r = cost(client, [], {"card": GHOULTREE}, players=players)
    assert r["total_cost"] == "{5}{G}"
    unknown = cost(client, [], {"card": GHOULTREE})
    assert unknown["total_cost"] == "{7}{G}"
    assert any("graveyard" in w["message"] for w in unknown["warnings"]), unknown["warnings"]


def test_targets_beyond_the_first(client: TestClient) -> None:
    # X=2 with three targets: {2}{R} + {1} for each of the two targets beyond the first = {4}{R}.
    board = [{"id": "a", "card": "Llanowar Elves"}, {"id": "b", "card": "Llanowar Elves"}]
    three = cost(client, board, {"card": FIREBALL, "x": 2, "targets": ["a", "b", "you"]})
    assert three["total_cost"] == "{4}{R}"
    one = cost(client, board, {"card": FIREBALL, "x": 2, "targets": ["a"]})
    assert one["total_cost"] == "{2}{R}"


CONDUIT_OF_RUIN = {
    "name": "Conduit of Ruin",
    "mana_cost": "{6}",
    "type_line": "Creature — Eldrazi",
    "oracle_text": "The first creature spell you cast each turn costs {2} less to cast.",
}
DEMILICH = {
    "name": "Demilich",
    "mana_cost": "{U}{U}{U}{U}",
    "type_line": "Creature — Skeleton Wizard",
    "oracle_text": "This spell costs {U} less to cast for each instant and sorcery spell you've cast this "
    "turn.",
}
THRASTA = {
    "name": "Thrasta, Tempest's Roar",
    "mana_cost": "{10}{G}{G}",
    "type_line": "Legendary Creature — Dinosaur",
    "oracle_text": "This spell costs {3} less to cast for each other spell cast this turn.\nTrample, haste",
}


def test_first_creature_spell_each_turn(client: TestClient) -> None:
    conduit = [{"id": "conduit", "card": CONDUIT_OF_RUIN}]
    first = cost(
        client, conduit, {"card": "Craw Wurm"}, players={"you": {"this_turn": {"creature_spells_cast": 0}}}
    )
    assert first["total_cost"] == "{2}{G}{G}"  # {4}{G}{G} - {2}
    second = cost(
        client, conduit, {"card": "Craw Wurm"}, players={"you": {"this_turn": {"creature_spells_cast": 1}}}
    )
    assert second["total_cost"] == "{4}{G}{G}"
    unknown = cost(client, conduit, {"card": "Craw Wurm"})
    assert unknown["total_cost"] == "{2}{G}{G}"  # not given: taken as 0 earlier creature spells, and warned
    assert any("creature_spells_cast" in w["message"] for w in unknown["warnings"]), unknown["warnings"]


def test_counts_of_spells_cast_this_turn(client: TestClient) -> None:
    you = {"this_turn": {"instant_sorcery_spells_cast": 3}}
    r = cost(client, [], {"card": DEMILICH}, players={"you": you})
    assert r["total_cost"] == "{U}"  # {U}{U}{U}{U} less {U} three times
    # Thrasta: every player's spells count (two of yours, one of theirs): {10}{G}{G} - {9} = {1}{G}{G}
    players = {"you": {"this_turn": {"spells_cast": 2}}, "opp": {"this_turn": {"spells_cast": 1}}}
    r = cost(client, [], {"card": THRASTA}, players=players)
    assert r["total_cost"] == "{1}{G}{G}"


def test_player_counters_speed_and_night_reach_the_rules(client: TestClient) -> None:
    # Distorted Curiosity {2}{U}: {2} less if an opponent has three or more poison counters.
    r = cost(client, [], {"card": "Distorted Curiosity"}, players={"opp": {"counters": {"poison": 3}}})
    assert r["total_cost"] == "{U}"
    # Samut: noncreature spells cost {X} less, X your speed: Fact or Fiction {3}{U} at speed 2.
    samut = [{"id": "samut", "card": "Samut, the Driving Force"}]
    r = cost(client, samut, {"card": "Fact or Fiction"}, players={"you": {"speed": 2}})
    assert r["total_cost"] == "{1}{U}"
    # Moonrager's Slash {2}{R}: {2} less if it's night.
    assert cost(client, [], {"card": "Moonrager's Slash"}, day_night="night")["total_cost"] == "{R}"
    unknown = cost(client, [], {"card": "Moonrager's Slash"})
    assert unknown["total_cost"] == "{2}{R}"
    assert any("day_night" in w["message"] for w in unknown["warnings"]), unknown["warnings"]


def test_any_number_additional_cost_is_paid_with_times(client: TestClient) -> None:
    # Torgaar {6}{B}{B}: sacrifice any number of creatures, {2} less for each: three -> {B}{B}.
    spell = {
        "card": "Torgaar, Famine Incarnate",
        "optional_costs": [{"keyword": "additional cost", "times": 3}],
    }
    r = cost(client, [], spell)
    assert r["total_cost"] == "{B}{B}"
    assert [o["text"] for o in r["other_costs"]] == ["Sacrifice one of any number of creatures"] * 3
