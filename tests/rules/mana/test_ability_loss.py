"""The readers of abilities stopped (CR 602.5, ``registry("prohibition")``) and lost (CR 613.1f,
``registry("ability-loss")``): every example of their templates is read into a value by that template, and
what the values say, on boards of inline cards (real cards' sentences)."""

from __future__ import annotations

import pytest

from app.rules.mana.ability_loss import LOSS, read_losses
from app.rules.mana.activation_checks import check_activation
from app.rules.mana.board_reading import read_board
from app.rules.mana.prohibitions import PROHIBITION, read_prohibitions
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.types import TypeLine


def card(name: str, type_line: str, text: str) -> Card:
    return Card(name, (Face(name, None, TypeLine.parse(type_line), text),))


@pytest.mark.parametrize(("name", "example"), [(t.name, e) for t in LOSS for e in t.examples])
def test_each_loss_example_is_read_by_its_template(name: str, example: str) -> None:
    before = LOSS.hits[name]
    assert len(read_losses(example.replace("~", "Some Card"), "Some Card")) == 1
    assert LOSS.hits[name] == before + 1


@pytest.mark.parametrize(("name", "example"), [(t.name, e) for t in PROHIBITION for e in t.examples])
def test_each_prohibition_example_is_read_by_its_template(name: str, example: str) -> None:
    before = PROHIBITION.hits[name]
    assert len(read_prohibitions(example, "Some Card")) == 1
    assert PROHIBITION.hits[name] == before + 1


ELF = card("Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}.")
FROGIFY = card(
    "Frogify",
    "Enchantment — Aura",
    "Enchant creature\nEnchanted creature loses all abilities and is a blue Frog creature with base power "
    "and toughness 1/1. (It loses all other card types and creature types.)",
)
RITE = card("Cryptolith Rite", "Enchantment", 'Creatures you control have "{T}: Add one mana of any color."')
SUN = card("Blood Sun", "Enchantment", "All lands lose all abilities except mana abilities.")


def board(*perms: Permanent) -> Board:
    return Board(perms, (Player("you"), Player("opp")))


def test_frogify_sets_types_and_takes_the_ability() -> None:
    state = read_board(board(Permanent("elf", ELF), Permanent("frog", FROGIFY, attached_to="elf"))).state(
        "elf"
    )
    assert state.abilities == () and state.stripped
    assert state.types == ("Creature",) and state.subtypes == ("Frog",)  # CR 613.1d: no longer an Elf
    assert [(a.text, by) for a, by in state.lost] == [("Add {G}.", "frog")]


def test_a_grant_later_than_the_loss_stays_an_earlier_one_goes() -> None:
    """CR 613.7: in layer 6, effects apply in timestamp (board) order."""
    early = read_board(
        board(Permanent("rite", RITE), Permanent("frog", FROGIFY, attached_to="elf"), Permanent("elf", ELF))
    ).state("elf")
    late = read_board(
        board(Permanent("frog", FROGIFY, attached_to="elf"), Permanent("rite", RITE), Permanent("elf", ELF))
    ).state("elf")
    assert early.abilities == ()
    assert [a.text for a in late.abilities] == ["Add one mana of any color."]
    assert late.abilities[0].index == 0  # renumbered: indices are the board's


def test_except_mana_abilities_keeps_them_and_drops_the_others() -> None:
    factory = card(
        "Mishra's Factory",
        "Land",
        "{T}: Add {C}.\n{1}: Mishra's Factory becomes a 2/2 Assembly-Worker artifact creature until end of "
        "turn.",
    )
    state = read_board(board(Permanent("f", factory), Permanent("sun", SUN))).state("f")
    assert [a.text for a in state.abilities] == ["Add {C}."]
    assert len(state.lost) == 1 and not state.stripped


def test_an_aura_prohibition_reaches_only_what_it_is_attached_to() -> None:
    arrest = card(
        "Arrest",
        "Enchantment — Aura",
        "Enchant creature\nEnchanted creature can't attack or block, and its activated abilities can't be "
        "activated.",
    )
    b = board(Permanent("a", ELF), Permanent("b", ELF), Permanent("arrest", arrest, attached_to="b"))
    read = read_board(b)
    for pid, stopped in (("a", False), ("b", True)):
        state = read.state(pid)
        reasons = check_activation(read, state, state.abilities[0])
        assert bool(reasons) is stopped
    assert [r.rule for r in check_activation(read, read.state("b"), read.state("b").abilities[0])] == [
        "602.5"
    ]


def test_a_loss_that_cannot_be_read_is_not_taken() -> None:
    """Overwhelming Splendor's "Creatures enchanted player controls" names a player: not read here."""
    assert (
        read_losses("Creatures enchanted player controls lose all abilities.", "Overwhelming Splendor") == ()
    )
    assert read_losses("Until end of turn, target creature loses all abilities.", "Ovinize") == ()
