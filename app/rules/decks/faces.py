"""What a deck's card can be cast as, and whether it can be played as a land, face by face.

- A card is a land card by its front face (CR 712.8a: outside the battlefield and stack a double-faced card
  has only its front face's characteristics); a split card's halves are both read (CR 709.4).
- A modal double-faced card whose front is a spell and another face a land (Emeria's Call // Emeria,
  Shattered Skyclave) is not a land card, but it can be played as that land (CR 712.12): a deck counts it
  apart (``modal_lands``) and as a source of what the land face could produce.
- Each castable part is tested on its own (the castability model's ``turn`` is that part's mana value):
  a split card's halves (CR 709.3a: "Only the chosen half is evaluated to see if it can be cast") and, with
  fuse, both together (CR 702.102c: "The total cost of a fused split spell includes the mana cost of each
  half"); an adventurer as its creature and as its Adventure (CR 715.3a); an Omen card likewise (CR 720.3);
  a modal double-faced card's spell faces each (CR 712.11b-c); a transforming double-faced card (and a
  battle) by its front face only (CR 712.11: cast front face up; its back face has no mana cost).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost

_SECOND_SPELL: Final = {"adventure": "715.3a", "omen": "720.3"}
"""Layouts whose second face is another way to cast the card, and the rule that says so."""


@dataclass(frozen=True, slots=True)
class Castable:
    """One way to cast a card on its own: ``face`` is the half or face cast (None: the card as printed),
    ``cost`` that part's mana cost, ``rule`` the rule that lets it be cast so, ``fused`` both halves."""

    face: str | None
    cost: ManaCost
    rule: str
    fused: bool = False


def is_land_card(card: Card) -> bool:
    """CR 205.2a, 712.8a: a land card by its front face's types (a modal spell // land card is not)."""
    return card.front.type_line.has_type("Land")


def land_face(card: Card) -> Face | None:
    """The face the card is played as a land with: its front when it is a land card, else a modal
    double-faced card's land face (CR 712.12); None when it cannot be played as a land."""
    if is_land_card(card):
        return card.front
    if card.layout == "modal_dfc":
        for f in card.faces[1:]:
            if f.type_line.has_type("Land"):
                return f
    return None


def is_modal_land(card: Card) -> bool:
    """A modal double-faced card with a spell front and a land face (CR 712.12)."""
    return not is_land_card(card) and land_face(card) is not None


def castables(card: Card) -> tuple[Castable, ...]:
    """Every part of a nonland card that is cast on its own, each with its mana cost (module docstring)."""
    if card.is_split and len(card.faces) > 1:
        out = [Castable(f.name, f.mana_cost, "709.3a") for f in card.faces if f.mana_cost is not None]
        fused = card.mana_cost
        if any(f.has_keyword("Fuse") for f in card.faces) and fused is not None:
            out.append(Castable(card.name, fused, "702.102c", fused=True))
        return tuple(out)
    if card.layout in _SECOND_SPELL and len(card.faces) > 1:
        rule = _SECOND_SPELL[card.layout]
        return tuple(
            Castable(None if i == 0 else f.name, f.mana_cost, "601.2" if i == 0 else rule)
            for i, f in enumerate(card.faces[:2])
            if f.mana_cost is not None
        )
    if card.layout == "modal_dfc" and len(card.faces) > 1:
        return tuple(
            Castable(None if i == 0 else f.name, f.mana_cost, "712.11b")
            for i, f in enumerate(card.faces)
            if f.mana_cost is not None and not f.type_line.has_type("Land")
        )
    cost = card.front.mana_cost
    return () if cost is None else (Castable(None, cost, "601.2"),)
