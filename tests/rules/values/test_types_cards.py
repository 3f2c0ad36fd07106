"""Type lines (CR 205), creature types (205.3m), faces and cards (709, 702.73a, 702.102)."""

from __future__ import annotations

import pytest

from app.rules.errors import InvalidChoiceError
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.rules.values.types import CREATURE_TYPES, TypeLine, canonical_creature_type, is_card_type_word


def face(name: str, cost: str | None, type_line: str, text: str = "", **kw: object) -> Face:
    return Face(name, None if cost is None else ManaCost.parse(cost), TypeLine.parse(type_line), text, **kw)  # type: ignore[arg-type]


def test_type_line_parts() -> None:
    t = TypeLine.parse("Legendary Snow Creature — Elf Druid")
    assert (
        t.supertypes == ("Legendary", "Snow") and t.types == ("Creature",) and t.subtypes == ("Elf", "Druid")
    )
    assert str(t) == "Legendary Snow Creature — Elf Druid"
    assert TypeLine.parse("Tribal Instant — Goblin").types == ("Kindred", "Instant")
    assert TypeLine.parse("Creature - Time Lord Human").subtypes == ("Time Lord", "Human")
    assert TypeLine.parse("Land — Forest Plains").basic_land_types == ("Forest", "Plains")
    assert TypeLine.parse("Enchantment — Aura").creature_types == ()


def test_creature_types_of_the_2026_04_17_rules() -> None:
    assert len(CREATURE_TYPES) == 317
    assert canonical_creature_type("elf") == "Elf"
    assert canonical_creature_type("c'tan") == "C’tan"
    assert canonical_creature_type("time lord") == "Time Lord"
    assert canonical_creature_type("Cat Warrior") is None
    assert canonical_creature_type("Artifact") is None and is_card_type_word("artifact")


def test_changeling_has_every_creature_type() -> None:
    mimic = face("Mimic", "{1}", "Creature — Shapeshifter", keywords=("Changeling",))
    assert mimic.has_creature_type("Elf") and mimic.has_creature_type("Cleric")
    elf = face("Elf", "{G}", "Creature — Elf")
    assert elf.has_creature_type("Elf") and not elf.has_creature_type("Cleric")
    aura = face("Aura", "{G}", "Enchantment — Aura", "Changeling")
    assert not aura.has_creature_type("Elf")


def test_split_card_costs_and_faces() -> None:
    fire_ice = Card(
        "Fire // Ice",
        (face("Fire", "{1}{R}", "Instant"), face("Ice", "{1}{U}", "Instant")),
        layout="split",
    )
    assert fire_ice.mana_cost == ManaCost.parse("{2}{U}{R}")
    assert fire_ice.face("ice").name == "Ice"
    fused = fire_ice.fused()
    assert str(fused.mana_cost) == "{2}{R}{U}" and fused.color_set == ("U", "R")
    with pytest.raises(InvalidChoiceError):
        fire_ice.face("Water")


def test_land_has_no_mana_cost_which_is_not_zero() -> None:
    forest = Card("Forest", (face("Forest", None, "Basic Land — Forest"),))
    assert forest.mana_cost is None and forest.front.mana_value == 0
    assert ManaCost.zero() is not None


def test_board_lookups() -> None:
    forest = Card("Forest", (face("Forest", None, "Basic Land — Forest"),))
    board = Board(
        (Permanent("f1", forest), Permanent("f2", forest, controller="them")),
        (Player("you"), Player("them", 7)),
    )
    assert [p.id for p in board.controlled_by("you")] == ["f1"]
    assert board.opponents_of("you") == ("them",)
    assert board.player("them").life == 7
    with pytest.raises(InvalidChoiceError):
        board.get("nope")


def test_fold_name() -> None:
    assert fold_name("Lim-Dûl the Necromancer") == "lim-dul the necromancer"
    assert fold_name("Herald’s  Horn") == "herald's horn"
