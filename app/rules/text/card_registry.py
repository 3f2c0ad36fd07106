"""The few cards whose cost effects need code rather than an oracle template.

- Vorthos, Steward of Myth (ruling:vorthos): "Each spell you cast with the chosen character in its name,
  flavor text, or art costs {W}{U}{B}{R}{G} less to cast", colored mana only.
- Richard Garfield, Ph.D. (ruling:richard-garfield-phd): no cost effect; Mental Magic is in
  ``mental_magic``. Registered so its text is known rather than warned about.
- Herald's Horn (ruling:heralds-horn): its reduction is the standard template; its upkeep question is
  answered by ``heralds_horn_reveal`` here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.effects.cost_effects import NO_EFFECTS, CardEffects, CostEffect, Direction, SpellFilter, Who
from app.rules.errors import IllegalError
from app.rules.text.oracle_costs import may_change_costs, read_cost_effects
from app.rules.values.board import Board
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name

VORTHOS: Final = "Vorthos, Steward of Myth"
RICHARD: Final = "Richard Garfield, Ph.D."
HERALDS_HORN: Final = "Herald's Horn"
VORTHOS_TEXT: Final = "with the chosen character in its name, flavor text, or art"
RICHARD_TEXT: Final = "play cards as though they were other cards of your choice with the same mana cost"
_HORN_TEXT: Final = "if it's a creature card of the chosen type, you may reveal it and put it into your hand"

VORTHOS_EFFECT: Final = CostEffect(
    direction=Direction.REDUCTION,
    amount=ManaCost.parse("{W}{U}{B}{R}{G}"),
    spells=SpellFilter(caster=Who.YOU, character=True),
    rule="ruling:vorthos",
    text="Each spell you cast with the chosen character in its name, flavor text, or art costs "
    "{W}{U}{B}{R}{G} less to cast. This effect reduces only the amount of colored mana you pay.",
    colored_only=True,
)
_VORTHOS_EFFECTS: Final = CardEffects(effects=(VORTHOS_EFFECT,))


def is_vorthos(face: Face) -> bool:
    return _is_vorthos(face.name, face.oracle_text)


def _is_vorthos(name: str, oracle_text: str) -> bool:
    return fold_name(name) == fold_name(VORTHOS) or VORTHOS_TEXT in oracle_text


def is_richard(face: Face) -> bool:
    """A permanent with Richard Garfield, Ph.D.'s ability (by name, or by its text for inline cards)."""
    return _is_richard(face.name, face.oracle_text)


def _is_richard(name: str, oracle_text: str) -> bool:
    return fold_name(name) == fold_name(RICHARD) or RICHARD_TEXT in oracle_text


def is_heralds_horn(face: Face) -> bool:
    return fold_name(face.name) == fold_name(HERALDS_HORN) or _HORN_TEXT in face.oracle_text


def cost_effects(name: str, text: str) -> CardEffects:
    """The cost effects of a face's text: the registry's for the cards that need code, else the oracle
    reader's."""
    if not may_change_costs(text):  # the oracle reader's own prefilter: Vorthos's text passes it too
        return NO_EFFECTS
    if _is_vorthos(name, text):
        return _VORTHOS_EFFECTS
    if _is_richard(name, text):
        return NO_EFFECTS
    return read_cost_effects(name, text)


@dataclass(frozen=True, slots=True)
class RevealAnswer:
    """Whether Herald's Horn's upkeep ability lets its controller reveal the top card and put it into hand."""

    may_put_into_hand: bool
    reason: str
    rule: str = "ruling:heralds-horn"


def heralds_horn_reveal(board: Board, horn_id: str, top_card: Card) -> RevealAnswer:
    """Herald's Horn: "If it's a creature card of the chosen type, you may reveal it and put it [in hand]".

    A card in a library has its front face's characteristics (CR 712.8a), a split card both halves'
    (CR 709.4); changelings have every creature type (CR 702.73a); with no chosen type the card can never
    be put into hand, not even a creature card with no creature type (ruling:heralds-horn).
    """
    horn = board.get(horn_id)
    if not is_heralds_horn(horn.characteristics):
        raise IllegalError(
            f"permanent {horn_id!r} is {horn.characteristics.name}, not Herald's Horn",
            rule="ruling:heralds-horn",
        )
    chosen = horn.chosen.creature_type
    face = top_card.fused() if top_card.is_split and len(top_card.faces) > 1 else top_card.front
    if chosen is None:
        return RevealAnswer(
            False,
            f"{horn_id} has no chosen creature type, so no card can be put into your hand this way, not even "
            "a creature card with no creature type",
        )
    if not face.type_line.is_creature:
        return RevealAnswer(False, f"{top_card.name} is not a creature card")
    if face.has_creature_type(chosen):
        how = " (changeling: it is every creature type, CR 702.73a)" if face.is_changeling else ""
        return RevealAnswer(
            True,
            f"{top_card.name} is a creature card of the chosen type {chosen}{how}: you may reveal it "
            "and put it into your hand; otherwise it stays on top without being revealed",
            "702.73a" if face.is_changeling else "ruling:heralds-horn",
        )
    return RevealAnswer(
        False,
        f"{top_card.name} is not a {chosen}; it stays on top of your library without being revealed",
    )
