"""``produced_mana`` is read from each card's own abilities (``app.rules.text.oracle_mana``'s
``card_produced_mana``): made-up texts for each shape, and real cards of the bundled catalogue (data in the
repository, so the test always runs; it replaces a comparison with a Scryfall field the shared extract
never carries, which skipped in every run)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from app.rules.text.oracle_mana import card_produced_mana
from app.rules.values.symbols import MANA_TYPES
from app.services.card_formats import card_from_scryfall


def _card(name: str, type_line: str, text: str) -> dict[str, Any]:
    return {"name": name, "type_line": type_line, "oracle_text": text, "mana_cost": ""}


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (_card("Elf", "Creature — Elf Druid", "{T}: Add {G}."), ("G",)),
        (_card("Land", "Land — Forest Island", ""), ("U", "G")),  # CR 305.6 intrinsic abilities
        (_card("Ritual", "Instant", "Add {B}{B}{B}."), ("B",)),  # a spell ability
        (_card("Any", "Artifact", "{T}: Add one mana of any color."), ("W", "U", "B", "R", "G")),
        (
            _card("Pool", "Land", "{T}: Add one mana of any type that a land you control could produce."),
            MANA_TYPES,
        ),
        (_card("Tomb", "Land", "{T}: Add {C}{C}. Ancient Tomb deals 2 damage to you."), ("C",)),
        (_card("Rite", "Enchantment", 'Creatures you control have "{T}: Add one mana of any color."'), ()),
        (_card("Bolt", "Instant", "Lightning Bolt deals 3 damage to any target."), ()),
        (_card("Walker", "Legendary Planeswalker — Chandra", "+1: Add {R}{R}.\n−2: Draw a card."), ("R",)),
        (
            _card(
                "Growth",
                "Enchantment — Aura",
                "Whenever enchanted land is tapped for mana, its controller adds an additional {G}.",
            ),
            ("G",),
        ),
    ],
)
def test_produced_mana_from_text(record: dict[str, Any], expected: tuple[str, ...]) -> None:
    assert card_produced_mana(card_from_scryfall(record)) == expected


# Real cards of the bundled catalogue (app/data/cards.json.gz, in the repository), each with the sentence that
# decides it and the rule; worked out by hand from that text.
REAL = [
    ("Birds of Paradise", "{T}: Add one mana of any color.", "WUBRG", "605.1a"),
    ("Llanowar Elves", "{T}: Add {G}.", "G", "605.1a"),
    ("Sol Ring", "{T}: Add {C}{C}.", "C", "106.1b"),
    ("Ancient Tomb", "{T}: Add {C}{C}. Ancient Tomb deals 2 damage to you.", "C", "106.1b"),
    ("Dark Ritual", "Add {B}{B}{B}.", "B", "106.3"),  # a spell ability adds mana too
    ("Lotus Petal", "{T}, Sacrifice Lotus Petal: Add one mana of any color.", "WUBRG", "605.1a"),
    ("City of Brass", "{T}: Add one mana of any color.", "WUBRG", "605.1a"),
    ("Cabal Coffers", "{2}, {T}: Add {B} for each Swamp you control.", "B", "605.1a"),
    ("Tundra", "Land — Plains Island", "WU", "305.6"),  # its intrinsic abilities, from its land types
    # CR 106.7: "any type a land could produce" may be any type, colorless included
    (
        "Reflecting Pool",
        "{T}: Add one mana of any type that a land you control could produce.",
        "WUBRGC",
        "106.7",
    ),
    # its own ability adds any color; the one it gives lands is theirs (CR 613.1f), and adds no other type
    ("Chromatic Lantern", "{T}: Add one mana of any color.", "WUBRG", "605.1a"),
    # CR 613.1f: the ability is the creatures' it grants it to, not the enchantment's
    ("Cryptolith Rite", 'Creatures you control have "{T}: Add one mana of any color."', "", "613.1f"),
    # a triggered mana ability of the Aura itself (CR 605.1b): the chosen color is any of the five
    (
        "Utopia Sprawl",
        "Whenever enchanted Forest is tapped for mana, its controller adds an additional one mana of the "
        "chosen color.",
        "WUBRG",
        "605.1b",
    ),
]
BUNDLED = Path(__file__).resolve().parents[2] / "app" / "data" / "cards.json.gz"


@cache
def _bundled() -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in json.loads(gzip.decompress(BUNDLED.read_bytes()))}


@pytest.mark.parametrize(("name", "quote", "expected", "rule"), REAL)
def test_produced_mana_of_real_cards(name: str, quote: str, expected: str, rule: str) -> None:
    record = _bundled()[name]
    assert quote in f"{record['type_line']}\n{record.get('oracle_text', '')}", "the quote is the card's"
    assert "".join(card_produced_mana(card_from_scryfall(record))) == expected, rule
