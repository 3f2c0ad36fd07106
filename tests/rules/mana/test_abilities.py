"""Abilities of permanents (CR 305.6, 602.1, 613.1f) and activation checks (107.5, 107.6, 302.6, 119.4)."""

from __future__ import annotations

from app.rules.mana.activation_checks import check_activation
from app.rules.mana.board_reading import read_board
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.costs import ManaCost
from tests.rules.mana.test_production import inline, perm


def _reasons(b: Board, pid: str, index: int = 0) -> list[str]:
    st = read_board(b)
    s = st.state(pid)
    return [r.rule for r in check_activation(st, s, s.abilities[index])]


def _board(*perms: Permanent, life: int = 20) -> Board:
    return Board(perms, (Player("you", life), Player("opp")))


def test_reminder_text_is_no_ability_and_land_types_give_intrinsic_ones() -> None:
    s = read_board(_board(perm("s", "Savannah"))).state("s")
    assert [(a.cost_text, a.text, a.rule, a.is_mana_ability) for a in s.abilities] == [
        ("{T}", "Add {W}.", "305.6", True),
        ("{T}", "Add {G}.", "305.6", True),
    ]


def test_dryad_arbor_is_a_creature_so_summoning_sickness_applies() -> None:
    b = _board(perm("d", "Dryad Arbor", controlled_since_turn_began=False))
    assert [a.text for a in read_board(b).state("d").abilities] == ["Add {G}."]
    assert _reasons(b, "d") == ["302.6"]
    assert _reasons(_board(perm("d", "Dryad Arbor")), "d") == []


def test_lands_and_artifacts_that_are_not_creatures_ignore_302_6() -> None:
    assert _reasons(_board(perm("f", "Forest", controlled_since_turn_began=False)), "f") == []
    assert _reasons(_board(perm("sol", "Sol Ring", controlled_since_turn_began=False)), "sol") == []


def test_haste_keyword_or_granted_haste_lifts_302_6() -> None:
    hasty = inline("Hasty Elf", "Creature — Elf", "Haste\n{T}: Add {G}.", keywords=("Haste",))
    assert _reasons(_board(perm("h", hasty, controlled_since_turn_began=False)), "h") == []
    elves = perm("e", "Llanowar Elves", controlled_since_turn_began=False)
    assert _reasons(_board(elves), "e") == ["302.6"]
    assert _reasons(_board(elves, perm("fervor", "Fervor")), "e") == []
    assert _reasons(_board(elves, perm("fervor", "Fervor", "opp")), "e") == ["302.6"]


def test_tapped_and_untapped() -> None:
    assert _reasons(_board(perm("f", "Forest", tapped=True)), "f") == ["107.5"]
    untapper = inline("Untapper", "Artifact", "{Q}: Add {C}.")
    assert _reasons(_board(perm("u", untapper)), "u") == ["107.6"]
    assert _reasons(_board(perm("u", untapper, tapped=True)), "u") == []
    sick = perm("e", "Llanowar Elves", tapped=True, controlled_since_turn_began=False)
    assert _reasons(_board(sick), "e") == ["107.5", "302.6"]


def test_life_costs_and_sacrifice_costs() -> None:
    assert _reasons(_board(perm("m", "Mana Confluence"), life=0), "m") == ["119.4"]
    assert _reasons(_board(perm("m", "Mana Confluence"), life=1), "m") == []
    assert _reasons(_board(perm("sq", "Squandered Resources")), "sq") == ["118.3"]
    assert _reasons(_board(perm("sq", "Squandered Resources"), perm("f", "Forest", "opp")), "sq") == ["118.3"]
    assert _reasons(_board(perm("sq", "Squandered Resources"), perm("f", "Forest")), "sq") == []


def test_non_mana_and_loyalty_abilities_are_listed_not_mana() -> None:
    s = read_board(_board(perm("d", "Deathrite Shaman"))).state("d")
    assert [a.is_mana_ability for a in s.abilities] == [False, False, False]  # targets: 605.5a
    pw = inline("Mana Walker", "Legendary Planeswalker — Test", "+1: Add {G}{G}.\n−2: Draw a card.")
    s = read_board(_board(perm("pw", pw))).state("pw")
    assert [(a.cost_text, a.is_loyalty, a.is_mana_ability) for a in s.abilities] == [
        ("+1", True, False),
        ("−2", True, False),
    ]
    drawer = inline("Drawer", "Artifact", "{2}, {T}: Draw a card.")
    a = read_board(_board(perm("x", drawer))).state("x").abilities[0]
    assert (a.cost_text, a.is_mana_ability, a.mana_cost) == ("{2}, {T}", False, ManaCost.parse("{2}"))


def test_blood_moon_removes_own_abilities_but_not_granted_ones() -> None:
    b = _board(perm("pool", "Reflecting Pool"), perm("bm", "Blood Moon"), perm("lan", "Chromatic Lantern"))
    s = read_board(b).state("pool")
    assert s.lost_own_abilities
    assert [(a.rule, a.text) for a in s.abilities] == [
        ("305.6", "Add {R}."),
        ("613.1f", "Add one mana of any color."),
    ]
    assert s.abilities[1].granted_by == "lan"
