"""Permissions to cast, and alternative costs, that permanents and lasting effects grant (CR 601.2b, 601.3,
118.9, 613), as values; the sentences that state them are read by ``app.rules.text.granted_text``
and ``app.rules.text.own_text``.

A permission says which spells (``SpellKind``), from which zone, at what cost:

- ``ZONE``: cast from a zone other than the hand, paying the normal costs (Yawgmoth's Will, Lurrus, Kess,
  Future Sight); with ``life_for_mana`` the cost is life equal to the mana value (Bolas's Citadel).
- ``ALTERNATIVE``: an alternative cost for spells cast from ``zones`` (Omniscience's "without paying their
  mana costs", Leyline of Mutation's {W}{U}{B}{R}{G}, CR 118.9).
- ``KEYWORD``: a way to cast by keyword (escape from Underworld Breach, flashback from Past in Flames or
  a Snapcaster Mage's trigger) whose cost is the card's mana cost plus ``other_costs``.
- ``OPTIONAL``: an optional additional cost the spells have as their own (CR 613.1f, 601.2b: Djinn
  Illuminatus's replicate, Zinnia's offspring {2}, Anhelo's casualty 2): ``keyword``, its mana ``cost``
  (``cost_is_mana_cost``: the spell's mana cost) and ``other_costs``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from app.rules.effects.other_costs import OtherCost
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost

PERMANENT_TYPES: Final = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")


class PermissionKind(StrEnum):
    ZONE = "zone"
    ALTERNATIVE = "alternative"
    KEYWORD = "keyword"
    OPTIONAL = "optional"


@dataclass(frozen=True, slots=True)
class SpellKind:
    """Which cards a permission covers: any of ``types`` (none: every card), all of ``subtypes``,
    colorless, a permanent card (CR 110.4b), nonland, a mana value at most ``max_mana_value`` (CR 202.3);
    ``alternatives`` are kinds of which one must hold ("artifact spells and colorless spells")."""

    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    colorless: bool = False
    permanent: bool = False
    nonland: bool = False
    max_mana_value: int | None = None
    alternatives: tuple[SpellKind, ...] = ()
    not_types: tuple[str, ...] = ()  # "noncreature"

    def covers(self, face: Face) -> bool:
        if self.alternatives and not any(a.covers(face) for a in self.alternatives):
            return False
        tl = face.type_line
        if self.types and not any(t in tl.types for t in self.types):
            return False
        if any(t in tl.types for t in self.not_types):
            return False
        if any(not (tl.has_subtype(s) or face.has_creature_type(s)) for s in self.subtypes):
            return False
        if self.colorless and face.color_set:
            return False
        if self.permanent and not any(t in tl.types for t in PERMANENT_TYPES):
            return False
        if self.nonland and tl.is_land:
            return False
        if self.max_mana_value is not None:
            mv = face.mana_value
            if mv is None or mv > self.max_mana_value:
                return False
        return True


@dataclass(frozen=True, slots=True)
class Permission:
    """One permission or alternative cost a permanent or a lasting effect grants (see the module)."""

    kind: PermissionKind
    spells: SpellKind
    zones: tuple[str, ...]
    rule: str
    text: str
    cost: ManaCost | None = None  # ALTERNATIVE: the cost paid rather than the mana cost ({0}: without)
    keyword: str | None = None  # KEYWORD: "escape", "flashback"
    other_costs: tuple[OtherCost, ...] = ()
    life_for_mana: bool = False  # pay life equal to the spell's mana value rather than its mana cost
    once_per_turn: bool = False  # "once during each of your turns", "one ... spell": a limit, not checked
    any_player: bool = False  # "any player may cast" (Aluren): not only the source's controller
    named_card: bool = False  # only the card named by the source's chosen card_name (a trigger's target)
    your_turn: bool = False  # "as long as it's your turn", "during your turn": only on its controller's turn
    cost_is_mana_cost: bool = False  # OPTIONAL: "The replicate cost is equal to its mana cost."
    chosen_type: bool = False  # "creature spells of the chosen type": the source's chosen creature type


@dataclass(frozen=True, slots=True)
class OwnPermission:
    """A card's own permission to be cast from another zone (CR 601.3): "You may cast ~ from your graveyard
    using its mutate ability" (``keyword``), "... by paying {2}{W} rather than paying its mana cost"
    (``cost``, an alternative cost), or plainly (the normal costs)."""

    zone: str
    rule: str
    text: str
    keyword: str | None = None
    cost: ManaCost | None = None
    other_costs: tuple[OtherCost, ...] = ()
    condition: str | None = None


@dataclass(frozen=True, slots=True)
class KeywordCostChange:
    """ "Buyback costs cost {2} less." (Memory Crystal): generic mana off an optional cost's keyword cost,
    each time it is paid (CR 118.7a)."""

    keyword: str
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class GrantedText:
    """What a permanent's or an effect's text grants, and its casting sentences that were not understood."""

    permissions: tuple[Permission, ...] = ()
    not_read: tuple[str, ...] = ()
    keyword_costs: tuple[KeywordCostChange, ...] = ()


__all__ = [
    "GrantedText",
    "KeywordCostChange",
    "OwnPermission",
    "Permission",
    "PermissionKind",
    "SpellKind",
]
