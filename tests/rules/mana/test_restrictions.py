"""``restrictions.spell_meets`` (CR 106.6): printed restrictions against spells, each both ways.

Restriction texts are the cards' own; the spells are built with the characteristics that decide."""

from __future__ import annotations

import pytest

from app.rules.mana.restrictions import spell_meets
from app.rules.values.board import Choices
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine

CAST = "Spend this mana only to cast "


def spell(line: str, cost: str = "{1}") -> Face:
    return Face("Spell", ManaCost.parse(cost), TypeLine.parse(line))


@pytest.mark.parametrize(
    ("restriction", "line", "meets"),
    [
        # Gallifrey Council Chamber: "Time Lord" is one creature type of two words (CR 205.3m)
        (
            CAST + "a Time Lord or Alien spell or activate an ability of a Time Lord or Alien.",
            "Creature — Time Lord",
            True,
        ),
        (
            CAST + "a Time Lord or Alien spell or activate an ability of a Time Lord or Alien.",
            "Creature — Lord",
            False,
        ),
        (CAST + "Time Lord spells.", "Legendary Creature — Time Lord Doctor", True),
        # Chandra's Embercat, Maelstrom of the Spirit Dragon: each alternative with its article and "spell"
        (
            CAST + "an Elemental spell or a Chandra planeswalker spell.",
            "Legendary Planeswalker — Chandra",
            True,
        ),
        (
            CAST + "an Elemental spell or a Chandra planeswalker spell.",
            "Legendary Planeswalker — Jace",
            False,
        ),
        (CAST + "a Dragon spell or an Omen spell.", "Sorcery — Omen", True),
        (CAST + "a Dragon spell or an Omen spell.", "Sorcery", False),
        # Freya Crescent, Guidelight Optimizer: the ability half is no spell
        (CAST + "an Equipment spell or activate an equip ability.", "Artifact — Equipment", True),
        (CAST + "an Equipment spell or activate an equip ability.", "Artifact", False),
        (CAST + "an artifact spell or activate an ability.", "Artifact", True),
        (CAST + "an artifact spell or activate an ability.", "Instant", False),
        # Automated Artificer: the ability half first
        (
            "Spend this mana only to activate an ability or cast an artifact spell.",
            "Artifact Creature — Golem",
            True,
        ),
        ("Spend this mana only to activate an ability or cast an artifact spell.", "Creature — Golem", False),
        # Steelswarm Operator, Soldevi Machinist: abilities only, never a spell
        ("Spend this mana only to activate abilities of artifact sources.", "Artifact", False),
        ("Spend this mana only to activate abilities of artifacts.", "Artifact", False),
        # Volshe Tideturner: one alternative met is enough; "kicked" is not known of a spell
        (CAST + "an instant or sorcery spell or a kicked spell.", "Instant", True),
        (CAST + "an instant or sorcery spell or a kicked spell.", "Creature — Bear", None),
    ],
)
def test_spell_meets(restriction: str, line: str, meets: bool | None) -> None:
    assert spell_meets(restriction, spell(line), Choices()) is meets
