"""Emerge and offering with the permanent they sacrifice (``ways.with_sacrifice``, CR 702.119a, 702.48a),
on cards written here for the corners the real cards of the golden cases do not reach."""

from __future__ import annotations

from app.rules.casting.engine import total_cost
from app.rules.casting.spell_cost import SpellToCast
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def card(
    name: str, cost: str | None, type_line: str, text: str = "", *back: Face, layout: str = "normal"
) -> Card:
    front = Face(name, ManaCost.parse(cost) if cost else None, TypeLine.parse(type_line), text)
    return Card(name, (front, *back), layout=layout)


def cast(spell: Card, method: str, *permanents: Permanent) -> tuple[str, list[str]]:
    board = Board(permanents, (Player("you"), Player("opponent")))
    r = total_cost(board, "you", SpellToCast(spell, method=method))
    return str(r.total_cost), [o.text for o in r.other_costs]


SNAKE_PATRON = card("Patron", "{6}{G}{G}", "Legendary Creature — Spirit", "Snake offering")
FIEND = card("Fiend", "{8}", "Creature — Eldrazi Octopus", "Emerge {5}{U}{U}")


def test_offering_colored_mana_the_spell_lacks_reduces_generic() -> None:
    # 702.48c: "Colored and colorless mana in the sacrificed permanent's mana cost reduces mana of the same
    # type in spell's total cost, and any excess reduces that much generic mana": {1}{U}{U} from {6}{G}{G}
    # leaves {3}{G}{G}
    snake = Permanent("s", card("Blue Snake", "{1}{U}{U}", "Creature — Snake"))
    assert cast(SNAKE_PATRON, "offering", snake) == ("{3}{G}{G}", ["Sacrifice Blue Snake (s)"])


def test_offering_an_x_in_the_sacrificed_cost_is_zero() -> None:
    # 107.3: X is 0 off the stack: a Snake costing {X}{G} reduces by {G} only
    snake = Permanent("s", card("X Snake", "{X}{G}", "Creature — Snake"))
    assert cast(SNAKE_PATRON, "offering", snake) == ("{6}{G}", ["Sacrifice X Snake (s)"])


def test_emerge_a_transformed_creature_has_its_front_faces_mana_value() -> None:
    # 202.3b: "The mana value of the back face of a nonmodal double-faced permanent ... is calculated as
    # though it had the mana cost of its front face": {3}{B}, mana value 4, reduces {5}{U}{U} to {1}{U}{U}
    back = Face("Night Side", None, TypeLine.parse("Creature — Werewolf"), "")
    wolf = card("Day Side", "{3}{B}", "Creature — Human Werewolf", "", back, layout="transform")
    flipped = Permanent("w", wolf, face="Night Side")
    assert cast(FIEND, "emerge", flipped) == ("{1}{U}{U}", ["Sacrifice Night Side (w)"])


def test_emerge_a_creature_of_mana_value_zero_reduces_nothing() -> None:
    token = Permanent("t", card("Spawn", None, "Creature — Eldrazi Spawn"), token=True)
    assert cast(FIEND, "emerge", token) == ("{5}{U}{U}", ["Sacrifice Spawn (t)"])
