"""``restrictions.spell_meets`` (CR 106.6): printed restrictions against spells, each both ways.

Restriction texts are the cards' own; the spells are built with the characteristics that decide."""

from __future__ import annotations

import pytest

from app.rules.mana.restrictions import Casting, spell_meets
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


# -- how the spell is cast (a ``Casting``, from the payments request's spell) -----------------------------

HAND = Casting(commander=False)


@pytest.mark.parametrize(
    ("restriction", "face", "casting", "meets"),
    [
        # Elfhame Druid, Throne of Makindi: "kicked spells" (CR 702.33d: its kicker cost was paid)
        (CAST + "kicked spells.", spell("Creature"), Casting(kicked=True), True),
        (CAST + "kicked spells.", spell("Creature"), HAND, False),
        # Volshe Tideturner: a creature, kicked, meets the last alternative; not kicked, none
        (
            CAST + "an instant or sorcery spell or a kicked spell.",
            spell("Creature"),
            Casting(kicked=True),
            True,
        ),
        (CAST + "an instant or sorcery spell or a kicked spell.", spell("Creature"), HAND, False),
        # Rootcoil Creeper, Lord of the Forsaken, Interdimensional Web Watch, Mm'menon (CR 601.2a: the zone)
        (CAST + "spells from your graveyard.", spell("Sorcery"), Casting(cast_from="graveyard"), True),
        (CAST + "spells from your graveyard.", spell("Sorcery"), HAND, False),
        (CAST + "a spell from your graveyard.", spell("Sorcery"), Casting(cast_from="exile"), False),
        (CAST + "spells from exile.", spell("Sorcery"), Casting(cast_from="exile"), True),
        (CAST + "spells from exile.", spell("Sorcery"), Casting(cast_from="graveyard"), False),
        (
            CAST + "a spell from anywhere other than your hand.",
            spell("Artifact"),
            Casting(cast_from="library"),
            True,
        ),
        (CAST + "a spell from anywhere other than your hand.", spell("Artifact"), HAND, False),
        # Altar of the Lost: a card with flashback (CR 702.34a), cast from a graveyard
        (
            CAST + "spells with flashback from a graveyard.",
            Face("Think Twice", ManaCost.parse("{1}{U}"), TypeLine.parse("Instant"), keywords=("Flashback",)),
            Casting(cast_from="graveyard", method="flashback"),
            True,
        ),
        (
            CAST + "spells with flashback from a graveyard.",
            spell("Instant"),
            Casting(cast_from="graveyard"),
            False,
        ),
        # Jeweled Lotus (CR 903.3)
        (CAST + "your commander.", spell("Legendary Creature"), Casting(commander=True), True),
        (CAST + "your commander.", spell("Legendary Creature"), HAND, False),
        (CAST + "your commander.", spell("Legendary Creature"), Casting(), None),  # no commander stated
        # Tin Street Gossip: face down (CR 702.37c); turning creatures face up is no spell
        (
            CAST + "face-down spells or to turn creatures face up.",
            spell("Creature"),
            Casting(method="morph"),
            True,
        ),
        (CAST + "face-down spells or to turn creatures face up.", spell("Creature"), HAND, False),
        # CR 202.3e: X counts as chosen on the stack (Helga's "mana value 4 or greater")
        (CAST + "spells with mana value 4 or greater.", spell("Sorcery", "{X}{R}"), Casting(x=3), True),
        (CAST + "spells with mana value 4 or greater.", spell("Sorcery", "{X}{R}"), Casting(x=2), False),
    ],
)
def test_how_the_spell_is_cast(restriction: str, face: Face, casting: Casting, meets: bool | None) -> None:
    assert spell_meets(restriction, face, Choices(), casting) is meets


@pytest.mark.parametrize(
    "restriction",
    [
        CAST + "kicked spells.",
        CAST + "spells from exile.",
        CAST + "your commander.",
        CAST + "face-down spells.",
    ],
)
def test_how_it_is_cast_not_given_is_not_decided(restriction: str) -> None:
    """Without a ``Casting`` these are not decided (None: the caller leaves the mana out and warns)."""
    assert spell_meets(restriction, spell("Creature"), Choices()) is None


def test_x_not_given_leaves_the_mana_value_undecided() -> None:
    assert (
        spell_meets(CAST + "spells with mana value 4 or greater.", spell("Sorcery", "{X}{R}"), Choices())
        is None
    )


HELGA = CAST + "creature spells with mana value 4 or greater or creature spells with {X} in their mana costs."
NEST = CAST + "a spell that's one or more colors without {X} in its mana cost."


@pytest.mark.parametrize(
    ("restriction", "face", "meets"),
    [
        # Helga, Skittish Seer: either alternative (CR 107.3: {X} in the printed cost; 202.3e: X as chosen)
        (HELGA, spell("Creature", "{X}{G}"), True),
        (HELGA, spell("Creature", "{2}{G}{G}"), True),
        (HELGA, spell("Creature", "{1}{G}"), False),
        (HELGA, spell("Sorcery", "{X}{G}"), False),
        # Troyan, Gutsy Explorer
        (
            CAST + "spells with mana value 5 or greater or spells with {X} in their mana costs.",
            spell("Instant", "{X}{U}"),
            True,
        ),
        (
            CAST + "spells with mana value 5 or greater or spells with {X} in their mana costs.",
            spell("Instant", "{U}"),
            False,
        ),
        # Titans' Nest: colored, no {X}
        (NEST, spell("Sorcery", "{1}{R}"), True),
        (NEST, spell("Sorcery", "{X}{R}"), False),
        (NEST, spell("Artifact", "{3}"), False),
    ],
)
def test_x_in_the_mana_cost(restriction: str, face: Face, meets: bool) -> None:
    assert spell_meets(restriction, face, Choices(), Casting(commander=False)) is meets
