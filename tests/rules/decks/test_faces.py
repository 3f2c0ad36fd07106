"""What a card is cast as and played as (app/rules/decks/faces.py), on cards built as the catalogue does."""

from __future__ import annotations

from app.rules.decks.faces import castables, is_land_card, is_modal_land, land_face
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def _face(name: str, cost: str | None, types: str, text: str = "", keywords: tuple[str, ...] = ()) -> Face:
    return Face(name, ManaCost.parse(cost) if cost else None, TypeLine.parse(types), text, keywords=keywords)


def test_split_halves_and_fuse() -> None:
    fire = Card(
        "Fire // Ice", (_face("Fire", "{1}{R}", "Instant"), _face("Ice", "{1}{U}", "Instant")), "split"
    )
    assert [(c.face, str(c.cost), c.rule) for c in castables(fire)] == [
        ("Fire", "{1}{R}", "709.3a"),
        ("Ice", "{1}{U}", "709.3a"),
    ]
    wear = Card(
        "Wear // Tear",
        (
            _face("Wear", "{1}{R}", "Instant", keywords=("Fuse",)),
            _face("Tear", "{W}", "Instant", keywords=("Fuse",)),
        ),
        "split",
    )
    assert [(c.face, str(c.cost), c.fused) for c in castables(wear)][-1] == (
        "Wear // Tear",
        "{1}{R}{W}",
        True,
    )


def test_adventure_and_omen() -> None:
    giant = Card(
        "Bonecrusher Giant // Stomp",
        (
            _face("Bonecrusher Giant", "{2}{R}", "Creature — Giant"),
            _face("Stomp", "{1}{R}", "Instant — Adventure"),
        ),
        "adventure",
    )
    assert [(c.face, str(c.cost), c.rule) for c in castables(giant)] == [
        (None, "{2}{R}", "601.2"),
        ("Stomp", "{1}{R}", "715.3a"),
    ]


def test_modal_spell_land_and_pathway() -> None:
    call = Card(
        "Emeria's Call // Emeria, Shattered Skyclave",
        (
            _face("Emeria's Call", "{4}{W}{W}{W}", "Sorcery"),
            _face("Emeria, Shattered Skyclave", None, "Land"),
        ),
        "modal_dfc",
    )
    assert not is_land_card(call) and is_modal_land(call)
    assert land_face(call) is call.faces[1]
    assert [(c.face, str(c.cost)) for c in castables(call)] == [(None, "{4}{W}{W}{W}")]
    pathway = Card(
        "Riverglide Pathway // Lavaglide Pathway",
        (_face("Riverglide Pathway", None, "Land"), _face("Lavaglide Pathway", None, "Land")),
        "modal_dfc",
    )
    assert is_land_card(pathway) and not is_modal_land(pathway)
    assert castables(pathway) == ()


def test_transforming_card_by_its_front_face() -> None:
    delver = Card(
        "Delver of Secrets // Insectile Aberration",
        (
            _face("Delver of Secrets", "{U}", "Creature — Human Wizard"),
            _face("Insectile Aberration", None, "Creature"),
        ),
        "transform",
    )
    assert [(c.face, str(c.cost)) for c in castables(delver)] == [(None, "{U}")]
    assert land_face(delver) is None
